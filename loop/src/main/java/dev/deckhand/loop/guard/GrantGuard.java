package dev.deckhand.loop.guard;

import dev.deckhand.grant.Accelerators;
import dev.deckhand.grant.ActionKind;
import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.BasisInfo;
import dev.deckhand.grant.Consequential;
import dev.deckhand.grant.DeniedPlaces;
import dev.deckhand.grant.DenyScan;
import dev.deckhand.grant.Facts;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.InputPolicy;
import dev.deckhand.grant.Policy;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.PolicyDecision;
import dev.deckhand.grant.ProposedAction;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.grant.ScopeKind;
import dev.deckhand.loop.Guard;
import dev.deckhand.loop.StopSignal;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ElementAction;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.steps.Step;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The loop's {@link Guard} for one run, pure: the grant broker, the {@link Policy}, the approval book and
 * the desktop's facts. Everything is read at every check — the policy (a switch to {@code ask} mid-run
 * takes effect at the next action), the grant (revoked, expired, Stop, the revision) and the facts (so
 * the absolute refusals hold on every action, not only at grant time). The facts come as the desktop
 * keeps them current ({@link dev.deckhand.loop.desktop.Facts#current()}), except at the last check before a native call, before a
 * capture and after a person's decision, which read the absolute refusals' facts now
 * ({@link dev.deckhand.loop.desktop.Facts#fresh()}). A watcher refusal
 * ({@link #abort}) wins over everything.
 *
 * <p>Per action: {@link #check} proposes the action by effect ({@link Proposals}) and decides; an
 * approval card, when needed, shows the text to be typed, every character of it ({@link CardText}), and where
 * a chord goes. {@link #reserve} sets a budget unit aside before delivery. {@link #lastCheck}, right
 * before each native call, re-reads Stop, the grant, the policy and the facts, and for {@code key} and
 * {@code type} requires the input focus (window and element) to be where {@link #check} last saw it.
 *
 * <p>Explicit steps under confirm-each: one card for the list ({@link #approveSteps}); then every step is
 * judged when it runs ({@link #checkStep}) against what that card showed ({@link BatchCard}) — a step whose
 * target did not exist when the card was shown, or resolves to another element now, and any consequential
 * effect the card did not show on that element, raise a card for that step alone.
 *
 * <p>Deckhand never moves the person's focus: a {@code focus}, and a {@code click} on a text field, are refused while
 * another window is active ({@link #movesPersonsFocus}), and the run ends once the granted app's window (or a new
 * window of its client, a popup) becomes the active one while the person was in another window when the run began or
 * at the last action —
 * read at every check, after each delivery, during waits and at the run's end ({@link #watch}), and by the run's
 * watcher every poll. The run ends too once another program changed the person's keyboard (its map, modifiers or
 * controls) during it. A private virtual desktop Deckhand started is exempt from both.
 */
public final class GrantGuard implements Guard {

    /** How often a pending approval is polled. */
    public static final Duration APPROVAL_POLL = Duration.ofMillis(20);

    private final Supplier<PolicyConfig> policy;
    private final GrantBroker broker;
    private final ApprovalBook approvals;
    private final Desktop desktop;
    private final String sessionId;
    private final String grantId;
    private final StopSignal stop;
    private final Clock clock;
    private final BiConsumer<ApprovalBook.Approval, ApprovalBook.Status> onCard;
    private final DeniedPlaces places;
    /** The folder a file chooser's path bar last showed in this run (GTK hides it while the location entry is open). */
    private volatile Optional<Path> chooserFolder = Optional.empty();

    private final AtomicReference<Refusal> aborted = new AtomicReference<>();
    private final AtomicLong approvalNanos = new AtomicLong();
    private volatile java.time.Instant cardsUntil;
    /** What the approved card of this run's explicit steps covers; null without one (autonomous, a model run). */
    private volatile BatchCard batch;

    private volatile GrantBroker.Reservation reservation;
    /** Where the input focus was when the current action was last checked: window and element. */
    private volatile FocusMark focusAtCheck;
    /** The current action's approval was consumed (its card, or the steps' card). */
    private volatile boolean actionApproved;
    /** The current key or type was already judged for denied places on a tree read at its last check. */
    private volatile boolean placesLooked;

    private record FocusMark(long window, Optional<DesktopFacts.FocusedElement> element) {}

    /** The keyboard's change count when the run began ({@link #checkRun}); -1 before, or when it is not watched. */
    private volatile long keyboardAtStart = -1;
    /** The windows on the display when the run began, and the newest start of their processes; see {@link #newProgram}. */
    private volatile StartingWindows windowsAtStart;

    /** @param ids the top-level windows then @param newestStart the latest process start among them (clock ticks) */
    private record StartingWindows(java.util.Set<Long> ids, long newestStart) {}

    /** {@link #activeBefore} before the current action's first last check. */
    private static final long UNREAD = -1;
    /**
     * The display's active window at the current action's first last check (right before its first native
     * call), with the grant it was judged under; {@link #afterDelivery} compares the active window with it.
     */
    private volatile long activeBefore = UNREAD;

    private volatile Grant activeGrant;

    /**
     * @param policy read at every check (the app passes its policy store)
     * @param onCard told when a card is raised ({@code PENDING}) and when it is decided (for the audit)
     */
    public GrantGuard(
            Supplier<PolicyConfig> policy,
            GrantBroker broker,
            ApprovalBook approvals,
            Desktop desktop,
            String sessionId,
            String grantId,
            StopSignal stop,
            Clock clock,
            BiConsumer<ApprovalBook.Approval, ApprovalBook.Status> onCard) {
        this(policy, broker, approvals, desktop, sessionId, grantId, stop, clock, onCard, DeniedPlaces.NONE);
    }

    /**
     * @param places the places no file dialog, address bar or {@code file://} page may reach ({@code DENY_PATH});
     *     the application builds them from its config directory and the file verifier's denied set
     */
    public GrantGuard(
            Supplier<PolicyConfig> policy,
            GrantBroker broker,
            ApprovalBook approvals,
            Desktop desktop,
            String sessionId,
            String grantId,
            StopSignal stop,
            Clock clock,
            BiConsumer<ApprovalBook.Approval, ApprovalBook.Status> onCard,
            DeniedPlaces places) {
        this.places = Objects.requireNonNull(places, "places");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.broker = Objects.requireNonNull(broker, "broker");
        this.approvals = Objects.requireNonNull(approvals, "approvals");
        this.desktop = Objects.requireNonNull(desktop, "desktop");
        this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
        this.grantId = Objects.requireNonNull(grantId, "grantId");
        this.stop = Objects.requireNonNull(stop, "stop");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.onCard = Objects.requireNonNull(onCard, "onCard");
    }

    /**
     * Approval cards of this run wait for the person until {@code deadline} (the run's wall clock), unless
     * the book's own ttl is shorter: a card stays until the person decides, Stop, or the run's end.
     */
    public void cardsUntil(java.time.Instant deadline) {
        cardsUntil = deadline;
    }

    /** The watcher's verdict: the run ends with this refusal at its next check. */
    public void abort(Refusal refusal) {
        aborted.compareAndSet(null, refusal);
    }

    public Optional<Refusal> aborted() {
        return Optional.ofNullable(aborted.get());
    }

    /** Time spent waiting for the person's decisions on approval cards. */
    public long approvalNanos() {
        return approvalNanos.get();
    }

    /** The active grant if this session may use it; its budget is not asked for ({@link #reserve} does). */
    private Grant grant() {
        Optional<Refusal> unusable = broker.usable(sessionId, grantId);
        if (unusable.isPresent() && unusable.get().code() != RefusalCode.BUDGET_EXHAUSTED) {
            throw new RefusedException(unusable.get());
        }
        return broker.active()
                .filter(g -> g.id().equals(grantId))
                .orElseThrow(
                        () -> new RefusedException(Refusal.grantRevoked("grant " + grantId + " is no longer active")));
    }

    /**
     * Runs one check: a refusal that unwinds it (the broker's, the driver's, {@link Proposals}') becomes the
     * check's answer here, the one place this guard turns an exception into a refusal.
     */
    private static Optional<Refusal> guarded(Supplier<Optional<Refusal>> check) {
        try {
            return check.get();
        } catch (RefusedException e) {
            return Optional.of(e.refusal());
        }
    }

    @Override
    public Optional<Refusal> checkRun() {
        if (aborted().isPresent()) return aborted();
        return guarded(() -> {
            Grant g = grant();
            if (g.budgetRemaining() <= 0) {
                return Optional.of(Refusal.budgetExhausted("grant " + g.id() + " has no budget left"));
            }
            DesktopFacts read = facts();
            Optional<Refusal> denied = DenyScan.scan(policy.get(), FactsMapper.facts(read, 0));
            if (denied.isEmpty() && !desktop.display().privateDesktop()) {
                // where the person is when the run begins, and the keyboard as it is: both are watched from here
                long active = desktop.display().activeWindow();
                if (personElsewhere(active, g)) watch = new Watch(active, g, "", clock.instant());
                keyboardAtStart = desktop.display().keyboardChanges().count();
                // the windows the deny scan just read, not a second read of the list
                List<dev.deckhand.loop.desktop.WindowInfo> all = read.windows();
                windowsAtStart = new StartingWindows(
                        all.stream().map(w -> w.id()).collect(java.util.stream.Collectors.toUnmodifiableSet()),
                        all.stream().mapToLong(w -> w.processStart()).max().orElse(Long.MAX_VALUE));
            }
            return denied;
        });
    }

    @Override
    public Optional<Refusal> checkObserve() {
        return beforeCapture(false);
    }

    @Override
    public Optional<Refusal> checkTree(ScopedTree tree) {
        if (aborted().isPresent()) return aborted();
        Optional<Path> folder = ShownPlaces.chooserFolder(tree);
        if (folder.isPresent()) chooserFolder = folder;
        Optional<Refusal> shown = ShownPlaces.shown(tree, places, chooserFolder);
        if (shown.isPresent()) return shown;
        try {
            return ShownPlaces.framedLocalPage(tree, () -> facts().browserHost());
        } catch (RefusedException unread) {
            return Optional.of(unread.refusal());
        }
    }

    @Override
    public Optional<Refusal> checkCapture() {
        return beforeCapture(true);
    }

    private Optional<Refusal> beforeCapture(boolean pixels) {
        if (aborted().isPresent()) return aborted();
        return guarded(() -> {
            Optional<Refusal> moved = watched();
            if (moved.isPresent()) return moved;
            Grant g = grant();
            long window = g.target().windowId();
            // a capture reads the facts behind SECURE_INPUT now, as the last check before an action does
            return Policy.beforeCapture(
                    policy.get(), g, FactsMapper.facts(pixels ? freshFacts() : facts(), window), window, pixels);
        });
    }

    @Override
    public List<Long> joinedWindows() {
        try {
            Grant g = grant();
            if (g.scope() != ScopeKind.APP) return List.of();
            DesktopFacts windows = new DesktopFacts(
                    false, false, java.util.Set.of(), desktop.display().windows(), Optional.empty());
            return Policy.dialogsOver(
                            FactsMapper.facts(windows, g.target().windowId()),
                            g.target().windowId())
                    .stream()
                    .map(Facts.WindowFact::windowId)
                    .toList();
        } catch (RefusedException e) {
            return List.of();
        }
    }

    @Override
    public Optional<Refusal> approveSteps(List<Step> steps, List<Optional<Node>> resolved, ScopedTree tree) {
        if (aborted().isPresent()) return aborted();
        return guarded(() -> {
            Grant g = grant();
            if (Policy.effectiveInputPolicy(policy.get(), g) != InputPolicy.CONFIRM_EACH) return Optional.empty();
            return approveBatch(steps, resolved, tree, g);
        });
    }

    /**
     * One card for the whole batch, each step resolved to its target (or said not to be on screen yet). Once
     * approved it covers each step only as it showed it ({@link BatchCard}); {@link #checkStep} judges every
     * step against it when the step runs.
     */
    private Optional<Refusal> approveBatch(List<Step> steps, List<Optional<Node>> resolved, ScopedTree tree, Grant g) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            String target = resolved.get(i)
                    .map(n -> n.role() + " \"" + n.name() + "\"")
                    .orElse(s.target()
                            .map(t -> t.describe() + " (not on screen yet)")
                            .orElse(s.windowPoint() ? "a point of the window" : "the focused element"));
            lines.add((i + 1) + ". " + s.action().kind() + " → " + target + note(s.action()));
        }
        java.util.SortedMap<Integer, String> gated = gatedSteps(steps, resolved, tree, g);
        Optional<String> consequential = gated.isEmpty()
                ? Optional.empty()
                : Optional.of(String.join(
                        "; ",
                        gated.entrySet().stream()
                                .map(e -> "step " + (e.getKey() + 1) + ": " + e.getValue())
                                .toList()));
        Optional<Refusal> decision =
                awaitApproval(approvals.request(g.id(), g.revision(), null, lines, consequential, cardsUntil), g, null);
        if (decision.isEmpty()) {
            batch = BatchCard.of(
                    tree.grantRevision(),
                    steps.stream().map(s -> s.target().isPresent()).toList(),
                    resolved,
                    gated.keySet());
        }
        return decision;
    }

    /**
     * The steps of a batch whose resolved target the consequential gate would stop, described for the card:
     * a batch card that shows a Send is a consequential card, and denying it is
     * {@code CONSEQUENTIAL_NOT_NAMED}, as for a single action. Steps whose target is not on screen yet, and
     * keys, typed text and points (whose effect depends on the focus or the point when they run), are judged
     * by {@link #checkStep} when they run, and a consequential effect there raises a card of its own.
     */
    private java.util.SortedMap<Integer, String> gatedSteps(
            List<Step> steps, List<Optional<Node>> resolved, ScopedTree tree, Grant g) {
        PolicyConfig config = policy.get();
        long window = g.target().windowId();
        DesktopFacts read = facts();
        java.util.SortedMap<Integer, String> gated = new java.util.TreeMap<>();
        for (int i = 0; i < steps.size(); i++) {
            if (resolved.get(i).isEmpty() || !(steps.get(i).action() instanceof ElementAction)) continue;
            Action a = steps.get(i).resolved(resolved.get(i).get().uid());
            ProposedAction p = Proposals.propose(a, tree, window, null, null, read);
            Optional<Consequential.Match> m = Consequential.classify(p, config.consequentialWords());
            if (m.isPresent() && !Consequential.named(g.consequential(), p, m.get()))
                gated.put(i, m.get().what());
        }
        return gated;
    }

    /**
     * The accelerators of the target's menu items as {@link #check} read them for a {@code key}: the last check
     * judges the chord against the same menus (read once: a walk of every menu costs a few hundred calls).
     */
    private Accelerators acceleratorsAtCheck = Accelerators.UNKNOWN;

    private static ProposedAction withAccelerators(ProposedAction p, Accelerators a) {
        return p.chord().isEmpty() ? p : p.withContext(p.context().withAccelerators(a));
    }

    /** Whether a program other than a shell at its prompt reads the keys of the granted app's terminal. */
    private volatile BooleanSupplier programReadsKeys = () -> false;

    /**
     * How to read whether a program other than a shell at its prompt reads the keys of the granted app's terminal
     * (a full-screen program, a job in the foreground): read at each check of a {@code key} or {@code type}, which is
     * then {@code send} there. Without it, no program does (an app with no terminal).
     */
    public void programReadsKeys(BooleanSupplier read) {
        programReadsKeys = Objects.requireNonNull(read, "read");
    }

    /** {@code p} with what reads the terminal's keys now, for a {@code key} or {@code type}. */
    private ProposedAction withKeysReader(ProposedAction p) {
        if (p.kind() != ActionKind.KEY && p.kind() != ActionKind.TYPE) return p;
        return p.withContext(p.context().withProgramReadsKeys(programReadsKeys.getAsBoolean()));
    }

    @Override
    public Optional<Refusal> check(Action action, ScopedTree tree, Optional<Basis> basis) {
        return checkStep(-1, action, tree, basis);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The policy judges the action itself, every time (never as "approved"): where it asks for the
     * person, the batch's approved card answers only for a step it covers as it resolves now
     * ({@link BatchCard#notCovered}), and for a consequential effect only one the card showed on that very
     * element; anything else raises a card for this step alone.
     */
    @Override
    public Optional<Refusal> checkStep(int step, Action action, ScopedTree tree, Optional<Basis> basis) {
        if (aborted().isPresent()) return aborted();
        return guarded(() -> {
            Optional<Refusal> moved = watched();
            if (moved.isPresent()) return moved;
            Grant g = grant();
            PolicyConfig config = policy.get();
            long window = g.target().windowId();
            // What a key or typed text does depends on where the focus is now: those are checked on fresh facts,
            // so that a focus the kept facts have not heard of yet (LibreOffice announces it late) is not first
            // met at the last check, which can only refuse. Element actions name their target.
            boolean toFocus = writesToFocus(action);
            DesktopFacts read = toFocus ? freshFacts() : facts();
            if (toFocus) read = awaitAccessibleFocus(read, window);
            BasisInfo basisInfo = basis.map(FactsMapper::basis).orElse(null);
            Facts facts = measured(FactsMapper.facts(read, window), basis);
            acceleratorsAtCheck =
                    action instanceof Action.Key ? desktop.trees().accelerators(window) : Accelerators.UNKNOWN;
            ProposedAction proposed = withKeysReader(withAccelerators(
                    Proposals.propose(action, tree, window, basisInfo, basis.orElse(null), read), acceleratorsAtCheck));
            focusAtCheck = new FocusMark(read.focusedWindow(), read.focusedElement());
            activeBefore = UNREAD;
            actionApproved = false;
            placesLooked = false;
            PolicyDecision decision = Policy.check(config, g, facts, proposed);
            if (decision instanceof PolicyDecision.Refuse r) return Optional.of(r.value());
            // a path into a denied place is refused whatever the grant names or the person would approve
            Optional<Refusal> place = ShownPlaces.inAction(action, proposed, tree, places, chooserFolder);
            if (place.isPresent()) return place;
            // after the policy's refusals (an absolute one keeps its code), before any card is raised
            Optional<Refusal> moves = movesPersonsFocus(action, g, tree, proposed);
            if (moves.isPresent()) return moves;
            if (decision instanceof PolicyDecision.Allow) return Optional.empty();
            if (!(decision instanceof PolicyDecision.NeedsApproval needs)) throw new AssertionError(decision);
            BatchCard card = batch;
            Optional<Node> node = action instanceof ElementAction e ? tree.byUid(e.uid()) : Optional.empty();
            Optional<String> notCovered =
                    card == null || step < 0 ? Optional.empty() : card.notCovered(step, node, tree.grantRevision());
            if (card != null
                    && step >= 0
                    && notCovered.isEmpty()
                    && (needs.consequential().isEmpty() || card.consequentialShown(step, node, tree.grantRevision()))) {
                actionApproved = true;
                return Optional.empty();
            }
            String why = card == null || step < 0
                    ? ""
                    : "step " + (step + 1) + " (" + notCovered.orElse("the approved card did not show this effect")
                            + "): ";
            String line = why + action.kind() + " → " + describeTarget(action, proposed, read, window) + note(action);
            Optional<Refusal> answer = awaitApproval(
                    approvals.request(
                            g.id(), g.revision(), basisInfo, List.of(line), needs.consequential(), cardsUntil),
                    g,
                    basisInfo);
            if (answer.isPresent()) return answer;
            actionApproved = true;
            // the person took time: everything is read again, and the focus is marked where it is now
            DesktopFacts again = freshFacts();
            focusAtCheck = new FocusMark(again.focusedWindow(), again.focusedElement());
            return Policy.check(
                            policy.get(),
                            grant(),
                            measured(FactsMapper.facts(again, window), basis),
                            proposed.withApproved(true))
                    .refusal();
        });
    }

    /**
     * How long the desktop settles before each new read of facts that timed out: an app still working
     * through earlier actions (mousepad after dozens of quick set_texts) gets longer each time to catch up.
     */
    static final List<Duration> FACTS_RETRY_SETTLES = List.of(Duration.ofMillis(200), Duration.ofMillis(600));

    /**
     * The desktop's facts. A read that did not finish in its bound ({@code A11Y_UNAVAILABLE}: an app slow to
     * answer, a machine loaded by other work) is tried again after a settle, at most
     * {@code FACTS_RETRY_SETTLES.size()} times, before it refuses; the refusal still comes when the last read
     * fails too, so an app that never answers cannot be acted on.
     */
    private DesktopFacts facts() {
        return retried(desktop.facts()::current);
    }

    /** {@link dev.deckhand.loop.desktop.Facts#fresh()}, tried again as {@link #facts()} is. */
    private DesktopFacts freshFacts() {
        return retried(desktop.facts()::fresh);
    }

    private DesktopFacts retried(Supplier<DesktopFacts> read) {
        for (Duration settle : FACTS_RETRY_SETTLES) {
            try {
                return read.get();
            } catch (RefusedException e) {
                if (e.refusal().code() != RefusalCode.A11Y_UNAVAILABLE) throw e;
                desktop.trees().settle(settle);
            }
        }
        return read.get();
    }

    /** How often, and after how long a settle each, the accessibility focus is read again while it lags X's. */
    static final int FOCUS_RETRIES = 5;

    static final Duration FOCUS_SETTLE = Duration.ofMillis(100);

    /** Actions whose effect lands in the focused element (so an unknown focus refuses them). */
    static boolean writesToFocus(Action action) {
        return action instanceof Action.Type || action instanceof Action.Key;
    }

    /**
     * X says the target holds the input focus, but the accessibility focus is not (yet) in the target's
     * process: the app's focus event is still on its way (a window just activated, a loaded machine) or
     * libatspi's cache still shows the element that had focus before. The facts are read again after the
     * app settles, at most {@value #FOCUS_RETRIES} times, before the focus counts as unknown (which refuses
     * typing: it might be a password field). Never waits when X names another window or none.
     */
    DesktopFacts awaitAccessibleFocus(DesktopFacts read, long window) {
        for (int i = 0; i < FOCUS_RETRIES && focusLags(read, window); i++) {
            desktop.trees().settle(FOCUS_SETTLE);
            read = freshFacts();
        }
        return read;
    }

    /** Whether X's focus is on {@code window} while the accessibility focus is unknown or in another process. */
    static boolean focusLags(DesktopFacts read, long window) {
        if (read.focusedWindow() != window) return false;
        int pid = FactsMapper.window(read, window)
                .map(dev.deckhand.loop.desktop.WindowInfo::pid)
                .orElse(-1);
        if (pid <= 0) return false;
        return read.focusedElement().map(f -> f.pid() != pid).orElse(true);
    }

    @Override
    public Optional<Refusal> reserve() {
        return guarded(() -> {
            Grant g = grant();
            reservation = broker.reserve(sessionId, grantId, g.revision());
            return Optional.empty();
        });
    }

    @Override
    public void release() {
        GrantBroker.Reservation r = reservation;
        reservation = null;
        if (r != null) broker.release(r);
    }

    @Override
    public void spent() {
        GrantBroker.Reservation r = reservation;
        reservation = null;
        if (r != null) broker.spent(r);
    }

    @Override
    public Optional<Refusal> lastCheck(Action action, ScopedTree tree, Optional<Basis> basis) {
        if (stop.stopRequested()) return Optional.of(Refusal.stopped("Stop was requested"));
        if (aborted().isPresent()) return aborted();
        return guarded(() -> {
            Optional<Refusal> moved = watched();
            if (moved.isPresent()) return moved;
            Grant g = grant();
            long window = g.target().windowId();
            if (activeBefore == UNREAD
                    && action.givesInput()
                    && !desktop.display().privateDesktop()) {
                activeBefore = desktop.display().activeWindow();
                activeGrant = g;
            }
            DesktopFacts read = freshFacts();
            if (action instanceof Action.Key || action instanceof Action.Type) {
                FocusMark was = focusAtCheck;
                FocusMark now = new FocusMark(read.focusedWindow(), read.focusedElement());
                if (was != null && !was.equals(now) && focusLags(read, window)) {
                    read = awaitAccessibleFocus(read, window);
                    now = new FocusMark(read.focusedWindow(), read.focusedElement());
                }
                if (was != null && !was.equals(now)) {
                    return Optional.of(Refusal.outOfScope("the input focus moved since the "
                            + action.kind() + " was checked (" + describe(was, window) + " → " + describe(now, window)
                            + "); delivery stops here"));
                }
            }
            Facts facts = measured(FactsMapper.facts(read, window), basis);
            ProposedAction proposed = withKeysReader(withAccelerators(
                            Proposals.propose(
                                    action,
                                    tree,
                                    window,
                                    basis.map(FactsMapper::basis).orElse(null),
                                    basis.orElse(null),
                                    read),
                            acceleratorsAtCheck))
                    .withApproved(actionApproved);
            PolicyDecision decision = Policy.check(policy.get(), g, facts, proposed);
            if (decision instanceof PolicyDecision.Refuse r) return Optional.of(r.value());
            Optional<Refusal> place = placesNow(action, proposed, tree, g);
            if (place.isPresent()) return place;
            Optional<Refusal> moves = movesPersonsFocus(action, g, tree, proposed);
            if (moves.isPresent()) return moves;
            if (decision instanceof PolicyDecision.NeedsApproval needs) {
                // the policy changed since the check (e.g. the permission mode is now ask): no card here
                return Optional.of(
                        needs.consequential().isPresent()
                                ? Refusal.consequentialNotNamed(
                                        needs.consequential().get() + " is consequential and was not approved")
                                : Refusal.modeDenied("the policy changed after this action was checked "
                                        + "(inputPolicy is now confirm_each): it needs the person's approval"));
            }
            return Optional.empty();
        });
    }

    /**
     * Deckhand never moves the person's focus: a {@code focus} goes only while the granted window (on an app
     * grant, a window of the granted process) is the display's active one. A toolkit's element focus call
     * may activate the element's window — GTK 3's AT-SPI {@code grab_focus} presents it, which raises it and
     * takes the keyboard — and no other path gives an element the focus without that, so the action is
     * refused {@code OUT_OF_SCOPE} on every toolkit when another window (or none) is active. Exempt: a private
     * virtual desktop Deckhand started ({@link dev.deckhand.loop.desktop.Display#privateDesktop()}).
     */
    private Optional<Refusal> movesPersonsFocus(Action action, Grant g, ScopedTree tree, ProposedAction proposed) {
        boolean menu = opensMenu(action, tree, proposed);
        boolean field = clicksTextField(action, tree);
        if (!(action instanceof Action.Focus || menu || field)
                || desktop.display().privateDesktop()) return Optional.empty();
        long active = desktop.display().activeWindow();
        boolean granted = active != 0
                && (active == g.target().windowId() || g.scope() == ScopeKind.APP && ofGrantedProcess(active, g));
        if (granted) return Optional.empty();
        // The detail never names the active window: which window the person is in is not the agent's to learn.
        if (menu) {
            return Optional.of(Refusal.outOfScope("opening a menu or a popup while another window is active would take "
                    + "the keyboard from the window the person is in (a menu grabs it); ask the person to switch to the "
                    + "window, use select for a combo box's option, or act on the element the menu item would"));
        }
        if (field) {
            return Optional.of(Refusal.outOfScope("a click on a text field gives it the focus, which would activate the"
                    + " window while another window is active: Deckhand never moves the person's focus; use set_text, or"
                    + " ask the person to switch to the window"));
        }
        return Optional.of(Refusal.outOfScope("focus would activate the window while another window is active: "
                + "Deckhand never moves the person's focus; click or act on the element instead, or ask the person "
                + "to switch to the window"));
    }

    /**
     * Whether the action is a {@code click} on an editable text element: a toolkit gives such a field the focus when it
     * is clicked, and Chromium activates its window for it (round 13's F1: a click on the address bar made Chromium the
     * active window while the person was in another). {@code set_text} names its field without a focus.
     */
    static boolean clicksTextField(Action action, ScopedTree tree) {
        if (!(action instanceof Action.Click c)) return false;
        return tree.byUid(c.uid())
                .map(n -> n.editable() && ProposedAction.Element.textRole(n.role()))
                .orElse(false);
    }

    /**
     * Whether the action presses what opens a popup that grabs the keyboard: a menu of a menu bar — a {@code menu}
     * element (GTK, LibreOffice), or a {@code menu item} right under a {@code menu bar} (Qt) — a {@code combo box}
     * (its list is a popup menu), or any element the toolkit reports {@code has-popup} (a menu button, a toolbar
     * drop-down).
     */
    static boolean opensMenu(Action action, ScopedTree tree, ProposedAction proposed) {
        if (action instanceof Action.ClickAt) {
            return proposed.element().map(e -> popupRole(e.role())).orElse(false);
        }
        if (!(action instanceof Action.Click c)) return false;
        Optional<Node> n = tree.byUid(c.uid());
        if (n.isEmpty()) return false;
        if (popupRole(n.get().role()) || n.get().states().contains("has-popup")) return true;
        return n.get().role().equals("menu item")
                && Proposals.parent(tree, n.get())
                        .map(p -> p.role().equals("menu bar"))
                        .orElse(false);
    }

    private static boolean popupRole(String role) {
        return role.equals("menu") || role.equals("combo box");
    }

    /** Whether {@code window} is the granted window or a window of its process or X client (a popup, a dialog). */
    private boolean ofGrantedProcess(long window, Grant g) {
        if (window == 0) return false;
        long target = g.target().windowId();
        if (window == target) return true;
        List<dev.deckhand.loop.desktop.WindowInfo> all = desktop.display().windows();
        Optional<dev.deckhand.loop.desktop.WindowInfo> w =
                all.stream().filter(i -> i.id() == window).findFirst();
        if (w.isEmpty()) return false;
        int pid = g.target().pid();
        if (pid > 0 && w.get().pid() == pid) return true;
        return all.stream().anyMatch(t -> t.id() == target && t.sameClient(w.get()));
    }

    /**
     * Whether the person is somewhere Deckhand must not take them from: on a window grant any window but the
     * granted one (the person's own other window of the same app included), on an app grant any window outside the
     * app; no window at all counts as elsewhere too.
     */
    private boolean personElsewhere(long active, Grant g) {
        if (active == g.target().windowId()) return false;
        return g.scope() != ScopeKind.APP || !ofGrantedProcess(active, g);
    }

    /**
     * The person's window the run watches: where the person was when the run began or right before the last
     * delivered action's native call, while that was another window than the granted app's; null while the person
     * was in the granted app.
     *
     * @param action the kind of that last action, empty when the watch began with the run
     */
    private record Watch(long personsWindow, Grant grant, String action, java.time.Instant at) {}

    private volatile Watch watch;

    /**
     * After a delivered action: the run ends when the granted app's window (the granted window, or a window of its
     * process or X client) is the active one while, right before the action's native call, the person was in
     * another window or none ({@code OUT_OF_SCOPE}, naming the windows by id). Read here, after the action settled,
     * and from then on at every check, during waits, at the run's end and by the watcher ({@link #watch}), for the
     * rest of the run: an app may present a window seconds after the action that asked for it (a page's timer).
     * Where the person was in the granted app, nothing is watched until the next action finds them elsewhere. A
     * private virtual desktop Deckhand started is exempt.
     */
    @Override
    public Optional<Refusal> afterDelivery(Action action) {
        long before = activeBefore;
        Grant g = activeGrant;
        activeBefore = UNREAD;
        activeGrant = null;
        if (before == UNREAD || g == null || desktop.display().privateDesktop()) return Optional.empty();
        return guarded(() -> {
            watch = personElsewhere(before, g) ? new Watch(before, g, action.kind(), clock.instant()) : null;
            return watched();
        });
    }

    /**
     * What the run watches between its checks, read now: the granted app took the person's focus (above), or
     * another program changed the person's keyboard since the run began — its keysyms, modifier map or XKB
     * controls ({@link dev.deckhand.loop.desktop.Display#keyboardChanges()}): a task never needs that, and a remap
     * can make the person's keys, Stop among them, mean something else. Either is held as the run's verdict
     * ({@link #abort}) and ends it {@code OUT_OF_SCOPE}. Called by the loop during waits and at the run's end, and
     * by the run's watcher every poll interval; a read that fails finds nothing here (the checks read again).
     */
    @Override
    public Optional<Refusal> watch(Duration grace) {
        if (aborted().isPresent()) return aborted();
        try {
            Optional<Refusal> seen = watched();
            // looked for again, for up to grace, while the person's window is watched since a delivered action
            Watch w = watch;
            if (seen.isPresent() || w == null || w.action().isEmpty() || grace.isZero()) return seen;
            for (long i = 0; i < grace.toMillis() / GRACE_POLL.toMillis() && seen.isEmpty(); i++) {
                Thread.sleep(GRACE_POLL.toMillis());
                seen = watched();
            }
            return seen;
        } catch (RefusedException | IllegalStateException unreadable) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** How often {@link #watch} looks again during its grace. */
    static final Duration GRACE_POLL = Duration.ofMillis(100);

    /** {@link #watch}'s reads: the person's focus, then the keyboard. */
    private Optional<Refusal> watched() {
        Optional<Refusal> focus = focusTaken();
        if (focus.isPresent()) return focus;
        Optional<Refusal> keys = keyboardTaken();
        return keys.isPresent() ? keys : keyboardChanged();
    }

    /** The refusal when the granted app became the active window while the person was elsewhere; see {@link #afterDelivery}. */
    /**
     * The refusal when a menu, combo list or popover of the granted app that Deckhand's own action opened holds the
     * keyboard while the person is in another window ({@link FactsMapper#ownGrab}: measured through the X RECORD
     * extension where the server has it): the person's next keystroke would go to that menu (Edit ▸ Paste, a
     * File menu's Quit), and a grab that takes the person's keys moves their focus. Held as the run's verdict
     * ({@code OUT_OF_SCOPE}); the run's end closes the menu ({@link dev.deckhand.loop.desktop.Display#closeOwnMenus}).
     * Read while the person's window is watched (they were elsewhere when the run began or at the last action); a
     * private virtual desktop Deckhand started is exempt, as for the focus.
     */
    private Optional<Refusal> keyboardTaken() {
        Watch w = watch;
        if (w == null) return Optional.empty();
        DesktopFacts d = desktop.facts().current();
        if (!d.keyboardGrabbed()) return Optional.empty();
        long target = w.grant().target().windowId();
        Optional<dev.deckhand.loop.desktop.WindowInfo> t =
                d.windows().stream().filter(x -> x.id() == target).findFirst();
        if (t.isEmpty() || !FactsMapper.ownGrab(d, t.get())) return Optional.empty();
        String after = w.action().isEmpty() ? "during the run" : "after the " + w.action();
        abort(Refusal.outOfScope("a menu of the granted app that Deckhand's action opened holds the keyboard " + after
                + " while the person is in " + (w.personsWindow() == 0 ? "no window" : "another window")
                + ": the person's keys would go to it, so the "
                + "run ends here and the menu is closed; on the person's display pick a menu's item in the same "
                + "action or ask the person to switch to the window"));
        return aborted();
    }

    private Optional<Refusal> focusTaken() {
        Watch w = watch;
        if (w == null) return Optional.empty();
        long now = desktop.display().activeWindow();
        if (now == w.personsWindow() || now == 0) return Optional.empty();
        boolean granted = ofGrantedProcess(now, w.grant());
        if (!granted && !newProgram(now)) return Optional.empty();
        watch = null;
        long ms = Duration.between(w.at(), clock.instant()).toMillis();
        String when = w.action().isEmpty()
                ? "during the run"
                : String.format(java.util.Locale.ROOT, "%.1f s after the %s", ms / 1000.0, w.action());
        // held as the run's verdict, so that every later check answers it too (a read that ignores a refusal,
        // such as the look for an action's effect, cannot drop it)
        // names no window of the person's: which window the person is in is not the agent's to learn
        String whose = granted
                ? "the granted app's window 0x" + Long.toHexString(now)
                : "a window of a program started during the run (the granted app may have started it)";
        abort(Refusal.outOfScope(whose + " became the active window "
                + when + " while the person was in " + (w.personsWindow() == 0 ? "no window" : "another window")
                + ": Deckhand never moves the person's focus, so the run ends here"));
        return aborted();
    }

    /**
     * Whether {@code window} is new since the run began and its process newer than every process that had a window
     * then (or unknown): a program a granted terminal or app started — detached or not — whose window takes the
     * person's focus counts as the granted app's (round 2 of the review: {@code (sleep 1; xmessage …) &} typed into a
     * granted xterm took the focus unseen). A program the person starts during the run counts too: Deckhand cannot
     * tell who started it, and ending the run is the safe side (docs/security.md). A new window of a process that
     * already had one (the person's browser opening a window) does not.
     */
    private boolean newProgram(long window) {
        StartingWindows before = windowsAtStart;
        if (before == null || before.ids().contains(window)) return false;
        Optional<dev.deckhand.loop.desktop.WindowInfo> w = desktop.display().windows().stream()
                .filter(i -> i.id() == window)
                .findFirst();
        if (w.isEmpty() || w.get().own()) return false;
        long started = w.get().processStart();
        return started < 0 || started > before.newestStart();
    }

    /** The refusal when the keyboard changed since the run began; see {@link #watch}. */
    private Optional<Refusal> keyboardChanged() {
        long start = keyboardAtStart;
        if (start < 0) return Optional.empty();
        dev.deckhand.loop.desktop.KeyboardChanges now = desktop.display().keyboardChanges();
        if (!now.watched() || now.count() <= start) return Optional.empty();
        keyboardAtStart = now.count();
        abort(Refusal.outOfScope("the keyboard was changed during the run (" + now.last() + "; "
                + (now.count() - start) + (now.count() - start == 1 ? " change" : " changes")
                + "): a task never needs to remap the person's keyboard, so the run ends here"));
        return aborted();
    }

    /**
     * Keys and typed text act on what a field holds now, which the tree the model saw may not show yet (GTK
     * opens its location entry on the first "/" and fills it as keys arrive). Where a file chooser or a
     * single-line field is in play, the first gate of a key or type reads the tree again — the granted window
     * and its joined dialogs — and judges the action, and what that tree shows, for denied places.
     */
    private Optional<Refusal> placesNow(Action action, ProposedAction proposed, ScopedTree seen, Grant g) {
        if (!(action instanceof Action.Key || action instanceof Action.Type)
                || placesLooked
                || places == DeniedPlaces.NONE) return Optional.empty();
        placesLooked = true;
        List<Long> joined = joinedWindows();
        boolean inPlay = !joined.isEmpty()
                || !ShownPlaces.choosers(seen).isEmpty()
                || seen.nodes().stream().anyMatch(n -> n.focused() && n.editable() && n.singleLine());
        if (!inPlay) return Optional.empty();
        ScopedTree now = desktop.trees().snapshot(g.target().windowId(), seen.grantRevision());
        for (long w : joined) {
            try {
                now = now.plus(desktop.trees().snapshot(w, seen.grantRevision()));
            } catch (RefusedException unreadable) {
                // a dialog the bus does not show yet has nothing to judge
            }
        }
        Optional<Refusal> shown = checkTree(now);
        if (shown.isPresent()) return shown;
        return ShownPlaces.inAction(action, proposed, now, places, chooserFolder);
    }

    private Facts measured(Facts facts, Optional<Basis> basis) {
        if (basis.isPresent() && desktop.captures().basisValid(basis.get())) {
            return facts.withMeasuredBasis(Optional.of(FactsMapper.basis(basis.get())));
        }
        return facts;
    }

    /** Waits for the person's decision on the card, Stop, the grant's end, or the card's expiry. */
    private Optional<Refusal> awaitApproval(ApprovalBook.Approval card, Grant g, BasisInfo basis) {
        onCard.accept(card, ApprovalBook.Status.PENDING);
        long t0 = System.nanoTime();
        Optional<Refusal> answer = awaitDecision(card, g, basis);
        approvalNanos.addAndGet(System.nanoTime() - t0);
        onCard.accept(
                card,
                answer.isEmpty()
                        ? ApprovalBook.Status.APPROVED
                        : approvals.status(card.id()) == ApprovalBook.Status.EXPIRED
                                ? ApprovalBook.Status.EXPIRED
                                : ApprovalBook.Status.DENIED);
        return answer;
    }

    private Optional<Refusal> awaitDecision(ApprovalBook.Approval card, Grant g, BasisInfo basis) {
        while (true) {
            if (stop.stopRequested())
                return Optional.of(Refusal.stopped("Stop while approval " + card.id() + " was waiting"));
            if (aborted().isPresent()) return aborted();
            ApprovalBook.Status status = approvals.status(card.id());
            if (status != ApprovalBook.Status.PENDING) return approvals.consume(card.id(), g.id(), g.revision(), basis);
            try {
                Thread.sleep(APPROVAL_POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of(Refusal.stopped("interrupted while approval " + card.id() + " was waiting"));
            }
            if (clock.instant().isAfter(card.expiresAt().plusSeconds(1))) {
                return approvals.consume(card.id(), g.id(), g.revision(), basis);
            }
        }
    }

    /** Where the action lands, for the card: the element, the point, or the focused element and its window. */
    private static String describeTarget(Action action, ProposedAction p, DesktopFacts facts, long window) {
        String el = p.element().map(e -> e.role() + " \"" + e.name() + "\"").orElse(null);
        if (action instanceof ElementAction) return el == null ? "an element" : el;
        if (action instanceof Action.ClickAt c) {
            return "point (" + c.x() + ", " + c.y() + ") of capture " + c.basis()
                    + (el == null ? " (no element there)" : ", on " + el);
        }
        String title = FactsMapper.window(facts, window)
                .map(w -> " in window \"" + w.title() + "\"")
                .orElse("");
        return (el == null ? "the focused element (unknown)" : "the focused " + el) + title;
    }

    /** The card shows the text to be typed (bounded) and the chord; the audit keeps lengths only. */
    static String note(Action action) {
        if (action instanceof Action.SetText s) return ": " + quoted(s.text());
        if (action instanceof Action.Type t) return ": " + quoted(t.text());
        if (action instanceof Action.Key k) return ": " + k.chord();
        if (action instanceof Action.Select s) return ": option " + quoted(s.option());
        return "";
    }

    private static String quoted(String text) {
        return "\"" + CardText.visible(text) + "\" (" + text.codePointCount(0, text.length()) + " characters)";
    }

    private static String describe(FocusMark m, long granted) {
        // the granted window by id, any other only as another (round 3: the person's windows are not the agent's to
        // learn); an element only in the granted window, by its role and the length of its name — never its text
        if (m.window() != granted) return m.window() == 0 ? "no window" : "another window";
        return "window 0x" + Long.toHexString(m.window())
                + m.element()
                        .map(e -> ", " + e.role() + " (name of " + e.name().length() + " characters)")
                        .orElse("");
    }
}

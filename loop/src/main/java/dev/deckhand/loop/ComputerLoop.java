package dev.deckhand.loop;

import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ActionParser;
import dev.deckhand.loop.action.ActionSchema;
import dev.deckhand.loop.action.ElementAction;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.DeliveryGate;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.Landing;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.json.WireFormatException;
import dev.deckhand.loop.observe.ObservationText;
import dev.deckhand.loop.observe.Roles;
import dev.deckhand.loop.route.Router;
import dev.deckhand.loop.route.Routing;
import dev.deckhand.loop.steps.SelectorException;
import dev.deckhand.loop.steps.SelectorResolver;
import dev.deckhand.loop.steps.Step;
import dev.deckhand.loop.verify.Verdict;
import dev.deckhand.loop.verify.VerifierReport;
import dev.deckhand.loop.verify.VerifierRunner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The bounded perceive → decide → act loop for one run (docs/design.md#the-run-loop). Build one per run with
 * {@link #builder()}; {@link #run(RunRequest)} never throws for anything the world or the model does.
 *
 * <p>Order: (1) mode {@code plan}/{@code goal} → {@code MODE_DENIED}; (2) a run that may give input
 * ({@link Router#requiresVerifier}) without a verifier → {@code NO_VERIFIER} — these two are request
 * checks: nothing runs, not even the verifier, and the verdict is {@code none}. The server admits a call
 * before any grant is touched ({@code run.RunAdmission}, with {@link RunRequest#refusal()}), so a request
 * these refuse never reaches a loop there; the loop asks the same method again so that a loop built
 * anywhere else cannot run one either. From here on the
 * declared verifier runs on <em>every</em> exit path — except that after an absolute or deny-list refusal
 * one that reads the screen fails unread ({@link VerifierRunner#SCREEN_SEALED}). (3) {@link Guard#checkRun()}; (4)
 * {@link Preflight}; (5) a snapshot and {@link Router#route}; (6) explicit steps in order, or model
 * turns: [Stop/clock] → {@link Guard#checkObserve()} → snapshot → {@link Guard#checkTree} (every tree the
 * loop reads, before it is used: a denied place shown ends the run) (→ {@link Guard#checkCapture} and a capture on a capture route; on a window with a usable tree a
 * capture refused for secure input leaves that turn to the tree alone) →
 * compact observation → decide → strict parse (one feedback retry, then {@code MODEL_OUTPUT_INVALID})
 * → [Stop/clock] → done/fail end the model phase; any other action goes through
 * {@code Run.execute}: audit intent → uid/basis checks → the drawn cursor starts its travel
 * ({@link dev.deckhand.loop.desktop.Showing#showElement}) → {@link Guard#check} ({@link Guard#checkStep} for an explicit step) → {@link Guard#reserve} (a budget unit, input
 * actions) → the cursor's arrival ({@link dev.deckhand.loop.desktop.Showing#awaitShown}) → {@link Guard#lastCheck} (Stop, grant,
 * policy and fresh facts) immediately before the native call — for {@code type} before each chunk — →
 * deliver → {@link Guard#spent} (or {@link Guard#release} when nothing was delivered) → settle (until the
 * first event that shows the action landed, {@link #landings}) → {@link Guard#afterDelivery} (the action moved
 * the person's focus: the run ends) → the action's {@link Effect} (the tree
 * read for it is the next observation) → audit result. A {@code done} while steps remain runs the verifier: a fail is told to the model once and
 * the run goes on.
 *
 * <p>A uid must be in the tree the model was shown in this step, and that tree's revision must still
 * be the grant's revision; otherwise the action is refused {@code OUT_OF_SCOPE} (a uid is meaningless
 * outside its revision, so it names nothing in the granted scope) and the run ends. A {@code click_at}
 * must name a capture taken in this run for the current revision that {@link dev.deckhand.loop.desktop.Captures#basisValid}
 * confirms, else {@code BASIS_STALE}; a point outside that capture is {@code OUT_OF_SCOPE}.
 *
 * <p>Bounds: at most {@code maxSteps} actions delivered (the next one ends the run
 * {@code budget_exhausted} without a refusal; explicit steps longer than the cap are not started);
 * the wall clock on the injected {@link Clock}, checked before each observation, after each model
 * call and before each wait ({@code timed_out}); the grant's budget and expiry through the
 * {@link Guard} ({@code budget_exhausted}/{@code expired}); Stop, checked at the same points and
 * right before delivery ({@code stopped}, refusal {@code STOPPED}).
 */
public final class ComputerLoop {

    private final Desktop desktop;
    private final Decider decider;
    private final Guard guard;
    private final AuditSink audit;
    private final Clock clock;
    private final StopSignal stop;
    private final Preflight preflight;
    private final GrantScope scope;
    private final VerifierRunner verifier;
    private final Sleeper sleeper;
    private final LoopLimits limits;
    private final Supplier<Optional<Refusal>> screen;
    private final Instant fixedDeadline;

    private ComputerLoop(Builder b) {
        this.desktop = Objects.requireNonNull(b.desktop, "desktop");
        this.decider = Objects.requireNonNull(b.decider, "decider");
        this.guard = Objects.requireNonNull(b.guard, "guard");
        this.audit = Objects.requireNonNull(b.audit, "audit");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        this.stop = Objects.requireNonNull(b.stop, "stop");
        this.preflight = Objects.requireNonNull(b.preflight, "preflight");
        this.scope = Objects.requireNonNull(b.scope, "scope");
        this.verifier = Objects.requireNonNull(b.verifier, "verifier");
        this.sleeper = Objects.requireNonNull(b.sleeper, "sleeper");
        this.limits = Objects.requireNonNull(b.limits, "limits");
        this.screen = Objects.requireNonNull(b.screen, "screen");
        this.fixedDeadline = b.deadline;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Runs one request to its end; the result's verdict comes only from the verifier. */
    public RunResult run(RunRequest request) {
        Objects.requireNonNull(request, "request");
        Optional<Refusal> refused = request.refusal();
        if (refused.isPresent()) return RunResult.notStarted(request.runId(), refused.get());
        Run run = new Run(request);
        Outcome outcome;
        try {
            outcome = run.body();
        } catch (RefusedException e) {
            outcome = Outcome.endedBy(e.refusal());
        } catch (DecisionFailed e) {
            outcome = Outcome.failed(e.getMessage());
        } catch (RuntimeException e) {
            outcome = Outcome.failed("internal error: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
        outcome = watched(outcome);
        outcome = screened(outcome);
        VerifierReport report = run.checkedAtDone != null && outcome instanceof Outcome.Completed
                ? run.checkedAtDone
                : verifier.run(request.verifier(), outcome.refusal());
        Optional<Refusal> secret = screen.get();
        if (secret.isPresent() && outcome.refusal().isEmpty()) {
            // The verifier's own read found one of Deckhand's secrets: the run ends as if the loop had
            // read it, and the verifier's report (which may describe what it read) is not given.
            outcome = Outcome.endedBy(secret.get());
            report = verifier.run(request.verifier(), secret);
        }
        return new RunResult(
                request.runId(),
                outcome,
                report.verdict(),
                run.stepsRun,
                summary(outcome, report),
                Optional.ofNullable(run.routing).map(Routing::route),
                report.detail());
    }

    static String summary(Outcome outcome, VerifierReport report) {
        String tail = " | verifier " + report.verdict().wire() + ": " + report.detail();
        String head = outcome.wire() + ": ";
        int room = RunResult.MAX_SUMMARY - head.length() - tail.length();
        String text = outcome.text();
        if (text.length() > room) text = text.substring(0, Math.max(0, room - 1)) + "…";
        return RunResult.bound(head + text + tail);
    }

    /**
     * The run's last look at what the guard watches ({@link Guard#watch}): the granted app took the person's focus,
     * the keyboard was changed, a verdict the watcher holds. It replaces an ending that says less — completed,
     * failed, timed out, the step cap, an app that stopped answering ({@code A11Y_UNAVAILABLE}: a modal dialog that
     * took the focus can do that) or another {@code OUT_OF_SCOPE} — and leaves every other refusal and Stop as they
     * are. A run refused before it started never gets here.
     */
    private Outcome watched(Outcome outcome) {
        Optional<Refusal> r = outcome.refusal();
        if (r.isPresent()
                && r.get().code() != dev.deckhand.grant.RefusalCode.A11Y_UNAVAILABLE
                && r.get().code() != dev.deckhand.grant.RefusalCode.OUT_OF_SCOPE) {
            return outcome;
        }
        if (outcome instanceof Outcome.Stopped || outcome instanceof Outcome.Expired) return outcome;
        Optional<Refusal> seen;
        boolean stoppedAnswering = r.isPresent() && r.get().code() == dev.deckhand.grant.RefusalCode.A11Y_UNAVAILABLE;
        try {
            seen = guard.watch(stoppedAnswering ? FOCUS_GRACE : Duration.ZERO);
        } catch (RuntimeException unreadable) {
            return outcome;
        }
        if (seen.isEmpty() || r.isPresent() && r.get().equals(seen.get())) return outcome;
        return Outcome.endedBy(seen.get());
    }

    /**
     * How long a run that ended because the app stopped answering after an action still looks for the focus move
     * that may explain it: a modal dialog the action opened (abiword's Open) takes the focus some time after the
     * app has stopped answering.
     */
    static final Duration FOCUS_GRACE = Duration.ofSeconds(5);

    /** How long a {@code wait} sleeps between two looks at what the guard watches. */
    static final Duration WAIT_SLICE = Duration.ofMillis(100);

    /** A secret seen on screen overrides however the run ended: the model's summary and errors included. */
    private Outcome screened(Outcome outcome) {
        Optional<Refusal> secret = screen.get();
        return secret.isPresent() ? Outcome.endedBy(secret.get()) : outcome;
    }

    private static Outcome stopRequested() {
        return Outcome.endedBy(Refusal.stopped("Stop was requested"));
    }

    /** The state of one run. */
    private final class Run {
        final RunRequest request;
        final Instant deadline;
        final Duration wallClock;
        final int maxSteps;
        final Deque<String> lastSteps = new ArrayDeque<>();
        final Map<String, Capture> captures = new HashMap<>();
        /** The tree read after the last action settled, for the next observation (same revision only). */
        ScopedTree settled;

        Routing routing;
        /** The model was told once that its done does not pass the verifier. */
        boolean toldOnce;
        /** The verifier's report taken when the model's done was accepted: the run's report. */
        VerifierReport checkedAtDone;

        int stepsRun;
        int attempts;
        /** The explicit step being run (0-based), or -1 for a model's action. */
        int step = -1;
        /** The last delivered action closed the granted window (it is no longer listed after it settled). */
        boolean closedGranted;

        Run(RunRequest request) {
            this.request = request;
            this.wallClock = limits.wallClockFor(request);
            this.deadline = fixedDeadline != null ? fixedDeadline : limits.deadline(clock, request);
            this.maxSteps = Math.min(limits.maxSteps(), request.maxSteps().orElse(Integer.MAX_VALUE));
        }

        Outcome body() {
            Optional<Refusal> r = guard.checkRun();
            if (r.isPresent()) return Outcome.endedBy(r.get());
            Optional<Outcome> cp = checkpoint();
            if (cp.isPresent()) return cp.get();
            r = preflight.check(scope.windowId());
            if (r.isPresent()) return Outcome.endedBy(r.get());
            if (!request.steps().isEmpty()) {
                int actions = 0;
                for (Step s : request.steps()) {
                    if (s.action() instanceof Action.Done || s.action() instanceof Action.Fail) break;
                    actions++;
                }
                if (actions > maxSteps) {
                    return Outcome.budgetExhausted(
                            actions + " explicit steps exceed the step cap of " + maxSteps + "; none were run");
                }
            }
            r = guard.checkObserve();
            if (r.isPresent()) return Outcome.endedBy(r.get());
            ScopedTree first = checked(snapshot());
            routing = request.steps().isEmpty()
                    ? Router.route(
                            request.instruction(),
                            false,
                            request.verifier().isPresent(),
                            Router.usable(first),
                            scope.captureMode())
                    : Router.routeSteps(
                            request.steps().stream().anyMatch(s -> s.target().isPresent()),
                            request.steps().stream().anyMatch(Step::windowPoint),
                            request.verifier().isPresent(),
                            Router.usable(first),
                            scope.captureMode());
            if (!desktop.display().syntheticInput(scope.windowId())) {
                routing = routing.withoutSyntheticInput();
                for (Step s : request.steps()) {
                    if (Routing.SYNTHETIC_INPUT.contains(s.action().kind())) {
                        return Outcome.endedBy(
                                Refusal.waylandInputUnsupported(
                                        "step " + s.action().kind()
                                                + " needs synthetic input, which this window (Wayland) does not take; none were run"));
                    }
                }
            }
            return request.steps().isEmpty() ? modelTurns(first) : explicitSteps(first);
        }

        /** The granted window's tree, followed by the trees of the windows that join it (app-scope dialogs). */
        ScopedTree snapshot() {
            long revision = scope.revision();
            ScopedTree tree = desktop.trees().snapshot(scope.windowId(), revision);
            for (long joined : guard.joinedWindows()) {
                try {
                    tree = tree.plus(desktop.trees().snapshot(joined, revision));
                } catch (RefusedException unreadable) {
                    // a dialog the accessibility bus does not show yet stays out of the observation
                }
            }
            return tree;
        }

        /** The tree read when the last action settled, if the grant is still at its revision; else a fresh one. */
        ScopedTree observe() {
            ScopedTree t = settled;
            settled = null;
            return checked(t != null && t.grantRevision() == scope.revision() ? t : snapshot());
        }

        /**
         * The window read again right before the native call, for the last check to judge the action on: what the gate
         * judged by (a group's name, a dialog's text, the control under a point) may change in the time the check and
         * the drawn cursor take, and a model's turn takes seconds (round 18's R1, R2: a page renamed an icon button's
         * group to "Delete account", and its dialog's text to "Delete all 3 files now?", between the step's look and
         * its press). What is left is the time between this walk and the native call. An element action whose uid is
         * no longer in the tree is refused; a partial tree is read once more before that, as it proves no absence.
         */
        ScopedTree lookAgain(Action a, ScopedTree judged) {
            ScopedTree now = checked(snapshot());
            // a window whose tree grew past what a walk reads since the step was judged may show, past the cut, what
            // decides the action (round 19's T3g: 2,500 spans before a dialog's new question)
            if (now.partial() && !judged.partial()) {
                desktop.trees().settle(limits.settle());
                now = checked(snapshot());
                if (now.partial()) {
                    throw new RefusedException(Refusal.a11yUnavailable("the window's tree grew past what Deckhand reads"
                            + " (it is partial now, and was whole when the step was judged): delivery stops here"));
                }
            }
            if (!(a instanceof ElementAction)) return now;
            String uid = ((ElementAction) a).uid();
            if (now.byUid(uid).isEmpty() && now.partial()) {
                desktop.trees().settle(limits.settle());
                now = checked(snapshot());
            }
            if (now.byUid(uid).isEmpty()) {
                throw new RefusedException(Refusal.outOfScope("uid " + uid + " left the tree between the check and"
                        + " delivery (grant revision " + judged.grantRevision() + "); delivery stops here"));
            }
            return now;
        }

        /**
         * {@code tree} once the guard finds no denied place shown in it ({@link Guard#checkTree}); otherwise the
         * run ends here with that refusal, before anything of the tree reaches the model, a step or the result.
         */
        ScopedTree checked(ScopedTree tree) {
            Optional<Refusal> r = guard.checkTree(tree);
            if (r.isPresent()) throw new RefusedException(r.get());
            return tree;
        }

        /**
         * After an input action settled: one more look (the grant still allowing it) compared with the look
         * before; the tree read is kept for the next observation, so the comparison costs no extra walk.
         */
        Optional<Effect> effect(Effect.Glance before) {
            if (before == null) return Optional.empty();
            try {
                if (guard.checkObserve().isPresent()) return Optional.empty();
                ScopedTree after = snapshot();
                settled = after;
                return Effect.between(
                        before, Effect.Glance.of(after, desktop.display().windows(), scope.windowId()));
            } catch (RefusedException gone) {
                // the granted window went away or stopped answering: only a closed window can be told
                try {
                    return desktop.display().windows().stream().anyMatch(w -> w.id() == scope.windowId())
                            ? Optional.empty()
                            : Optional.of(Effect.WINDOW_CLOSED);
                } catch (RuntimeException unreadable) {
                    return Optional.empty();
                }
            } catch (RuntimeException unreadable) {
                // the action was delivered; not telling its effect never fails the run
                return Optional.empty();
            }
        }

        /** Whether the granted window is no longer listed (false when the desktop cannot say). */
        boolean grantedGone() {
            try {
                return desktop.display().windows().stream().noneMatch(w -> w.id() == scope.windowId());
            } catch (RuntimeException unreadable) {
                return false;
            }
        }

        /** The look before an input action; null when the desktop cannot say (the effect is then not told). */
        Effect.Glance glance(Action a, ScopedTree tree) {
            if (!a.givesInput()) return null;
            try {
                return Effect.Glance.of(tree, desktop.display().windows(), scope.windowId());
            } catch (RuntimeException unreadable) {
                return null;
            }
        }

        Optional<Outcome> checkpoint() {
            if (stop.stopRequested()) return Optional.of(stopRequested());
            if (!clock.instant().isBefore(deadline)) {
                return Optional.of(Outcome.timedOut(
                        "the wall clock of " + wallClock.toSeconds() + " s ran out after " + stepsRun + " steps"));
            }
            return Optional.empty();
        }

        Outcome explicitSteps(ScopedTree first) {
            ScopedTree tree = first;
            List<Step> steps = request.steps();
            List<Optional<Node>> resolved = new ArrayList<>();
            for (Step s : steps) {
                Optional<Node> n = Optional.empty();
                if (s.target().isPresent()) {
                    try {
                        n = Optional.of(SelectorResolver.resolve(s.target().get(), first));
                    } catch (SelectorException e) {
                        n = Optional.empty();
                    }
                }
                resolved.add(n);
            }
            Optional<Refusal> approval = guard.approveSteps(steps, resolved, first);
            if (approval.isPresent()) return Outcome.endedBy(approval.get());
            for (int i = 0; i < steps.size(); i++) {
                Optional<Outcome> cp = checkpoint();
                if (cp.isPresent()) return cp.get();
                if (i > 0) {
                    Optional<Refusal> r = guard.checkObserve();
                    if (r.isPresent()) return Outcome.endedBy(r.get());
                    tree = observe();
                }
                Step s = steps.get(i);
                Action a = s.action();
                if (s.target().isPresent()) {
                    try {
                        a = s.resolved(
                                SelectorResolver.resolve(s.target().get(), tree).uid());
                    } catch (SelectorException e) {
                        if (!tree.partial()) {
                            return Outcome.failed("step " + (i + 1) + " (" + a.kind() + "): " + e.getMessage());
                        }
                        // A partial tree (the app did not answer for every element in time) proves no
                        // absence: look once more after the app settles, and fail only then.
                        desktop.trees().settle(limits.settle());
                        tree = checked(snapshot());
                        try {
                            a = s.resolved(SelectorResolver.resolve(s.target().get(), tree)
                                    .uid());
                        } catch (SelectorException again) {
                            return Outcome.failed("step " + (i + 1) + " (" + a.kind() + "): " + again.getMessage()
                                    + (tree.partial() ? " (the tree was partial twice)" : ""));
                        }
                    }
                }
                if (a instanceof Action.Done) return Outcome.completed(((Action.Done) a).summary());
                if (a instanceof Action.Fail) return Outcome.failed(((Action.Fail) a).reason());
                if (s.windowPoint()) a = bindWindowPoint((Action.ClickAt) a);
                step = i;
                Optional<Outcome> e = execute(a, tree);
                if (e.isPresent()) return e.get();
                if (closedGranted) {
                    // the task's own action closed the window (Send closes a compose window): done, when only
                    // waits remain; a later step that would act is refused as ever (the window is gone)
                    List<Step> rest = steps.subList(i + 1, steps.size());
                    if (rest.stream().allMatch(r -> r.action() instanceof Action.Wait)) {
                        return closedByTask("step " + (i + 1) + " (" + a.kind() + ")", rest);
                    }
                }
            }
            // what the last step opened is checked before the verifier reads the screen
            if (settled != null) checked(settled);
            return Outcome.completed("ran all " + steps.size() + " explicit steps");
        }

        Outcome modelTurns(ScopedTree first) {
            ScopedTree tree = first;
            boolean fresh = true;
            String schema = ActionSchema.json(routing.permittedActions());
            while (true) { // bounded: every pass delivers one action (stepsRun++) or ends; see execute
                Optional<Outcome> cp = checkpoint();
                if (cp.isPresent()) return cp.get();
                if (!fresh) {
                    Optional<Refusal> r = guard.checkObserve();
                    if (r.isPresent()) return Outcome.endedBy(r.get());
                    tree = observe();
                }
                fresh = false;
                long windowId = scope.windowId();
                Optional<WindowInfo> window = desktop.display().windows().stream()
                        .filter(w -> w.id() == windowId)
                        .findFirst();
                if (window.isEmpty()) {
                    return Outcome.failed("the granted window " + windowId + " is gone");
                }
                Optional<RunCapture> capture = Optional.empty();
                Optional<String> withheld = Optional.empty();
                if (routing.captures()) {
                    // the deny scan, the scope and the secure-input facts, read now, before every capture
                    Optional<Refusal> pixels = guard.checkCapture();
                    if (pixels.isPresent() && !treeAlone(pixels.get(), tree)) return Outcome.endedBy(pixels.get());
                    if (pixels.isPresent()) {
                        withheld = Optional.of(pixels.get().detail());
                    } else {
                        Capture c = desktop.captures().capture(windowId, scope.revision(), limits.captureLongEdge());
                        String id = "c" + (captures.size() + 1);
                        captures.put(id, c);
                        capture = Optional.of(new RunCapture(id, c));
                    }
                }
                String observation = ObservationText.render(
                        tree, window.get(), limits.observationTokens(), boundsFrame(window.get(), capture));
                DecisionRequest ask = new DecisionRequest(
                        request.instruction(),
                        List.copyOf(lastSteps),
                        observation,
                        capture,
                        Optional.empty(),
                        schema,
                        routing.route(),
                        routing.syntheticInput(),
                        withheld);
                Action action;
                try {
                    action = ActionParser.parse(decider.decide(ask), routing.permittedActions());
                } catch (WireFormatException invalid) {
                    cp = checkpoint();
                    if (cp.isPresent()) return cp.get();
                    try {
                        action = ActionParser.parse(
                                decider.decide(ask.withFeedback(invalid.getMessage())), routing.permittedActions());
                    } catch (WireFormatException again) {
                        return Outcome.endedBy(Refusal.modelOutputInvalid(
                                "the model's output was refused twice; last: " + again.getMessage()));
                    }
                }
                cp = checkpoint();
                if (cp.isPresent()) return cp.get();
                if (action instanceof Action.Done done) {
                    if (toldOnce || request.verifier().isEmpty() || stepsRun >= maxSteps)
                        return Outcome.completed(done.summary());
                    // Steps remain: check now. A pass ends the run with this very report (the verifier runs
                    // once); a fail is told to the model once, and the run goes on.
                    VerifierReport now = verifier.run(request.verifier());
                    Optional<Refusal> secret = screen.get();
                    if (secret.isPresent()) return Outcome.endedBy(secret.get());
                    if (now.verdict() != Verdict.FAIL) {
                        checkedAtDone = now;
                        return Outcome.completed(done.summary());
                    }
                    toldOnce = true;
                    lastSteps.addLast("done was not accepted: the declared verifier fails (" + now.detail()
                            + "); carry on, or answer fail if it cannot be done");
                    while (lastSteps.size() > limits.lastSteps()) lastSteps.removeFirst();
                    continue;
                }
                if (action instanceof Action.Fail) return Outcome.failed(((Action.Fail) action).reason());
                Optional<Outcome> e = execute(action, tree);
                if (e.isPresent()) return e.get();
                if (closedGranted) return closedByTask("the model's " + action.kind(), List.of());
            }
        }

        /**
         * The run's own action closed the granted window: the run is {@code completed} and the verifier decides.
         * The waits that were to follow are waited (the app may still be writing what the verifier reads), within
         * the run's clock, stopping at Stop.
         */
        Outcome closedByTask(String what, List<Step> waits) {
            Duration total = Duration.ZERO;
            for (Step w : waits) total = total.plusMillis(((Action.Wait) w.action()).ms());
            try {
                waitInSlices(total, () -> {});
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (stop.stopRequested()) return stopRequested();
            return Outcome.completed(what + " closed the granted window; the verifier decides");
        }

        /**
         * Sleeps {@code want}, at most until the run's deadline, in slices of {@code WAIT_SLICE}; {@code look} runs
         * before each slice and after the last (it may throw to end the wait), and Stop ends it.
         */
        void waitInSlices(Duration want, Runnable look) throws InterruptedException {
            Duration left = Duration.between(clock.instant(), deadline);
            if (left.isNegative()) left = Duration.ZERO;
            Duration rest = want.compareTo(left) < 0 ? want : left;
            while (true) {
                look.run();
                if (rest.isZero() || rest.isNegative() || stop.stopRequested()) return;
                Duration slice = rest.compareTo(WAIT_SLICE) < 0 ? rest : WAIT_SLICE;
                sleeper.sleep(slice);
                rest = rest.minus(slice);
            }
        }

        /**
         * Element bounds go to the model only when the grant allows pixels: in the capture's pixels when this
         * turn has one (the space of click_at), else in window pixels.
         */
        Optional<ObservationText.Frame> boundsFrame(WindowInfo window, Optional<RunCapture> capture) {
            if (scope.captureMode() != CaptureMode.PIXELS) return Optional.empty();
            return Optional.of(capture.map(c -> new ObservationText.Frame(
                            c.capture().basis().windowGeometry(),
                            c.capture().basis().scale(),
                            "capture " + c.id() + "'s pixels"))
                    .orElseGet(() -> new ObservationText.Frame(window.geometry(), 1, "window pixels")));
        }

        /**
         * Whether a turn goes on without its capture when {@code refused} refuses it: only for secure input
         * ({@code SECURE_INPUT}: a password field focused, another client's keyboard grab) and only on a window
         * whose tree is usable, which the model then acts on by uid as on the uid route (every input is still
         * judged by the policy, which refuses it under the same facts). Any other refusal, or a window with
         * nothing but pixels, ends the run.
         */
        boolean treeAlone(Refusal refused, ScopedTree tree) {
            return refused.code() == RefusalCode.SECURE_INPUT && Router.usable(tree);
        }

        /**
         * A {@code click_at} step in window coordinates, bound to a capture taken now for this run (like a
         * model's capture, after the same checks: the deny scan, the scope, no secure input): the point is scaled
         * into the capture, and {@link #execute} checks it as any other.
         */
        Action.ClickAt bindWindowPoint(Action.ClickAt step) {
            Optional<Refusal> pixels = guard.checkCapture();
            if (pixels.isPresent()) throw new RefusedException(pixels.get());
            Capture c = desktop.captures().capture(scope.windowId(), scope.revision(), limits.captureLongEdge());
            String id = "c" + (captures.size() + 1);
            captures.put(id, c);
            double scale = c.basis().scale();
            return new Action.ClickAt((int) Math.floor(step.x() * scale), (int) Math.floor(step.y() * scale), id);
        }

        /** Checks and delivers one action observed against {@code tree}; empty when the run goes on. */
        Optional<Outcome> execute(Action a, ScopedTree tree) {
            if (stepsRun >= maxSteps) {
                return Optional.of(Outcome.budgetExhausted("the step cap of " + maxSteps + " was reached"));
            }
            int attempt = ++attempts;
            Optional<Node> node = a instanceof ElementAction ? tree.byUid(((ElementAction) a).uid()) : Optional.empty();
            audit.intent(ActionIntent.of(request.runId(), attempt, a, node, tree.grantRevision()));
            Optional<Basis> basis = Optional.empty();
            Optional<Refusal> refusal = Optional.empty();
            if (a instanceof ElementAction) {
                long now = scope.revision();
                if (node.isEmpty() || tree.grantRevision() != now) {
                    refusal = Optional.of(Refusal.outOfScope("uid " + ((ElementAction) a).uid()
                            + " is not an element of the current tree (grant revision " + now + ")"));
                }
            } else if (a instanceof Action.ClickAt) {
                Action.ClickAt c = (Action.ClickAt) a;
                Capture cap = captures.get(c.basis());
                if (cap == null) {
                    refusal = Optional.of(
                            Refusal.basisStale("basis " + c.basis() + " is not a capture taken in this run"));
                } else if (cap.basis().grantRevision() != scope.revision()) {
                    refusal = Optional.of(Refusal.basisStale("capture " + c.basis() + " was taken for grant revision "
                            + cap.basis().grantRevision() + "; the grant is now at " + scope.revision()));
                } else if (c.x() >= cap.width() || c.y() >= cap.height()) {
                    refusal = Optional.of(Refusal.outOfScope("(" + c.x() + "," + c.y() + ") lies outside capture "
                            + c.basis() + " (" + cap.width() + "x" + cap.height() + ")"));
                } else if (!desktop.captures().basisValid(cap.basis())) {
                    refusal = Optional.of(
                            Refusal.basisStale("the window moved, resized or rescaled since capture " + c.basis()));
                } else {
                    basis = Optional.of(cap.basis());
                }
            }
            // The drawn cursor starts its travel now and overlaps the checks; the last check waits for its arrival.
            if (refusal.isEmpty()) show(a, basis);
            if (refusal.isEmpty())
                refusal = step >= 0 ? guard.checkStep(step, a, tree, basis) : guard.check(a, tree, basis);
            if (refusal.isEmpty() && stop.stopRequested()) refusal = Optional.of(Refusal.stopped("Stop was requested"));
            boolean reserved = false;
            if (refusal.isEmpty() && a.givesInput()) {
                refusal = guard.reserve();
                reserved = refusal.isEmpty();
            }
            if (refusal.isPresent()) return refused(attempt, a, refusal.get());
            Effect.Glance before = glance(a, tree);
            desktop.showing().awaitShown();
            int[] passed = {0};
            Optional<Basis> b = basis;
            DeliveryGate gate = () -> {
                Optional<Refusal> r;
                try {
                    r = guard.lastCheck(a, a.givesInput() ? lookAgain(a, tree) : tree, b);
                } catch (RefusedException e) {
                    r = Optional.of(e.refusal());
                }
                if (r.isEmpty()) passed[0]++;
                return r;
            };
            try {
                deliver(a, basis, gate);
            } catch (RefusedException e) {
                // Refused before any event (the last check, or the driver's own checks), the unit goes back;
                // a type refused after a chunk passed its gate has typed that chunk.
                if (reserved) {
                    if (a instanceof Action.Type && passed[0] >= 1) guard.spent();
                    else guard.release();
                }
                return refused(attempt, a, e.refusal());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                if (reserved) guard.spent();
                return refused(attempt, a, Refusal.stopped("the run was interrupted"));
            } catch (RuntimeException e) {
                if (reserved) guard.spent();
                String why = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
                audit.result(new ActionResult(
                        request.runId(), attempt, a.kind(), ActionResult.Status.FAILED, Optional.empty(), why));
                return Optional.of(Outcome.failed("the driver failed on " + a.kind() + ": " + why));
            }
            if (reserved) guard.spent();
            stepsRun++;
            Optional<Effect> effect = Optional.empty();
            Optional<Refusal> movedFocus = Optional.empty();
            if (a.givesInput()) {
                desktop.trees().settle(limits.settle(), landings(a));
                movedFocus = guard.afterDelivery(a);
                if (movedFocus.isEmpty()) {
                    closedGranted = grantedGone();
                    effect = closedGranted ? Optional.of(Effect.WINDOW_CLOSED) : effect(before);
                }
            }
            audit.result(new ActionResult(
                    request.runId(),
                    attempt,
                    a.kind(),
                    ActionResult.Status.DELIVERED,
                    Optional.empty(),
                    "delivered" + effect.map(e -> ", " + e.wire()).orElse(""),
                    effect));
            lastSteps.addLast(stepsRun + " " + describe(a, node) + " -> ok"
                    + effect.map(e -> ", " + e.wire()).orElse(""));
            while (lastSteps.size() > limits.lastSteps()) lastSteps.removeFirst();
            // delivered and counted, and yet the run ends: the action moved the person's focus
            if (movedFocus.isPresent()) return Optional.of(Outcome.endedBy(movedFocus.get()));
            return Optional.empty();
        }

        private Optional<Outcome> refused(int attempt, Action a, Refusal r) {
            audit.result(new ActionResult(
                    request.runId(),
                    attempt,
                    a.kind(),
                    ActionResult.Status.REFUSED,
                    Optional.of(r.code()),
                    r.detail()));
            return Optional.of(Outcome.endedBy(r));
        }

        /**
         * Where keys and typed text go: on an app grant, the app's own dialog over the granted window when it is the
         * active window (its Open dialog, its Find &amp; Replace: issue 28, where they went to the document), else the
         * granted window. The guard judged them by the focused element, which is the dialog's.
         */
        private long keysWindow(long granted) {
            long active = desktop.display().activeWindow();
            return active != 0 && active != granted && guard.joinedWindows().contains(active) ? active : granted;
        }

        /** The drawn cursor starts to travel to where the action lands; the last check comes after its arrival. */
        private void show(Action a, Optional<Basis> basis) {
            if (a instanceof ElementAction e) {
                desktop.showing().showElement(e.uid(), a instanceof Action.Click || a instanceof Action.Select);
            } else if (a instanceof Action.ClickAt c && basis.isPresent()) {
                desktop.showing().showPoint(c.x(), c.y(), basis.get());
            }
        }

        /**
         * The native call, right after {@code gate} (the last check) lets it through; {@code type} asks the
         * gate before every chunk itself.
         */
        void deliver(Action a, Optional<Basis> basis, DeliveryGate gate) throws InterruptedException {
            long windowId = scope.windowId();
            if (a instanceof Action.Type || a instanceof Action.Key) windowId = keysWindow(windowId);
            if (a instanceof Action.Type) {
                desktop.input().type(windowId, ((Action.Type) a).text(), gate);
                return;
            }
            gate.require();
            if (a instanceof Action.Click) {
                desktop.input().click(((Action.Click) a).uid());
            } else if (a instanceof Action.SetText) {
                Action.SetText s = (Action.SetText) a;
                desktop.input().setText(s.uid(), s.text());
            } else if (a instanceof Action.Key) {
                desktop.input().key(windowId, ((Action.Key) a).chord());
            } else if (a instanceof Action.Focus) {
                desktop.input().focus(((Action.Focus) a).uid());
            } else if (a instanceof Action.Scroll) {
                Action.Scroll s = (Action.Scroll) a;
                desktop.input().scroll(s.uid(), s.direction(), s.amount());
            } else if (a instanceof Action.Select) {
                Action.Select s = (Action.Select) a;
                desktop.input().select(s.uid(), s.option());
            } else if (a instanceof Action.ClickAt) {
                Action.ClickAt c = (Action.ClickAt) a;
                desktop.input().clickAt(c.x(), c.y(), basis.orElseThrow());
            } else if (a instanceof Action.Wait) {
                // each slice after a look at what the guard watches: an app that takes the person's focus while the
                // run waits (a page's timer) ends the wait there
                waitInSlices(Duration.ofMillis(((Action.Wait) a).ms()), () -> {
                    Optional<Refusal> seen = guard.watch(Duration.ZERO);
                    if (seen.isPresent()) throw new RefusedException(seen.get());
                });
            } else if (a instanceof Action.Done || a instanceof Action.Fail) {
                throw new IllegalStateException(a.kind() + " is not delivered");
            } else {
                throw new AssertionError(a);
            }
        }
    }

    /**
     * The events that are {@code a}'s effect ({@link Landing}). A state change is none of them: galculator's
     * keys (toggle buttons) announce checked before the display changes, and an app's other
     * controls turn sensitive before the text that enables them arrives (FeatherPad's Undo); a click whose
     * only effect is a state (a check box) settles on the quiet window. Typed text names none: it lands as one
     * event per key, and the first of them is not the last.
     */
    static Set<Landing> landings(Action a) {
        if (a instanceof Action.SetText) return EnumSet.of(Landing.TEXT);
        if (a instanceof Action.Focus) return EnumSet.of(Landing.FOCUS);
        if (a instanceof Action.Scroll) return EnumSet.of(Landing.VALUE, Landing.VISIBLE, Landing.CHILDREN);
        if (a instanceof Action.Type) return EnumSet.noneOf(Landing.class);
        // a click, key or chosen option may change text, a value, the children (a dialog, a new top-level) or a title
        return EnumSet.of(Landing.TEXT, Landing.VALUE, Landing.CHILDREN, Landing.NAME);
    }

    /** A short line for the decider's recent steps; typed text only as its length. */
    static String describe(Action a, Optional<Node> node) {
        String target = node.map(n -> " " + Roles.abbreviate(n.role())
                        + (n.name().isBlank()
                                ? ""
                                : " \"" + (n.name().length() > 40 ? n.name().substring(0, 39) + "…" : n.name()) + "\""))
                .orElse("");
        if (a instanceof ElementAction) {
            String extra = "";
            if (a instanceof Action.SetText)
                extra = " (" + ((Action.SetText) a).text().length() + " chars)";
            if (a instanceof Action.Scroll)
                extra = " " + ((Action.Scroll) a).direction() + " " + ((Action.Scroll) a).amount();
            if (a instanceof Action.Select)
                extra = " option of " + ((Action.Select) a).option().length() + " chars";
            return a.kind() + " " + ((ElementAction) a).uid() + target + extra;
        }
        if (a instanceof Action.Type) return "type (" + ((Action.Type) a).text().length() + " chars)";
        if (a instanceof Action.Key) return "key " + ((Action.Key) a).keys();
        if (a instanceof Action.ClickAt) {
            Action.ClickAt c = (Action.ClickAt) a;
            return "click_at " + c.x() + "," + c.y() + " on " + c.basis();
        }
        if (a instanceof Action.Wait) return "wait " + ((Action.Wait) a).ms() + " ms";
        return a.kind();
    }

    /** Wires one run's ports. Defaults: system UTC clock, real sleeper, {@link LoopLimits#DEFAULTS}, a passing preflight. */
    public static final class Builder {
        private Desktop desktop;
        private Decider decider;
        private Guard guard;
        private AuditSink audit;
        private Clock clock = Clock.systemUTC();
        private StopSignal stop;
        private Preflight preflight = windowId -> Optional.empty();
        private GrantScope scope;
        private VerifierRunner verifier;
        private Sleeper sleeper = Sleeper.REAL;
        private LoopLimits limits = LoopLimits.DEFAULTS;
        private Supplier<Optional<Refusal>> screen = Optional::empty;
        private Instant deadline;

        private Builder() {}

        public Builder desktop(Desktop v) {
            desktop = v;
            return this;
        }

        public Builder decider(Decider v) {
            decider = v;
            return this;
        }

        public Builder guard(Guard v) {
            guard = v;
            return this;
        }

        public Builder audit(AuditSink v) {
            audit = v;
            return this;
        }

        public Builder clock(Clock v) {
            clock = v;
            return this;
        }

        public Builder stop(StopSignal v) {
            stop = v;
            return this;
        }

        public Builder preflight(Preflight v) {
            preflight = v;
            return this;
        }

        public Builder scope(GrantScope v) {
            scope = v;
            return this;
        }

        public Builder verifier(VerifierRunner v) {
            verifier = v;
            return this;
        }

        public Builder sleeper(Sleeper v) {
            sleeper = v;
            return this;
        }

        public Builder limits(LoopLimits v) {
            limits = v;
            return this;
        }
        /**
         * The run's deadline as its builder computed it once ({@link LoopLimits#deadline}) for everything the
         * run bounds by it; without one the loop computes it the same way when the run starts.
         */
        public Builder deadline(Instant v) {
            deadline = v;
            return this;
        }
        /**
         * Whether one of Deckhand's secrets was seen on screen ({@link dev.deckhand.loop.desktop.ScreenedDesktop#fired}):
         * asked when the body ends and after the verifier; a refusal there ends the run {@code SECRET_ON_SCREEN}
         * whatever else it did. None by default.
         */
        public Builder screen(Supplier<Optional<Refusal>> v) {
            screen = v;
            return this;
        }

        public ComputerLoop build() {
            return new ComputerLoop(this);
        }
    }
}

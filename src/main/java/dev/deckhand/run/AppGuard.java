package dev.deckhand.run;

import dev.deckhand.grant.ActionKind;
import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.BasisInfo;
import dev.deckhand.grant.CaptureMode;
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
import dev.deckhand.loop.Guard;
import dev.deckhand.loop.StopSignal;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ElementAction;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.steps.Step;
import dev.deckhand.platform.FactsMapper;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The loop's {@link Guard} for one run, wired to the grant broker, the pure {@link Policy} and the
 * approval book. Facts are read from the driver at every check, so the refusals hold on every
 * action, not only at grant time. A watcher refusal ({@link #abort}) wins over everything.
 */
final class AppGuard implements Guard {

    static final Duration APPROVAL_POLL = Duration.ofMillis(20);

    private final PolicyConfig config;
    private final GrantBroker broker;
    private final ApprovalBook approvals;
    private final Desktop desktop;
    private final String sessionId;
    private final String grantId;
    private final StopSignal stop;
    private final Clock clock;
    private final java.util.function.BiConsumer<ApprovalBook.Approval, ApprovalBook.Status> onCard;
    private final AtomicReference<Refusal> aborted = new AtomicReference<>();
    private volatile boolean batchApproved;
    private final java.util.concurrent.atomic.AtomicLong approvalNanos = new java.util.concurrent.atomic.AtomicLong();

    AppGuard(PolicyConfig config, GrantBroker broker, ApprovalBook approvals, Desktop desktop, String sessionId,
            String grantId, StopSignal stop, Clock clock,
            java.util.function.BiConsumer<ApprovalBook.Approval, ApprovalBook.Status> onCard) {
        this.onCard = onCard;
        this.config = config;
        this.broker = broker;
        this.approvals = approvals;
        this.desktop = desktop;
        this.sessionId = sessionId;
        this.grantId = grantId;
        this.stop = stop;
        this.clock = clock;
    }

    /** The watcher's verdict: the run ends with this refusal at its next check. */
    void abort(Refusal refusal) {
        aborted.compareAndSet(null, refusal);
    }

    /** Time spent waiting for the person's decisions on approval cards. */
    long approvalNanos() {
        return approvalNanos.get();
    }

    Optional<Refusal> aborted() {
        return Optional.ofNullable(aborted.get());
    }

    private Grant grant() {
        Optional<Refusal> unusable = broker.usable(sessionId, grantId);
        if (unusable.isPresent()) throw new dev.deckhand.grant.RefusedException(unusable.get());
        return broker.active().orElseThrow(() -> new dev.deckhand.grant.RefusedException(RefusalCode.GRANT_REVOKED,
                "grant " + grantId + " is no longer active"));
    }

    @Override
    public Optional<Refusal> checkRun() {
        if (aborted().isPresent()) return aborted();
        try {
            grant();
        } catch (dev.deckhand.grant.RefusedException e) {
            return Optional.of(e.refusal());
        }
        return DenyScan.scan(config, FactsMapper.facts(desktop.facts(), 0));
    }

    @Override
    public Optional<Refusal> checkObserve() {
        if (aborted().isPresent()) return aborted();
        try {
            Grant g = grant();
            long window = g.target().windowId();
            return Policy.beforeCapture(config, g, FactsMapper.facts(desktop.facts(), window), window,
                    g.capture() == CaptureMode.PIXELS);
        } catch (dev.deckhand.grant.RefusedException e) {
            return Optional.of(e.refusal());
        }
    }

    @Override
    public Optional<Refusal> approveSteps(List<Step> steps, List<Optional<Node>> resolved, ScopedTree tree) {
        if (aborted().isPresent()) return aborted();
        Grant g;
        try {
            g = grant();
        } catch (dev.deckhand.grant.RefusedException e) {
            return Optional.of(e.refusal());
        }
        if (Policy.effectiveInputPolicy(config, g) != InputPolicy.CONFIRM_EACH) return Optional.empty();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            String target = resolved.get(i).map(n -> n.role() + " \"" + n.name() + "\"")
                    .orElse(s.target().map(t -> t.describe() + " (not on screen yet)").orElse("the window"));
            lines.add((i + 1) + ". " + s.action().kind() + " → " + target + textNote(s.action()));
        }
        Optional<Refusal> decision = awaitApproval(approvals.request(g.id(), g.revision(), null, lines, Optional.empty()),
                g, null);
        if (decision.isEmpty()) batchApproved = true;
        return decision;
    }

    @Override
    public Optional<Refusal> check(Action action, ScopedTree tree, Optional<Basis> basis) {
        if (aborted().isPresent()) return aborted();
        Grant g;
        try {
            g = grant();
        } catch (dev.deckhand.grant.RefusedException e) {
            return Optional.of(e.refusal());
        }
        long window = g.target().windowId();
        Facts facts = FactsMapper.facts(desktop.facts(), window);
        BasisInfo basisInfo = basis.map(FactsMapper::basis).orElse(null);
        if (basis.isPresent() && desktop.basisValid(basis.get())) {
            facts = facts.withMeasuredBasis(Optional.of(basisInfo));
        }
        ProposedAction proposed;
        try {
            proposed = propose(action, tree, window, basisInfo).withApproved(batchApproved);
        } catch (dev.deckhand.grant.RefusedException e) {
            return Optional.of(e.refusal());
        }
        PolicyDecision decision = Policy.check(config, g, facts, proposed);
        if (decision instanceof PolicyDecision.Allow) return Optional.empty();
        if (decision instanceof PolicyDecision.Refuse r) return Optional.of(r.value());
        if (decision instanceof PolicyDecision.NeedsApproval needs) {
            String line = action.kind() + " → " + describeTarget(action, tree) + textNote(action);
            Optional<Refusal> answer = awaitApproval(
                    approvals.request(g.id(), g.revision(), basisInfo, List.of(line), needs.consequential()), g, basisInfo);
            if (answer.isPresent()) return answer;
            PolicyDecision again = Policy.check(config, grant(), FactsMapper.facts(desktop.facts(), window)
                    .withMeasuredBasis(facts.measuredBasis()), proposed.withApproved(true));
            return again.refusal();
        }
        throw new AssertionError(decision);
    }

    @Override
    public void consume() {
        Grant g = broker.active().orElseThrow(() -> new dev.deckhand.grant.RefusedException(RefusalCode.GRANT_REVOKED,
                "grant " + grantId + " ended before its budget could be spent"));
        broker.consume(sessionId, grantId, g.revision());
    }

    /** Waits for the person's decision on the card, Stop, the grant's end, or the card's expiry. */
    private Optional<Refusal> awaitApproval(ApprovalBook.Approval card, Grant g, BasisInfo basis) {
        onCard.accept(card, ApprovalBook.Status.PENDING);
        long t0 = System.nanoTime();
        Optional<Refusal> answer = awaitDecision(card, g, basis);
        approvalNanos.addAndGet(System.nanoTime() - t0);
        onCard.accept(card, answer.isEmpty() ? ApprovalBook.Status.APPROVED
                : approvals.status(card.id()) == ApprovalBook.Status.EXPIRED ? ApprovalBook.Status.EXPIRED
                : ApprovalBook.Status.DENIED);
        return answer;
    }

    private Optional<Refusal> awaitDecision(ApprovalBook.Approval card, Grant g, BasisInfo basis) {
        while (true) {
            if (stop.stopRequested()) return Optional.of(Refusal.of(RefusalCode.STOPPED, "Stop while approval "
                    + card.id() + " was waiting"));
            if (aborted().isPresent()) return aborted();
            ApprovalBook.Status status = approvals.status(card.id());
            if (status != ApprovalBook.Status.PENDING) {
                return approvals.consume(card.id(), g.id(), g.revision(), basis);
            }
            try {
                Thread.sleep(APPROVAL_POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of(Refusal.of(RefusalCode.STOPPED, "interrupted while approval " + card.id() + " was waiting"));
            }
            if (clock.instant().isAfter(card.expiresAt().plusSeconds(1))) {
                return approvals.consume(card.id(), g.id(), g.revision(), basis);
            }
        }
    }

    static ProposedAction propose(Action action, ScopedTree tree, long window, BasisInfo basis) {
        long revision = tree.grantRevision();
        if (action instanceof Action.ClickAt) {
            return ProposedAction.clickAt(revision, window, basis, null);
        }
        if (action instanceof Action.Key k) {
            return ProposedAction.key(k.keys(), revision, window, tree.focused().map(AppGuard::element).orElse(null));
        }
        if (action instanceof Action.Type t) {
            Optional<Node> focused = tree.focused();
            if (focused.isEmpty()) {
                // Typed text goes to whatever has focus; unread focus could be a password field.
                throw new dev.deckhand.grant.RefusedException(RefusalCode.SECURE_INPUT,
                        "the focused element cannot be read, so it may be a password field; type is refused (set_text names its target)");
            }
            return ProposedAction.on(ActionKind.TYPE, revision, window, element(focused.get()))
                    .withTextHasNewline(t.text().indexOf('\n') >= 0 || t.text().indexOf('\r') >= 0);
        }
        ActionKind kind = ActionKind.valueOf(action.kind().toUpperCase(Locale.ROOT));
        if (action instanceof ElementAction e) {
            return ProposedAction.on(kind, revision, window, tree.byUid(e.uid()).map(AppGuard::element).orElse(null));
        }
        // wait (and anything else without an element): ProposedAction.on requires an element
        return new ProposedAction(kind, revision, window, Optional.empty(), Optional.empty(), false, Optional.empty(), false);
    }

    /**
     * The policy's view of an element. No toolkit here reports AT-SPI's multi-line state through the
     * tree, so every editable text element counts as a compose field: Enter or a typed newline in it
     * is consequential unless named or approved (fails closed; documented in docs/grants.md).
     */
    static ProposedAction.Element element(Node n) {
        boolean compose = n.editable() && (n.role().equals("text") || n.role().equals("document text")
                || n.role().equals("paragraph") || n.role().equals("entry"));
        return new ProposedAction.Element(n.role(), n.name(), false, compose);
    }

    private static String describeTarget(Action action, ScopedTree tree) {
        if (action instanceof ElementAction e) {
            return tree.byUid(e.uid()).map(n -> n.role() + " \"" + n.name() + "\"").orElse("an element");
        }
        if (action instanceof Action.ClickAt c) return "point (" + c.x() + ", " + c.y() + ") of capture " + c.basis();
        return "the focused element";
    }

    /** Cards show what is typed only by length, like the audit. */
    private static String textNote(Action action) {
        if (action instanceof Action.SetText s) return " (" + s.text().length() + " characters)";
        if (action instanceof Action.Type t) return " (" + t.text().length() + " characters)";
        if (action instanceof Action.Key k) return " (" + k.keys() + ")";
        return "";
    }
}

package dev.deckhand.run;

import dev.deckhand.audit.ApprovalEvent;
import dev.deckhand.audit.AuditLog;
import dev.deckhand.audit.GrantEvent;
import dev.deckhand.audit.RunRecord;
import dev.deckhand.grant.DenyScan;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.Policy;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.ActionResult;
import dev.deckhand.loop.ComputerLoop;
import dev.deckhand.loop.GrantScope;
import dev.deckhand.loop.LoopLimits;
import dev.deckhand.loop.Outcome;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.StopLatch;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.guard.DesktopPreflight;
import dev.deckhand.loop.guard.FactsMapper;
import dev.deckhand.loop.guard.GrantGuard;
import dev.deckhand.loop.json.Json;
import dev.deckhand.loop.json.WireFormatException;
import dev.deckhand.loop.steps.Step;
import dev.deckhand.loop.steps.StepParser;
import dev.deckhand.loop.verify.DesktopVerifier;
import dev.deckhand.loop.verify.Verdict;
import dev.deckhand.loop.verify.VerifierRunner;
import dev.deckhand.loop.verify.VerifierSpec;
import dev.deckhand.model.ModelClient;
import dev.deckhand.owner.GrantService;
import dev.deckhand.platform.Desktops;
import dev.deckhand.policy.PolicyStore;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * One {@code computer} call end to end, for MCP and the CLI alike: read the arguments strictly,
 * refuse what must be refused before anything runs (mode, policy file, a {@code file} verifier out of
 * scope, the limit on runs that deliver no action, grant, display), then run
 * the bounded loop with the grant guard, the bound model, the watcher, the audit trail and the
 * declared verifier, and record the run.
 */
@ApplicationScoped
public class ComputerService {

    /** Called with every action result while a run goes on (MCP progress). */
    public interface StepListener extends Consumer<ActionResult> { }

    static final Set<String> ARGUMENTS = Set.of("instruction", "steps", "verifier", "maxSteps", "timeoutSeconds", "mode");
    private static final Logger LOG = Logger.getLogger(ComputerService.class);

    @Inject
    GrantService grants;

    @Inject
    PolicyStore policy;

    @Inject
    Desktops desktops;

    @Inject
    AuditLog audit;

    @Inject
    ModelClient model;

    @Inject
    dev.deckhand.app.ServerAddress address;

    @Inject
    dev.deckhand.presence.Presence presence;

    @Inject
    dev.deckhand.policy.FileVerifierScope files;

    @Inject
    VerifierOnlyRuns verifierOnly;

    private final Clock clock = Clock.systemUTC();
    private final ExecutorService modelCalls = Executors.newCachedThreadPool(daemon("deckhand-model"));
    private final ScheduledExecutorService watchers = Executors.newScheduledThreadPool(1, daemon("deckhand-watcher"));

    /** The arguments could not be read; the message names the argument. */
    public static final class InvalidArguments extends RuntimeException {
        InvalidArguments(String message) {
            super(message, null, false, false);
        }
    }

    /** Reads the tool's arguments as the wire gives them (strict: unknown arguments are refused). */
    public static RunRequest parse(String runId, String argumentsJson) {
        try {
            Object value = Json.parse(argumentsJson);
            if (!(value instanceof Map<?, ?> args)) throw new InvalidArguments("arguments must be an object");
            for (Object key : args.keySet()) {
                if (!ARGUMENTS.contains(key)) throw new InvalidArguments("unknown argument '" + key + "' for computer");
            }
            Object instruction = args.get("instruction");
            if (!(instruction instanceof String s) || s.isBlank()) {
                throw new InvalidArguments("instruction is required for computer (a non-empty string)");
            }
            List<Step> steps = args.containsKey("steps") ? StepParser.fromJson(args.get("steps")) : List.of();
            Optional<VerifierSpec> verifier = args.containsKey("verifier")
                    ? Optional.of(VerifierSpec.fromJson(args.get("verifier"))) : Optional.empty();
            Object mode = args.containsKey("mode") ? args.get("mode") : "default";
            if (!(mode instanceof String m) || !RunRequest.MODES.contains(m)) {
                throw new InvalidArguments("mode must be default, plan or goal");
            }
            return new RunRequest(runId, (String) instruction, steps, verifier, positive(args, "maxSteps"),
                    positive(args, "timeoutSeconds"), (String) mode);
        } catch (WireFormatException | IllegalArgumentException e) {
            throw new InvalidArguments(e.getMessage());
        }
    }

    private static Optional<Integer> positive(Map<?, ?> args, String name) {
        if (!args.containsKey(name)) return Optional.empty();
        Object v = args.get(name);
        if (!(v instanceof Long n) || n < 1 || n > 100_000) {
            throw new InvalidArguments(name + " must be a positive integer");
        }
        return Optional.of(n.intValue());
    }

    public static String newRunId() {
        return "run-" + UUID.randomUUID();
    }

    /**
     * Runs one call. Never throws for anything the world, the model or the person does; every
     * refusal comes back in the result with its code.
     *
     * @param sessionId the MCP session (or CLI) that the grant binds to
     * @param cancelled MCP cancellation; seen once, it is Stop (the grant is revoked and Stop latches)
     */
    public RunResult run(RunRequest request, String sessionId, BooleanSupplier cancelled, StepListener onStep) {
        Instant started = clock.instant();
        RunResult result;
        String grantId = null;
        VerifierOnlyRuns.Slot slot = null;
        java.util.concurrent.atomic.AtomicBoolean gaveInput = new java.util.concurrent.atomic.AtomicBoolean();
        StepListener watched = step -> {
            if (step.status() == ActionResult.Status.DELIVERED && !step.kind().equals("wait")) gaveInput.set(true);
            onStep.accept(step);
        };
        try {
            Optional<Refusal> mode = Policy.checkCallMode(request.mode());
            if (mode.isPresent()) return record(request, refused(request, mode.get()), null, started);
            PolicyConfig config = policy.current();
            if (request.verifier().orElse(null) instanceof VerifierSpec.File f) {
                files.check(f.path(), config).ifPresent(r -> {
                    throw new RefusedException(r);
                });
            }
            if (request.verifier().isPresent()) slot = verifierOnly.take(sessionId);
            GrantBroker broker = grants.broker();
            boolean wasBound = broker.active().flatMap(Grant::ownerSession).isPresent();
            Grant grant = broker.acquire(sessionId, null);
            grantId = grant.id();
            if (!wasBound) grants.record(GrantEvent.Kind.BIND, grant);
            Desktop desktop = desktops.desktop();
            if (request.verifier().orElse(null) instanceof VerifierSpec.Command c && !config.commandEnabled(c.argv())) {
                throw new RefusedException(RefusalCode.OUT_OF_SCOPE, "the command verifier " + c.argv().get(0)
                        + " is not enabled in the policy (enabledCommands)");
            }
            broker.hold(sessionId, grant.id(), request.runId());
            try {
                result = runLoop(request, config, grant, desktop, sessionId, cancelled, watched);
            } finally {
                broker.unhold(request.runId());
            }
        } catch (RefusedException e) {
            Refusal refusal = e.refusal();
            if (refusal.code() == RefusalCode.NO_GRANT) {
                refusal = Refusal.of(RefusalCode.NO_GRANT, "no window is granted; ask the user to grant one in "
                        + "Deckhand's page at " + address.pageUrl());
            }
            result = refused(request, refusal);
        }
        if (slot != null) slot.settle(result.verdict() != Verdict.NONE && !gaveInput.get());
        return record(request, result, grantId, started);
    }

    /**
     * A run refused before any grant was bound (the CLI's checks before it mints: no verifier, the
     * policy file, the display, the target), recorded like every other run.
     */
    public RunResult refuse(RunRequest request, Refusal refusal) {
        return record(request, refused(request, refusal), null, clock.instant());
    }

    private RunResult runLoop(RunRequest request, PolicyConfig config, Grant grant, Desktop desktop, String sessionId,
            BooleanSupplier cancelled, StepListener onStep) {
        GrantBroker broker = grants.broker();
        StopLatch latch = new StopLatch();
        long windowId = grant.target().windowId();
        dev.deckhand.loop.StopSignal stop = () -> {
            if (latch.stopRequested()) return true;
            if (cancelled.getAsBoolean()) {
                latch.stop();
                broker.stop("MCP cancellation of " + request.runId());
                return true;
            }
            return broker.usable(sessionId, grant.id()).map(r -> r.code() == RefusalCode.STOPPED
                    || r.code() == RefusalCode.GRANT_REVOKED).orElse(false);
        };
        GrantGuard guard = new GrantGuard(policy::current, broker, grants.approvals(), desktop, sessionId, grant.id(), stop, clock,
                (card, status) -> audit.append(new ApprovalEvent(switch (status) {
                    case PENDING -> ApprovalEvent.State.REQUESTED;
                    case APPROVED -> ApprovalEvent.State.APPROVED;
                    case EXPIRED -> ApprovalEvent.State.EXPIRED;
                    default -> ApprovalEvent.State.DENIED;
                }, card.id(), request.runId(), card.grantId(), card.revision(), Math.max(1, card.steps().size()))));
        GrantScope scope = new GrantScope() {
            @Override public long windowId() { return windowId; }
            @Override public long revision() { return broker.active().map(Grant::revision).orElse(grant.revision()); }
            @Override public dev.deckhand.grant.CaptureMode captureMode() {
                return broker.active().map(Grant::capture).orElse(grant.capture());
            }
        };
        java.util.concurrent.atomic.AtomicLong verifierNanos = new java.util.concurrent.atomic.AtomicLong();
        // A failing check is read again while the app may still be catching up, but not after Stop or
        // an abort: the person asked for the run to end now.
        var desktopVerifier = new DesktopVerifier(desktop, windowId, scope::revision, new HostVerifier(config, files),
                () -> !stop.stopRequested() && guard.aborted().isEmpty());
        var verifier = new VerifierRunner(spec -> {
            long t0 = System.nanoTime();
            try {
                return desktopVerifier.verify(spec);
            } finally {
                verifierNanos.addAndGet(System.nanoTime() - t0);
            }
        });
        ModelDecider decider = new ModelDecider(model, modelCalls, () -> stop.stopRequested()
                ? Optional.of(Refusal.of(RefusalCode.STOPPED, "Stop while the model was answering"))
                : guard.aborted());
        LoopLimits limits = new LoopLimits(config.caps().maxSteps(), config.caps().wallClock(),
                LoopLimits.DEFAULTS.observationTokens(), LoopLimits.DEFAULTS.captureLongEdge(),
                LoopLimits.DEFAULTS.settle(), LoopLimits.DEFAULTS.lastSteps());
        ScheduledFuture<?> watcher = watchers.scheduleWithFixedDelay(() -> watch(desktop, broker, guard),
                config.pollInterval().toMillis(), config.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
        // Presence (issue 8): Focus on, the drawn cursor on the acting desktop, the voice line; closed on
        // every exit path below, a crashed loop included.
        dev.deckhand.presence.Presence.Run shown = presence.begin(desktop);
        try {
            ComputerLoop loop = ComputerLoop.builder()
                    .desktop(shown.desktop())
                    .decider(decider)
                    .guard(guard)
                    .audit(new AuditTrail(audit, grant.id(), windowId, grant.target().app(), onStep))
                    .clock(clock)
                    .stop(stop)
                    .preflight(new DesktopPreflight(desktop))
                    .scope(scope)
                    .verifier(verifier)
                    .sleeper(d -> sleepUnlessStopped(d, stop))
                    .limits(limits)
                    .build();
            long t0 = System.nanoTime();
            RunResult result = loop.run(request);
            shown.finished(result.outcome());
            long host = System.nanoTime() - t0 - decider.modelNanos() - verifierNanos.get() - guard.approvalNanos();
            int steps = Math.max(1, Math.max(result.stepsRun(), decider.turns()));
            LOG.infof("run %s: %d steps, %d model turns, host overhead per step %.1f ms (wall minus model, verifier and approval waits)",
                    request.runId(), result.stepsRun(), decider.turns(), host / 1e6 / steps);
            return result;
        } finally {
            watcher.cancel(false);
            shown.close();
        }
    }

    /**
     * Carries out a {@code wait} in 10 ms slices and returns early once Stop is requested, so a Stop
     * pressed during a wait ends the run at the loop's next checkpoint instead of after the wait.
     */
    static void sleepUnlessStopped(java.time.Duration d, dev.deckhand.loop.StopSignal stop) throws InterruptedException {
        long end = System.nanoTime() + d.toNanos();
        while (!stop.stopRequested()) {
            long left = end - System.nanoTime();
            if (left <= 0) return;
            Thread.sleep(Math.max(1, Math.min(10, left / 1_000_000)));
        }
    }

    /** The watcher: the deny lists (of the policy as it is now) every poll interval, and the grant's expiry. */
    private void watch(Desktop desktop, GrantBroker broker, GrantGuard guard) {
        try {
            broker.active();
            DenyScan.scan(policy.current(), FactsMapper.facts(desktop.facts(), 0)).ifPresent(guard::abort);
        } catch (RefusedException e) {
            guard.abort(e.refusal());
        } catch (RuntimeException e) {
            guard.abort(Refusal.of(RefusalCode.A11Y_UNAVAILABLE, "the watcher could not read the desktop: " + e.getMessage()));
        }
    }

    private static RunResult refused(RunRequest request, Refusal refusal) {
        String summary = "refused: " + refusal;
        if (summary.length() > RunResult.MAX_SUMMARY) summary = summary.substring(0, RunResult.MAX_SUMMARY - 1) + "…";
        return new RunResult(request.runId(), Outcome.REFUSED, Verdict.NONE, 0, Optional.of(refusal), summary,
                Optional.empty(), "not run: the request was refused before the run started");
    }

    private RunResult record(RunRequest request, RunResult r, String grantId, Instant started) {
        try {
            RunRecord.VerifierResult verifierResult = switch (r.verdict()) {
                case PASS -> RunRecord.VerifierResult.PASS;
                case FAIL -> r.verifierDetail().contains("timed out") ? RunRecord.VerifierResult.TIMEOUT
                        : RunRecord.VerifierResult.FAIL;
                case NONE -> RunRecord.VerifierResult.NOT_RUN;
            };
            audit.append(new RunRecord(request.runId(), request.instruction(),
                    r.route().map(x -> x.name().toLowerCase(java.util.Locale.ROOT)).orElse(null), grantId, r.stepsRun(),
                    request.verifier().map(VerifierSpec::kind).orElse(null), verifierResult,
                    RunRecord.Verdict.valueOf(r.verdict().name()), RunRecord.Outcome.valueOf(r.outcome().name()),
                    r.refusal().map(Refusal::code).orElse(null), started, clock.instant()));
        } catch (RuntimeException e) {
            LOG.errorf("the run record of %s could not be written: %s", request.runId(), e.getMessage());
        }
        return r;
    }

    @PreDestroy
    void shutdown() {
        modelCalls.shutdownNow();
        watchers.shutdownNow();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}

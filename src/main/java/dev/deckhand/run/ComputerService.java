package dev.deckhand.run;

import dev.deckhand.audit.GrantEvent;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.home.ServerAddress;
import dev.deckhand.loop.ActionResult;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.verify.Verdict;
import dev.deckhand.loop.verify.VerifierSpec;
import dev.deckhand.owner.GrantService;
import dev.deckhand.platform.Desktops;
import dev.deckhand.policy.FileVerifierScope;
import dev.deckhand.policy.PolicyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * One {@code computer} call end to end, for MCP, the CLI and {@code deckhand eval} alike: refuse what
 * must be refused before anything runs (the mode, the policy file, a {@code file} verifier out of scope,
 * the budget of verifier reads ({@link VerifierReads}), the grant, a {@code command} verifier the policy does not
 * enable), bind and hold the grant, run it ({@link RunAssembly}) and record it ({@link RunRecorder}).
 *
 * <p>A refusal decided here ends the call as {@link RunResult#notStarted}; the broker's and the
 * display's refusals, which unwind their calls, are turned into one in this one place.
 */
@ApplicationScoped
public class ComputerService {

    private static final Logger LOG = Logger.getLogger(ComputerService.class);

    /** Called with every action result while a run goes on (MCP progress). */
    public interface StepListener extends Consumer<ActionResult> { }

    @Inject
    GrantService grants;

    @Inject
    PolicyStore policy;

    @Inject
    Desktops desktops;

    @Inject
    ServerAddress address;

    @Inject
    FileVerifierScope files;

    @Inject
    VerifierReads verifierReads;

    @Inject
    RunAssembly assembly;

    @Inject
    RunRecorder recorder;

    @Inject
    Clock clock;

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
        long t0 = System.nanoTime();
        Optional<Refusal> mode = request.mode().refusal();
        if (mode.isPresent()) return recorder.finished(request, RunResult.notStarted(request.runId(), mode.get()), null, started);
        RunResult result;
        String grantId = null;
        VerifierReads.Slot slot = null;
        RunNotes notes = new RunNotes();
        try {
            PolicyConfig config = policy.current();
            Optional<Refusal> verifier = outOfScope(request.verifier(), config, false);
            if (verifier.isPresent()) return refused(request, verifier.get(), null, started);
            // counted whatever the run does (steps or none), before the grant is bound or any input given
            if (VerifierReads.reads(request.verifier())) slot = verifierReads.take(sessionId);
            GrantBroker broker = grants.broker();
            boolean wasBound = broker.active().flatMap(Grant::ownerSession).isPresent();
            Grant grant = broker.acquire(sessionId, null);
            grantId = grant.id();
            if (!wasBound) grants.record(GrantEvent.Kind.BIND, grant);
            Desktop desktop = desktops.desktop();
            Optional<Refusal> command = outOfScope(request.verifier(), config, true);
            result = command.isPresent() ? RunResult.notStarted(request.runId(), command.get())
                    : held(request, config, grant, desktop, sessionId, cancelled, onStep, notes);
        } catch (RefusedException e) {
            result = RunResult.notStarted(request.runId(), withPage(e.refusal()));
        } catch (RuntimeException e) {
            recorder.flush(request.runId());
            throw e;
        }
        if (slot != null) slot.settle(result.verdict() != Verdict.NONE);
        long t1 = System.nanoTime();
        RunResult recorded = recorder.finished(request, result, grantId, started, notes);
        LOG.debugf("call %s: %.1f ms in the service, of which %.1f ms recording the run", request.runId(),
                (System.nanoTime() - t0) / 1e6, (System.nanoTime() - t1) / 1e6);
        return recorded;
    }

    /** Runs the request while the grant is held for it: one run holds a grant at a time. */
    private RunResult held(RunRequest request, PolicyConfig config, Grant grant, Desktop desktop, String sessionId,
            BooleanSupplier cancelled, StepListener onStep, RunNotes notes) {
        grants.broker().hold(sessionId, grant.id(), request.runId());
        try {
            return assembly.run(request, config, grant, desktop, sessionId, cancelled, onStep, notes);
        } finally {
            grants.broker().unhold(request.runId());
        }
    }

    /**
     * A run refused before any grant was bound (the CLI's checks before it mints: no verifier, the
     * policy file, the display, the target), recorded like every other run.
     */
    public RunResult refuse(RunRequest request, Refusal refusal) {
        return refused(request, refusal, null, clock.instant());
    }

    private RunResult refused(RunRequest request, Refusal refusal, String grantId, Instant started) {
        return recorder.finished(request, RunResult.notStarted(request.runId(), refusal), grantId, started);
    }

    /**
     * A declared verifier that names something outside the scope: a {@code file} outside the policy's
     * verifier roots (checked before the grant), or a {@code command} the policy does not enable (checked
     * once the grant is bound, so the call's order of refusals stays as it was).
     */
    private Optional<Refusal> outOfScope(Optional<VerifierSpec> verifier, PolicyConfig config, boolean bound) {
        if (!bound && verifier.orElse(null) instanceof VerifierSpec.File f) return files.check(f.path(), config);
        if (bound && verifier.orElse(null) instanceof VerifierSpec.Command c && !config.commandEnabled(c.argv())) {
            return Optional.of(Refusal.outOfScope("the command verifier " + c.argv().get(0)
                    + " is not enabled in the policy (enabledCommands)"));
        }
        return Optional.empty();
    }

    /** {@code NO_GRANT} tells the agent where the person grants a window. */
    private Refusal withPage(Refusal refusal) {
        if (refusal.code() != RefusalCode.NO_GRANT) return refusal;
        return Refusal.noGrant("no window is granted; ask the user to grant one in Deckhand's page at " + address.pageUrl());
    }
}

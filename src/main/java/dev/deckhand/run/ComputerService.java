package dev.deckhand.run;

import dev.deckhand.audit.GrantEvent;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.home.ServerAddress;
import dev.deckhand.loop.ActionResult;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.verify.Verdict;
import dev.deckhand.owner.GrantService;
import dev.deckhand.platform.Desktops;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * One {@code computer} call end to end, for MCP, the CLI and {@code deckhand eval} alike: admit it
 * ({@link RunAdmission}: the mode, the verifier, the verifier's arguments and file scope, the budget of
 * verifier reads — the first refusal, before any grant is touched), then acquire, bind and hold the grant,
 * run it ({@link RunAssembly}) and record it ({@link RunRecorder}).
 *
 * <p>A refusal decided here ends the call as {@link RunResult#notStarted}; the broker's and the
 * display's refusals, which unwind their calls, are turned into one in this one place.
 */
@ApplicationScoped
public class ComputerService {

    private static final Logger LOG = Logger.getLogger(ComputerService.class);

    /** Called with every action result while a run goes on (MCP progress). */
    public interface StepListener extends Consumer<ActionResult> {}

    private final RunAdmission admission;
    private final GrantService grants;
    private final Desktops desktops;
    private final ServerAddress address;
    private final RunAssembly assembly;
    private final RunRecorder recorder;
    private final Clock clock;

    @Inject
    public ComputerService(
            RunAdmission admission,
            GrantService grants,
            Desktops desktops,
            ServerAddress address,
            RunAssembly assembly,
            RunRecorder recorder,
            Clock clock) {
        this.admission = admission;
        this.grants = grants;
        this.desktops = desktops;
        this.address = address;
        this.assembly = assembly;
        this.recorder = recorder;
        this.clock = clock;
    }

    public static String newRunId() {
        return "run-" + UUID.randomUUID();
    }

    /**
     * Runs one call: admits it, then runs it. Never throws for anything the world, the model or the person
     * does; every refusal comes back in the result with its code.
     *
     * @param sessionId the MCP session (or CLI) that the grant binds to
     * @param cancelled MCP cancellation; seen once, it is Stop (the grant is revoked and Stop latches)
     */
    public RunResult run(RunRequest request, String sessionId, BooleanSupplier cancelled, StepListener onStep) {
        Instant started = clock.instant();
        RunAdmission.Decision decision = admission.admit(request, sessionId);
        if (decision instanceof RunAdmission.Refused r) return refused(request, r.refusal(), null, started);
        return run((RunAdmission.Admitted) decision, sessionId, cancelled, onStep, started);
    }

    /** Admission alone, for a front end that mints the grant itself once the call is admitted ({@code deckhand run}). */
    public RunAdmission.Decision admit(RunRequest request, String sessionId) {
        return admission.admit(request, sessionId);
    }

    /** Runs an admitted call ({@link #admit}). */
    public RunResult run(
            RunAdmission.Admitted admitted, String sessionId, BooleanSupplier cancelled, StepListener onStep) {
        return run(admitted, sessionId, cancelled, onStep, clock.instant());
    }

    private RunResult run(
            RunAdmission.Admitted admitted,
            String sessionId,
            BooleanSupplier cancelled,
            StepListener onStep,
            Instant started) {
        long t0 = System.nanoTime();
        RunRequest request = admitted.request();
        RunResult result;
        String grantId = null;
        RunNotes notes = new RunNotes();
        try {
            GrantBroker broker = grants.broker();
            boolean wasBound = broker.active().flatMap(Grant::ownerSession).isPresent();
            Grant grant = broker.acquire(sessionId, null);
            grantId = grant.id();
            if (!wasBound) grants.record(GrantEvent.Kind.BIND, grant);
            Desktop desktop = desktops.desktop();
            result = held(
                    new RunContext(request, sessionId, admitted.config(), grant, desktop, cancelled, onStep, notes));
        } catch (RefusedException e) {
            result = RunResult.notStarted(request.runId(), withPage(e.refusal()));
        } catch (RuntimeException e) {
            admitted.settle(true);
            recorder.flush(request.runId());
            throw e;
        }
        admitted.settle(result.verdict() != Verdict.NONE);
        long t1 = System.nanoTime();
        RunResult recorded = recorder.finished(request, result, grantId, started, notes);
        LOG.debugf(
                "call %s: %.1f ms in the service, of which %.1f ms recording the run",
                request.runId(), (System.nanoTime() - t0) / 1e6, (System.nanoTime() - t1) / 1e6);
        return recorded;
    }

    /** Runs the request while the grant is held for it: one run holds a grant at a time. */
    private RunResult held(RunContext run) {
        grants.broker().hold(run.sessionId(), run.grant().id(), run.request().runId());
        try {
            return assembly.run(run);
        } finally {
            grants.broker().unhold(run.request().runId());
        }
    }

    /**
     * A run refused before any grant was bound (the CLI's and eval's refusals before or at the mint: the
     * policy file, the display, the target), recorded like every other run.
     */
    public RunResult refuse(RunRequest request, Refusal refusal) {
        return refused(request, refusal, null, clock.instant());
    }

    /** An admitted run refused before it started (its mint was refused): its verifier-reads slot is given back. */
    public RunResult refuse(RunAdmission.Admitted admitted, Refusal refusal) {
        admitted.settle(false);
        return refuse(admitted.request(), refusal);
    }

    private RunResult refused(RunRequest request, Refusal refusal, String grantId, Instant started) {
        return recorder.finished(request, RunResult.notStarted(request.runId(), refusal), grantId, started);
    }

    /** {@code NO_GRANT} tells the agent where the person grants a window. */
    private Refusal withPage(Refusal refusal) {
        if (refusal.code() != RefusalCode.NO_GRANT) return refusal;
        return Refusal.noGrant(
                "no window is granted; ask the user to grant one in Deckhand's page at " + address.pageUrl());
    }
}

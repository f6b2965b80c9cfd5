package dev.deckhand.run;

import dev.deckhand.grant.Grant;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.desktop.Desktop;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * One admitted run once its grant is bound and held: what {@link RunAssembly} wires the loop from.
 *
 * @param config the policy as admission read it
 * @param grant the grant, bound to {@code sessionId} and held for this run
 * @param cancelled MCP cancellation; seen once, it is Stop (the grant is revoked and Stop latches)
 * @param notes what the run record keeps beside the result (model use, timings)
 */
record RunContext(
        RunRequest request,
        String sessionId,
        PolicyConfig config,
        Grant grant,
        Desktop desktop,
        BooleanSupplier cancelled,
        ComputerService.StepListener onStep,
        RunNotes notes) {

    RunContext {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(grant, "grant");
        Objects.requireNonNull(desktop, "desktop");
        Objects.requireNonNull(cancelled, "cancelled");
        Objects.requireNonNull(onStep, "onStep");
        Objects.requireNonNull(notes, "notes");
    }
}

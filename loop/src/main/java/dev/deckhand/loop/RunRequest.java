package dev.deckhand.loop;

import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.route.Router;
import dev.deckhand.loop.steps.Step;
import dev.deckhand.loop.verify.VerifierSpec;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One {@code computer} call as the loop takes it (already read from the wire).
 *
 * @param steps explicit steps, run in order without a model; empty for a model-driven run
 * @param maxSteps lowers the loop's step cap, never raises it (1..cap)
 * @param timeoutSeconds lowers the loop's wall clock, never raises it (≥ 1)
 * @param instruction required (not blank) in the default mode; a refused mode may carry an empty one
 * @param mode {@code default}, {@code plan} or {@code goal}; the last two are refused ({@link #refusal()})
 */
public record RunRequest(
        String runId,
        String instruction,
        List<Step> steps,
        Optional<VerifierSpec> verifier,
        Optional<Integer> maxSteps,
        Optional<Integer> timeoutSeconds,
        Mode mode) {

    /** {@link ToolLimits#MAX_INSTRUCTION}. */
    public static final int MAX_INSTRUCTION = ToolLimits.MAX_INSTRUCTION;

    public RunRequest {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(instruction, "instruction");
        Objects.requireNonNull(mode, "mode");
        if (instruction.isBlank() && mode == Mode.DEFAULT)
            throw new IllegalArgumentException("instruction must not be empty");
        if (instruction.length() > MAX_INSTRUCTION)
            throw new IllegalArgumentException("instruction must be at most " + MAX_INSTRUCTION + " characters");
        steps = List.copyOf(Objects.requireNonNull(steps, "steps"));
        Objects.requireNonNull(verifier, "verifier");
        Objects.requireNonNull(maxSteps, "maxSteps");
        Objects.requireNonNull(timeoutSeconds, "timeoutSeconds");
        if (maxSteps.isPresent() && maxSteps.get() < 1)
            throw new IllegalArgumentException("maxSteps must be at least 1");
        if (timeoutSeconds.isPresent() && timeoutSeconds.get() < 1)
            throw new IllegalArgumentException("timeoutSeconds must be at least 1");
    }

    /**
     * The request checks, made before anything runs (not even the verifier): {@code MODE_DENIED} for the
     * plan and goal modes ({@link Mode#refusal()}), then {@code NO_VERIFIER} for a run that may give input
     * without a declared verifier ({@link Router#verifierMissing}). The one place both are decided: the
     * first two steps of the server's admission ({@code run.RunAdmission}), asked again by the loop.
     */
    public Optional<Refusal> refusal() {
        Optional<Refusal> mode = this.mode.refusal();
        if (mode.isPresent()) return mode;
        return Router.verifierMissing(instruction, !steps.isEmpty(), verifier.isPresent());
    }

    /** A model-driven run in the default mode with no overrides. */
    public static RunRequest of(String runId, String instruction, Optional<VerifierSpec> verifier) {
        return new RunRequest(
                runId, instruction, List.of(), verifier, Optional.empty(), Optional.empty(), Mode.DEFAULT);
    }

    public RunRequest withSteps(List<Step> steps) {
        return new RunRequest(runId, instruction, steps, verifier, maxSteps, timeoutSeconds, mode);
    }

    public RunRequest withMaxSteps(int n) {
        return new RunRequest(runId, instruction, steps, verifier, Optional.of(n), timeoutSeconds, mode);
    }

    public RunRequest withTimeoutSeconds(int s) {
        return new RunRequest(runId, instruction, steps, verifier, maxSteps, Optional.of(s), mode);
    }

    public RunRequest withMode(Mode mode) {
        return new RunRequest(runId, instruction, steps, verifier, maxSteps, timeoutSeconds, mode);
    }

    /** @param mode the mode's wire name ({@link Mode#read}) */
    public RunRequest withMode(String mode) {
        return withMode(Mode.read(mode));
    }
}

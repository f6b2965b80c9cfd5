package dev.deckhand.loop;

import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.route.Router;
import dev.deckhand.loop.steps.Step;
import dev.deckhand.loop.verify.VerifierSpec;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One {@code computer} call as the loop takes it (already read from the wire).
 *
 * @param steps explicit steps, run in order without a model; empty for a model-driven run
 * @param maxSteps lowers the loop's step cap, never raises it (1..cap)
 * @param timeoutSeconds lowers the loop's wall clock, never raises it (≥ 1)
 * @param mode {@code default}, {@code plan} or {@code goal}; the last two are refused
 */
public record RunRequest(String runId, String instruction, List<Step> steps, Optional<VerifierSpec> verifier,
        Optional<Integer> maxSteps, Optional<Integer> timeoutSeconds, String mode) {

    public static final Set<String> MODES = Set.of("default", "plan", "goal");
    public static final int MAX_INSTRUCTION = 10_000;

    public RunRequest {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(instruction, "instruction");
        if (instruction.isBlank()) throw new IllegalArgumentException("instruction must not be empty");
        if (instruction.length() > MAX_INSTRUCTION) throw new IllegalArgumentException("instruction must be at most " + MAX_INSTRUCTION + " characters");
        steps = List.copyOf(Objects.requireNonNull(steps, "steps"));
        Objects.requireNonNull(verifier, "verifier");
        Objects.requireNonNull(maxSteps, "maxSteps");
        Objects.requireNonNull(timeoutSeconds, "timeoutSeconds");
        Objects.requireNonNull(mode, "mode");
        if (maxSteps.isPresent() && maxSteps.get() < 1) throw new IllegalArgumentException("maxSteps must be at least 1");
        if (timeoutSeconds.isPresent() && timeoutSeconds.get() < 1) throw new IllegalArgumentException("timeoutSeconds must be at least 1");
        if (!MODES.contains(mode)) throw new IllegalArgumentException("mode must be default, plan or goal");
    }

    /**
     * The request checks, made before anything runs (not even the verifier): {@code MODE_DENIED} for the
     * plan and goal modes, then {@code NO_VERIFIER} for a run that may give input
     * ({@link Router#requiresVerifier}) without a declared verifier.
     */
    public Optional<Refusal> refusal() {
        if (!mode.equals("default")) {
            return Optional.of(Refusal.modeDenied("mode " + mode + " is refused; only default runs"));
        }
        if (verifier.isEmpty() && Router.requiresVerifier(instruction, !steps.isEmpty())) {
            return Optional.of(Refusal.noVerifier("a run that may give input needs a declared verifier"));
        }
        return Optional.empty();
    }

    /** A model-driven run in the default mode with no overrides. */
    public static RunRequest of(String runId, String instruction, Optional<VerifierSpec> verifier) {
        return new RunRequest(runId, instruction, List.of(), verifier, Optional.empty(), Optional.empty(), "default");
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

    public RunRequest withMode(String mode) {
        return new RunRequest(runId, instruction, steps, verifier, maxSteps, timeoutSeconds, mode);
    }
}

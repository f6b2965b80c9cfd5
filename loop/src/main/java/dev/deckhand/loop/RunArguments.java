package dev.deckhand.loop;

import dev.deckhand.loop.json.WireFormatException;
import dev.deckhand.loop.steps.Step;
import dev.deckhand.loop.steps.StepParser;
import dev.deckhand.loop.verify.VerifierSpec;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code computer} tool's arguments (docs/contract.md#input), read once into the {@link RunRequest} the loop
 * takes — from the JSON object a front end already parsed: the MCP call's arguments, {@code deckhand run}'s
 * flags, a task of {@code deckhand eval}. Strict: an unknown argument, a wrong type or an out-of-range
 * value is a {@link WireFormatException} naming the argument (and the step or verifier field). The limits
 * are {@link ToolLimits}', the ones {@link InputSchema} publishes.
 *
 * <p>{@code mode} {@code plan} or {@code goal} is refused before anything else, even before the other
 * arguments are read: the request then carries the mode and, when it is readable, the instruction, and
 * {@link RunRequest#refusal()} refuses it.
 */
public final class RunArguments {

    /** The argument names; anything else is refused. */
    public static final Set<String> NAMES =
            Set.of("instruction", "steps", "verifier", "maxSteps", "timeoutSeconds", "mode");

    private RunArguments() {}

    /**
     * @param runId the run's id (minted by the caller)
     * @param args the arguments as parsed JSON: strings, {@code Map}s, {@code List}s and integral numbers
     * @throws WireFormatException the arguments are not what the tool takes; the message names the argument
     */
    public static RunRequest read(String runId, Map<String, ?> args) {
        Objects.requireNonNull(args, "args");
        Object mode = args.get("mode");
        if ("plan".equals(mode) || "goal".equals(mode)) {
            Object instruction = args.get("instruction");
            return RunRequest.of(
                            runId,
                            instruction instanceof String s && s.length() <= ToolLimits.MAX_INSTRUCTION ? s : "",
                            Optional.empty())
                    .withMode(Mode.read(mode));
        }
        for (String key : args.keySet()) {
            if (!NAMES.contains(key)) throw new WireFormatException("unknown argument '" + key + "' for computer");
        }
        if (!(args.get("instruction") instanceof String instruction) || instruction.isBlank()) {
            throw new WireFormatException("instruction is required for computer (a non-empty string)");
        }
        if (instruction.length() > ToolLimits.MAX_INSTRUCTION) {
            throw new WireFormatException("instruction must be at most " + ToolLimits.MAX_INSTRUCTION + " characters");
        }
        try {
            List<Step> steps = args.containsKey("steps") ? StepParser.fromJson(args.get("steps")) : List.of();
            Optional<VerifierSpec> verifier = args.containsKey("verifier")
                    ? Optional.of(VerifierSpec.fromJson(args.get("verifier")))
                    : Optional.empty();
            Mode m = Mode.read(args.containsKey("mode") ? args.get("mode") : "default");
            return new RunRequest(
                    runId,
                    instruction,
                    steps,
                    verifier,
                    bounded(args, "maxSteps", ToolLimits.MAX_MAX_STEPS),
                    bounded(args, "timeoutSeconds", ToolLimits.MAX_TIMEOUT_SECONDS),
                    m);
        } catch (IllegalArgumentException e) {
            throw new WireFormatException(e.getMessage());
        }
    }

    /** An integer in 1..{@code max} ({@link ToolLimits}); the message names the argument and the range. */
    private static Optional<Integer> bounded(Map<String, ?> args, String name, int max) {
        if (!args.containsKey(name)) return Optional.empty();
        Object v = args.get(name);
        boolean integral = v instanceof Long
                || v instanceof Integer
                || v instanceof Short
                || v instanceof Byte
                || v instanceof BigInteger;
        if (!integral || ((Number) v).doubleValue() < 1 || ((Number) v).doubleValue() > max) {
            throw new WireFormatException(name + " must be an integer in 1.." + max);
        }
        return Optional.of(((Number) v).intValue());
    }
}

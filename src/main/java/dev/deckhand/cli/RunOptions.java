package dev.deckhand.cli;

import dev.deckhand.loop.ToolLimits;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The flags of {@code deckhand run} (docs/contract.md#the-command-line), read strictly: every error names the
 * flag (picocli, through {@link StrictFlags}). Pure: no I/O, so {@code Main} can check the usage before the server
 * starts.
 *
 * @param instruction what to do, in the person's words (required, non-blank)
 * @param windowId the X11 window id to grant ({@code --window 0x3a00007} or decimal), or empty
 * @param app the application (WM_CLASS class, any case) whose windows to grant, or empty;
 *     exactly one of {@code windowId} and {@code app} is present
 * @param verifierJson the {@code verifier} object as JSON text, or empty
 * @param stepsJson the {@code steps} array as JSON text, or empty
 * @param maxSteps lowers the policy's step cap, or empty
 * @param timeoutSeconds lowers the policy's wall clock, or empty
 * @param json print the tool's {@code structuredContent} JSON instead of the summary line
 */
public record RunOptions(
        String instruction,
        OptionalLong windowId,
        Optional<String> app,
        Optional<String> verifierJson,
        Optional<String> stepsJson,
        Optional<Integer> maxSteps,
        Optional<Integer> timeoutSeconds,
        boolean json) {

    /** A usage error: the message names the flag; the caller prints it with {@link #usage()} and exits 64. */
    public static final class UsageException extends RuntimeException {
        public UsageException(String message) {
            super(message, null, false, false);
        }
    }

    public RunOptions {
        Objects.requireNonNull(instruction, "instruction");
        if (instruction.isBlank()) throw new UsageException("--instruction must not be blank");
        if (instruction.length() > ToolLimits.MAX_INSTRUCTION) {
            throw new UsageException("--instruction must be at most " + ToolLimits.MAX_INSTRUCTION + " characters");
        }
        Objects.requireNonNull(windowId, "windowId");
        Objects.requireNonNull(app, "app");
        if (windowId.isPresent() == app.isPresent()) {
            throw new UsageException("exactly one of --app CLASS or --window ID is required");
        }
        Objects.requireNonNull(verifierJson, "verifierJson");
        Objects.requireNonNull(stepsJson, "stepsJson");
        Objects.requireNonNull(maxSteps, "maxSteps");
        Objects.requireNonNull(timeoutSeconds, "timeoutSeconds");
    }

    public static String usage() {
        return """
                usage: deckhand run --instruction TEXT (--app CLASS | --window ID) [--verifier JSON] [--steps JSON]
                                    [--max-steps N] [--timeout SECONDS] [--json]
                  --instruction TEXT   what to do (required)
                  --app CLASS          grant the windows of this application (WM_CLASS class, e.g. mousepad)
                  --window ID          grant this one window (X11 id, 0x3a00007 or decimal)
                  --verifier JSON      e.g. '{"kind":"file","path":"/tmp/x","contains":"hi"}' (required for input)
                  --steps JSON         explicit steps, e.g. '[{"action":"key","keys":"ctrl+s"}]' (no model)
                  --max-steps N        lower the policy's step cap
                  --timeout SECONDS    lower the policy's wall clock
                  --json               print the result as the computer tool's structuredContent JSON
                exit: 0 verifier passed, 1 verifier failed (or no verdict), 2 deny list fired or config missing,
                      3 headless / no usable display, 4 failed preflight, 5 no declared verifier, 6 a secret of Deckhand's on screen, 64 usage""";
    }

    /** The flags as picocli reads them; the values are checked by {@link #parse}. */
    @Command(name = "run")
    static final class Flags {
        @Option(names = "--instruction")
        String instruction;

        @Option(names = "--app")
        String app;

        @Option(names = "--window")
        String window;

        @Option(names = "--verifier")
        String verifier;

        @Option(names = "--steps")
        String steps;

        @Option(names = "--max-steps")
        String maxSteps;

        @Option(names = "--timeout")
        String timeout;
        /** An array: {@code --json} may be given more than once. */
        @Option(names = "--json")
        boolean[] json = {};
    }

    /** @param args the arguments after {@code run} */
    public static RunOptions parse(List<String> args) {
        Flags f = new Flags();
        StrictFlags.parse(f, args, UsageException::new);
        if (f.instruction == null) throw new UsageException("--instruction TEXT is required");
        if (f.app != null && f.app.isBlank()) throw new UsageException("--app needs a WM_CLASS, e.g. mousepad");
        Long window = f.window == null ? null : windowId(f.window);
        Integer maxSteps = f.maxSteps == null ? null : positive("--max-steps", f.maxSteps, ToolLimits.MAX_MAX_STEPS);
        Integer timeout = f.timeout == null ? null : positive("--timeout", f.timeout, ToolLimits.MAX_TIMEOUT_SECONDS);
        return new RunOptions(
                f.instruction,
                window == null ? OptionalLong.empty() : OptionalLong.of(window),
                Optional.ofNullable(f.app).map(String::trim),
                Optional.ofNullable(f.verifier),
                Optional.ofNullable(f.steps),
                Optional.ofNullable(maxSteps),
                Optional.ofNullable(timeout),
                f.json.length > 0);
    }

    private static long windowId(String value) {
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            long id = v.startsWith("0x") ? Long.parseUnsignedLong(v.substring(2), 16) : Long.parseLong(v);
            if (id <= 0) throw new NumberFormatException();
            return id;
        } catch (NumberFormatException e) {
            throw new UsageException(
                    "--window needs a positive X11 window id (0x3a00007 or decimal), was '" + value + "'");
        }
    }

    /** The computer tool's limit for the argument the flag sets ({@link ToolLimits}). */
    private static int positive(String flag, String value, int max) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n < 1 || n > max) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " needs a positive integer (1.." + max + "), was '" + value + "'");
        }
    }
}

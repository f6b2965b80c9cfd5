package dev.deckhand.presence;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs one external command within a bound (the presence commands: notification daemons, speech). */
public interface CommandRunner {

    /** @param exit the exit code; -1 when the command could not start or ran past its bound */
    record Result(int exit, String output) {
        public boolean ok() {
            return exit == 0;
        }
    }

    /** Never throws for the world: a command that is missing, fails or hangs is a {@link Result}. */
    Result run(List<String> argv, Duration bound);

    /**
     * Real processes: output and errors together, the first 4 KiB kept and the rest read and dropped while the
     * command runs; past the bound the process and its children end.
     */
    CommandRunner PROCESSES = processes(java.util.Map.of());

    /** How much of a command's output a {@link Result} keeps. */
    int OUTPUT_CAP = 4096;

    /** As {@link #PROCESSES}, with {@code environment} added to each command's environment. */
    static CommandRunner processes(java.util.Map<String, String> environment) {
        java.util.Map<String, String> env = java.util.Map.copyOf(environment);
        return (argv, bound) -> run(argv, bound, env);
    }

    private static Result run(List<String> argv, Duration bound, java.util.Map<String, String> environment) {
        Process p;
        try {
            ProcessBuilder pb = new ProcessBuilder(argv)
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().putAll(environment);
            p = pb.start();
        } catch (IOException | RuntimeException e) {
            return new Result(-1, "cannot start " + argv.get(0) + ": " + e.getMessage());
        }
        // Drained while the command runs: a pipe holds 64 KiB, and a command blocked on a full pipe would
        // otherwise sit there until its bound and be reported as hanging.
        OutputDrain drain = OutputDrain.start(p.getInputStream(), argv.get(0));
        long deadline = System.nanoTime() + bound.toNanos();
        try {
            if (!p.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                return new Result(-1, argv.get(0) + " ran past its bound of " + bound.toMillis() + " ms");
            }
            // A child the command left behind may hold the pipe open; what came within the bound is the output,
            // and the daemon drain ends when that child closes it.
            drain.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            return new Result(p.exitValue(), drain.kept());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return new Result(-1, "interrupted");
        }
    }
}

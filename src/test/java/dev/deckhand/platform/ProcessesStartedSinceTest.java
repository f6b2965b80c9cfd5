package dev.deckhand.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A command the granted app ran can outlive its grant wherever it runs: a child of the app, detached to a subreaper
 * (the CI runner is one), a {@code tmux} pane's shell, a job a {@code tmux} server started long before runs on request
 * (round 6). Every process started since the grant's first input is followed, whatever its parent; one started before
 * is not. Measured on real processes.
 */
@Tag("desktop")
class ProcessesStartedSinceTest {

    private static final String SUBREAPER = String.join(
            "\n",
            "import ctypes, os, sys",
            "if ctypes.CDLL(None).prctl(36, 1, 0, 0, 0) != 0: sys.exit(3)",
            "if os.fork() == 0: os.execvp('sh', ['sh', '-c', sys.argv[1]])",
            "while True:",
            "    try: os.wait()",
            "    except ChildProcessError: break");

    @Test
    void aCommandADetachedShellLeftBehindIsFoundUnderTheSubreaperThatAdoptedIt() throws Exception {
        Process before = new ProcessBuilder("sleep", "30").start();
        Process reaper = new ProcessBuilder(
                        "/usr/bin/python3", "-c", SUBREAPER, "sleep 1; (setsid sleep 30 &); exec sleep 60")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            ProcessHandle app = awaitChild(reaper.toHandle(), h -> true);
            long ticks = Processes.nowTicks() - 1;
            ProcessHandle orphan = awaitChild(reaper.toHandle(), h -> h.pid() != app.pid());
            Map<Integer, Long> started = Processes.startedSince(ticks);
            assertTrue(started.containsKey((int) orphan.pid()), "the adopted command is followed: " + started);
            assertEquals(Processes.start((int) orphan.pid()), started.get((int) orphan.pid()));
            assertFalse(started.containsKey((int) before.pid()), "a process started before");
            assertFalse(started.containsKey((int) ProcessHandle.current().pid()), "Deckhand's own process");
        } finally {
            end(reaper, before);
        }
    }

    /**
     * Round 5 (A2): the granted xterm ran a {@code tmux} client, and the command the agent typed ran in the pane's
     * shell, a descendant of the tmux server. Round 6: {@code tmux run-shell -b} has that server, started before the
     * grant, run the command with no terminal at all. Both are followed.
     */
    @Test
    void aCommandAServerStartedBeforeRunsOnRequestIsFollowed() throws Exception {
        String socket = "deckhand-test-" + ProcessHandle.current().pid();
        tmux(socket, "new-session", "-d", "sleep 60");
        try {
            // The tmux client returns once its server runs; the first pane's command may start after that.
            ProcessHandle first = awaitProcess(h -> h.info()
                    .arguments()
                    .map(a -> List.of(a).equals(List.of("60")))
                    .orElse(false));
            Thread.sleep(20);
            long ticks = Processes.nowTicks() - 1;
            Thread.sleep(20);
            tmux(socket, "run-shell", "-b", "exec sleep 31");
            tmux(socket, "new-window", "-d", "exec sleep 32");
            ProcessHandle job = awaitProcess(h -> h.info()
                    .arguments()
                    .map(a -> List.of(a).equals(List.of("31")))
                    .orElse(false));
            ProcessHandle pane = awaitProcess(h -> h.info()
                    .arguments()
                    .map(a -> List.of(a).equals(List.of("32")))
                    .orElse(false));
            Map<Integer, Long> started = Processes.startedSince(ticks);
            assertTrue(started.containsKey((int) job.pid()), "run-shell's job, no terminal: " + started);
            assertTrue(started.containsKey((int) pane.pid()), "a new pane's command: " + started);
            assertFalse(started.containsKey((int) first.pid()), "the server's first pane, started before");
        } finally {
            tmux(socket, "kill-server");
        }
    }

    /**
     * Round 7 (P1): the granted terminal's shell, started before the grant, took a line of builtins only
     * ({@code read -t 45 x <>fifo; read -r A <owner-token}) and read the token after the grant, starting nothing. The
     * granted app and its descendants that run when the grant ends are followed too.
     */
    @Test
    void theGrantedAppsOwnProcessesAreFollowed() throws Exception {
        Process app = new ProcessBuilder("sh", "-c", "sleep 30 & wait").start();
        try {
            ProcessHandle child = awaitChild(app.toHandle(), h -> true);
            Map<Integer, Long> running = Processes.runningUnder((int) app.pid());
            assertEquals(Processes.start((int) app.pid()), running.get((int) app.pid()), "the app: " + running);
            assertTrue(running.containsKey((int) child.pid()), "its child: " + running);
            assertFalse(running.containsKey((int) ProcessHandle.current().pid()), "not Deckhand's own process");
            assertTrue(Processes.runningUnder(-1).isEmpty(), "no app, nothing");
        } finally {
            end(app);
        }
    }

    /**
     * Round 6 (T1): a terminal whose session a {@code tmux} client leads (listed in {@code /etc/shells} on Debian) relays
     * every key to a pane where any program reads them: a program reads the keys, as with {@code xterm -e vim}.
     */
    @Test
    void aTerminalLedByAMultiplexersClientGivesItsKeysToAProgram() throws Exception {
        String socket = "deckhand-test-client-" + ProcessHandle.current().pid();
        ProcessBuilder pb = new ProcessBuilder(
                        "script",
                        "-q",
                        "-c",
                        "tmux -L " + socket + " -f /dev/null new-session 'bash --norc --noprofile -i'",
                        "/dev/null")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("SHELL", "/bin/bash");
        pb.environment().put("TERM", "xterm");
        Process terminal = pb.start();
        try {
            long deadline = System.nanoTime() + 10_000_000_000L;
            boolean reads = false;
            while (!reads && System.nanoTime() < deadline) {
                Thread.sleep(100);
                reads = terminal.descendants().findAny().isPresent()
                        && Processes.programReadsKeys((int) terminal.pid());
            }
            assertTrue(reads, "the tmux client leads the terminal's session");
        } finally {
            tmux(socket, "kill-server");
            end(terminal);
        }
    }

    private static void tmux(String socket, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("tmux", "-L", socket, "-f", "/dev/null"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb =
                new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("TERM", "xterm");
        Process p = pb.start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "tmux " + String.join(" ", args));
    }

    private static void end(Process... processes) {
        for (Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
    }

    private static ProcessHandle awaitProcess(Predicate<ProcessHandle> which) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            Optional<ProcessHandle> found = ProcessHandle.allProcesses()
                    .filter(h ->
                            h.info().command().map(c -> c.endsWith("/sleep")).orElse(false))
                    .filter(which)
                    .findFirst();
            if (found.isPresent()) return found.get();
            Thread.sleep(50);
        }
        throw new AssertionError("no such process within 10 s");
    }

    private static ProcessHandle awaitChild(ProcessHandle parent, Predicate<ProcessHandle> which)
            throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            Optional<ProcessHandle> child = parent.children().filter(which).findFirst();
            if (child.isPresent()) return child.get();
            Thread.sleep(50);
        }
        throw new AssertionError("no child of " + parent.pid() + " within 10 s");
    }
}

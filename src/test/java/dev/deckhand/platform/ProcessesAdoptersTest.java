package dev.deckhand.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A command that detached itself from the granted app is adopted by the nearest subreaper above it, not always by
 * init: the CI runner is one, as a user service manager is. Measured on real processes: a Python process makes itself
 * a subreaper ({@code prctl(PR_SET_CHILD_SUBREAPER)}) and runs a shell standing for the granted app, whose command
 * double-forks a {@code setsid sleep}; the sleep's parent is then the subreaper, and it must still count as started
 * under the app.
 */
@Tag("desktop")
class ProcessesAdoptersTest {

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
        Process reaper = new ProcessBuilder(
                        "/usr/bin/python3", "-c", SUBREAPER, "sleep 1; (setsid sleep 30 &); exec sleep 60")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        Process plain = new ProcessBuilder("sleep", "30").start();
        try {
            ProcessHandle app = awaitChild(reaper.toHandle(), h -> true);
            long ticks = Processes.nowTicks() - 1;
            Set<Integer> adopters = Processes.adopters((int) app.pid());
            assertTrue(adopters.contains((int) reaper.pid()), "the subreaper is above the app: " + adopters);
            assertFalse(adopters.contains((int) ProcessHandle.current().pid()), "Deckhand adopts nothing");

            ProcessHandle orphan = awaitChild(reaper.toHandle(), h -> h.pid() != app.pid());
            Map<Integer, Long> started = Processes.startedSinceUnder(ticks, (int) app.pid(), adopters);
            assertTrue(started.containsKey((int) orphan.pid()), "the adopted command is followed: " + started);
            assertEquals(Processes.start((int) orphan.pid()), started.get((int) orphan.pid()));
            assertFalse(started.containsKey((int) plain.pid()), "a process Deckhand's own process started before");
            assertFalse(
                    Processes.startedSinceUnder(ticks, (int) app.pid(), Set.of(1))
                            .containsKey((int) orphan.pid()),
                    "init alone would not have found it");
        } finally {
            for (Process p : List.of(reaper, plain)) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
            }
        }
    }

    /**
     * Round 5 of the review (A2): the granted xterm ran a {@code tmux} client, and the command the agent typed ran in
     * the pane's shell, a descendant of the tmux server, started long before the grant. A process started since then
     * on a terminal is followed wherever it descends from; a plain one Deckhand's process started is not.
     */
    @Test
    void aCommandOnATerminalIsFollowedWhateverItDescendsFrom() throws Exception {
        Process app = new ProcessBuilder("sleep", "30").start();
        long ticks = Processes.nowTicks() - 1;
        Process pane = new ProcessBuilder("script", "-q", "-c", "sleep 30", "/dev/null")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        Process plain = new ProcessBuilder("sleep", "30").start();
        try {
            ProcessHandle onTerminal = awaitChild(pane.toHandle(), h -> true);
            Map<Integer, Long> started =
                    Processes.startedSinceUnder(ticks, (int) app.pid(), Processes.adopters((int) app.pid()));
            assertTrue(started.containsKey((int) onTerminal.pid()), "the command on the terminal: " + started);
            assertFalse(started.containsKey((int) plain.pid()), "a plain process of Deckhand's: " + started);
        } finally {
            for (Process p : List.of(app, pane, plain)) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
            }
        }
    }

    private static ProcessHandle awaitChild(ProcessHandle parent, java.util.function.Predicate<ProcessHandle> which)
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

package dev.deckhand.platform;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Whether a process runs commands is read from {@code /proc}: it or a descendant holds a pseudo-terminal's
 * master side. Measured on real processes: {@code script} (which runs its command on a new pseudo-terminal, as
 * a terminal emulator does), a shell that started one, and a plain process as the control.
 */
@Tag("pure")
class ProcessesRunCommandsTest {

    private static Process start(String... command) throws Exception {
        Process p = new ProcessBuilder(List.of(command))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        Thread.sleep(400);
        return p;
    }

    @Test
    void aProcessHoldingAPtyMasterOrWithADescendantThatDoesRunsCommandsAPlainOneDoesNot() throws Exception {
        Process plain = start("sleep", "30");
        Process emulator = start("script", "-q", "-c", "sleep 30", "/dev/null");
        Process parent = start("sh", "-c", "script -q -c 'sleep 30' /dev/null; :");
        try {
            assertFalse(Processes.runsCommands((int) plain.pid()), "sleep holds no pseudo-terminal");
            assertTrue(Processes.runsCommands((int) emulator.pid()), "script holds /dev/ptmx");
            assertTrue(Processes.runsCommands((int) parent.pid()), "a descendant holds /dev/ptmx");
            assertTrue(Processes.runsCommands(-1), "an unknown process counts as one");
        } finally {
            for (Process p : List.of(plain, emulator, parent)) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
            }
        }
    }

    /**
     * Round 4 of the review (T1): a full-screen program in a granted terminal acts on letters. Measured on real
     * terminals ({@code script}, which runs its command as the leader of a new session on a pseudo-terminal, as a
     * terminal emulator does): an interactive bash at its prompt gives its keys to no program; once it runs a job
     * in the foreground it does, as does a session led by a program that is no shell of {@code /etc/shells}.
     */
    @Test
    void aProgramReadsATerminalsKeysWhenAJobHasTheForegroundOrTheSessionIsNoShell() throws Exception {
        Process plain = start("sleep", "30");
        // script runs its command with $SHELL -c: bash execs sleep, which then leads the session; dash keeps
        // itself as the leader, without job control, and runs sleep in its own group (CI's runner sets no SHELL)
        Process program = inTerminal("/bin/bash", "sleep 30");
        Process underSh = inTerminal("/bin/sh", "sleep 30");
        Process shell = inTerminal("/bin/bash", "bash --norc --noprofile -i");
        try {
            assertFalse(Processes.programReadsKeys((int) plain.pid()), "no terminal");
            assertTrue(awaitReadsKeys(program, true), "sleep leads the terminal's session");
            assertTrue(awaitReadsKeys(underSh, true), "sleep in the foreground group of sh -c");
            assertTrue(awaitReadsKeys(shell, false), "bash at its prompt");
            shell.getOutputStream().write("sleep 3\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            shell.getOutputStream().flush();
            assertTrue(awaitReadsKeys(shell, true), "bash runs sleep in the foreground");
            assertTrue(awaitReadsKeys(shell, false), "bash at its prompt again once sleep ended");
            assertFalse(Processes.programReadsKeys(-1), "an unknown process shows no terminal");
            // round 7: the shell's own read -n1 acts on one letter; its line read waits for Enter as the prompt does
            shell.getOutputStream()
                    .write("read -n1 -p '[y/N]' a\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            shell.getOutputStream().flush();
            assertTrue(awaitReadsKeys(shell, true), "bash's read -n1");
            shell.getOutputStream().write("nread a\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            shell.getOutputStream().flush();
            assertTrue(awaitReadsKeys(shell, false), "bash's read of a line");
        } finally {
            for (Process p : List.of(plain, program, underSh, shell)) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
            }
        }
    }

    /** {@code command} run by {@code script} on a new pseudo-terminal, with {@code shell} as its $SHELL. */
    private static Process inTerminal(String shell, String command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("script", "-q", "-c", command, "/dev/null")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("SHELL", shell);
        return pb.start();
    }

    /** Whether {@link Processes#programReadsKeys} answers {@code expected} for {@code p} within 10 s. */
    private static boolean awaitReadsKeys(Process p, boolean expected) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            // bash sets up its job control after it starts: asked once its prompt's session stands
            if (p.descendants().findAny().isPresent() && Processes.programReadsKeys((int) p.pid()) == expected)
                return true;
            Thread.sleep(100);
        }
        return false;
    }
}

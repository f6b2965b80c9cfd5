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
}

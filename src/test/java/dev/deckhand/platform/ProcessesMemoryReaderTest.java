package dev.deckhand.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Round 8 of the review (M1): a granted root terminal read both tokens out of the server's memory, which no watch of
 * the secret files sees. Whether a process of the granted app could is read from {@code /proc/PID/status} of real
 * processes: one running as root (this test's own user on CI), one under it, one as {@code nobody}, and the same
 * user as the server while the server is dumpable.
 */
@Tag("pure")
class ProcessesMemoryReaderTest {

    private static Process start(String... command) throws Exception {
        Process p = new ProcessBuilder(List.of(command))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        Thread.sleep(400);
        return p;
    }

    private static boolean root() throws Exception {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Uid:"))
                .anyMatch(l -> l.split("\\s+")[2].equals("0"));
    }

    private static void end(Process p) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
    }

    @Test
    void aProcessRunningAsRootOrAsTheServersUserWhileItIsDumpableCouldReadItsMemory() throws Exception {
        Process own = start("sleep", "30");
        Process parent = start("sh", "-c", "sleep 30; :");
        try {
            Optional<String> ownUser = Processes.memoryReader((int) own.pid(), true);
            assertTrue(ownUser.isPresent(), "the server's own user while it is dumpable");
            assertTrue(ownUser.get().contains("process " + own.pid()), ownUser.get());
            assertTrue(Processes.memoryReader(-1, false).isPresent(), "an unknown process counts as one");
            if (root()) {
                Optional<String> asRoot = Processes.memoryReader((int) own.pid(), false);
                assertEquals(
                        Optional.of("process " + own.pid() + " of the granted app runs as root and could read "
                                + "Deckhand's memory"),
                        asRoot);
                assertTrue(Processes.memoryReader((int) parent.pid(), false).isPresent(), "sh and its sleep");
                // round 9: root without the capability asks a root service that has it (a D-Bus activated one)
                Process dropped =
                        start("setpriv", "--bounding-set=-sys_ptrace", "--inh-caps=-sys_ptrace", "sleep", "30");
                try {
                    assertEquals(
                            Optional.of("process " + dropped.pid() + " of the granted app runs as root and could read "
                                    + "Deckhand's memory"),
                            Processes.memoryReader((int) dropped.pid(), false));
                } finally {
                    end(dropped);
                }
            } else {
                assertEquals(Optional.empty(), Processes.memoryReader((int) own.pid(), false), "not dumpable");
            }
        } finally {
            end(own);
            end(parent);
        }
    }

    @Test
    void anotherUsersProcessWithoutThePtraceCapabilityCouldNot() throws Exception {
        assumeTrue(root(), "starting a process as nobody needs root");
        Process nobody = start("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "30");
        Process nobodyWithCap = start(
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "--inh-caps=+sys_ptrace",
                "--ambient-caps=+sys_ptrace",
                "sleep",
                "30");
        try {
            assertEquals(Optional.empty(), Processes.memoryReader((int) nobody.pid(), true), "nobody, no capability");
            Optional<String> capable = Processes.memoryReader((int) nobodyWithCap.pid(), false);
            assertEquals(
                    Optional.of("process " + nobodyWithCap.pid() + " of the granted app holds CAP_SYS_PTRACE and could "
                            + "read Deckhand's memory"),
                    capable);
        } finally {
            end(nobody);
            end(nobodyWithCap);
        }
    }
}

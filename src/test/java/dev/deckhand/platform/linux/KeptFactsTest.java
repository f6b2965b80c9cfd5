package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.x11.OtherClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The policy facts are kept between reads while nothing changes, and read again for whatever
 * changes them — an app's accessibility event, a new top-level window, and (no event announces them) a
 * process that starts or another client's grab once the kept read is older than {@link KeptFacts#MAX_AGE}.
 * The fresh facts of the last check read the focus every time, and keep only the names and the host.
 */
@Tag("desktop")
class KeptFactsTest {

    @TempDir
    Path dir;

    @Test
    void keptWhileNothingChangesAndReadAgainForEachKindOfChange() throws Exception {
        TestApp.requireDesktop();
        Path file = Files.writeString(dir.resolve("kept.txt"), "kept facts\n");
        try (LinuxDesktop desktop = LinuxDesktop.open();
                TestApp mousepad = TestApp.launch(List.of("mousepad", file.toString()));
                OtherClient other = new OtherClient(System.getenv("DISPLAY"))) {
            long window = awaitWindow(desktop, "kept.txt");
            String editor = awaitEditor(desktop, window);

            assertTrue(
                    servedAgain(desktop),
                    "with no event, no new window and no time passed, the facts are served again");

            long reads = desktop.wholeFactsReads();
            desktop.setText(editor, "an event of the app");
            desktop.settle(Duration.ofSeconds(2));
            desktop.facts();
            assertTrue(desktop.wholeFactsReads() > reads, "the app's text event made the next read go to the desktop");

            DesktopFacts kept = desktop.facts();
            long foreign = other.solidWindow("no accessible app", 40, 40, 120, 80, 0x336699);
            assertTrue(
                    poll(() -> desktop.windows().stream().anyMatch(w -> w.id() == foreign)), "the X window is listed");
            DesktopFacts withWindow = desktop.facts();
            assertTrue(
                    withWindow.windows().stream().anyMatch(w -> w.id() == foreign),
                    "a new window, of an app that sends no accessibility event, is in the next read: "
                            + kept.windows());

            // a process with no window and no accessible app: nothing announces it, so it shows within the age bound
            Path probe = dir.resolve("keptprobe");
            Files.copy(Path.of("/bin/sleep"), probe, StandardCopyOption.COPY_ATTRIBUTES);
            Process p = new ProcessBuilder(probe.toString(), "30").start();
            try {
                Thread.sleep(KeptFacts.MAX_AGE.toMillis() + 50);
                assertTrue(
                        desktop.facts().runningApps().contains("keptprobe"),
                        "a process started without window is seen once the kept read is older than its bound");
            } finally {
                p.destroy();
                p.waitFor();
            }

            // the last check's read: the focus every time, the names and host kept while nothing changed
            desktop.settle(Duration.ofSeconds(2));
            desktop.facts();
            long before = desktop.wholeFactsReads();
            assertEquals(OtherClient.GRAB_SUCCESS, other.grabKeyboard(), "the other client takes the grab");
            try {
                assertTrue(
                        desktop.freshFacts().keyboardGrabbed(), "the fresh read sees a grab taken after the kept read");
            } finally {
                other.ungrabKeyboard();
            }
            assertEquals(before, desktop.wholeFactsReads(), "and kept the names and the host");
        }
    }

    /** Two reads in a row, the second served again; a few tries, for a machine so loaded that one read outlasts the bound. */
    private static boolean servedAgain(LinuxDesktop desktop) {
        for (int i = 0; i < 5; i++) {
            desktop.settle(Duration.ofSeconds(2));
            DesktopFacts first = desktop.facts();
            long reads = desktop.wholeFactsReads();
            DesktopFacts second = desktop.facts();
            if (desktop.wholeFactsReads() == reads) {
                assertEquals(first, second, "served again means the same facts");
                return true;
            }
        }
        return false;
    }

    private static boolean poll(BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (condition.getAsBoolean()) return true;
            Thread.sleep(50);
        }
        return false;
    }

    private static long awaitWindow(LinuxDesktop desktop, String title) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            for (WindowInfo w : desktop.windows()) {
                if (w.title().contains(title) && w.visible()) return w.id();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no window titled " + title + " within 30 s");
    }

    private static String awaitEditor(LinuxDesktop desktop, long window) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            try {
                ScopedTree t = desktop.snapshot(window, 1);
                var ed = t.nodes().stream()
                        .filter(n -> n.role().equals("text") && n.editable())
                        .findFirst()
                        .map(Node::uid);
                if (ed.isPresent()) return ed.get();
            } catch (dev.deckhand.grant.RefusedException notYet) {
                // the app registers on the accessibility bus a little after its window maps
            }
            Thread.sleep(100);
        }
        throw new AssertionError("mousepad's editor did not appear within 30 s");
    }
}

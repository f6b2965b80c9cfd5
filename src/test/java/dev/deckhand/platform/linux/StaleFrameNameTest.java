package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.TestApp;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Round 16's B1: two FeatherPad (Qt 5) windows of one process, both "Untitled". Qt announces no retitle, so libatspi
 * kept each frame's first name; once the granted window's title went back to "Untitled" and the other's became
 * "*Untitled", the cached names picked the other window, and a step read and wrote it. A frame found by a cached name
 * is now asked its name before it is used.
 */
@Tag("desktop")
class StaleFrameNameTest {

    private static final long REVISION = 1;

    @Test
    void aFrameFoundByAStaleCachedNameIsNotTheGrantedWindow() throws Exception {
        TestApp.requireDesktop();
        try (LinuxDesktop desktop = LinuxDesktop.open();
                TestApp app = TestApp.launch(List.of("featherpad"))) {
            WindowInfo first = await(desktop, app, 1).get(0);
            run("featherpad", "-w");
            List<WindowInfo> both = await(desktop, app, 2);
            WindowInfo granted = both.get(0);
            WindowInfo other = both.get(1);
            assertEquals(first.id(), granted.id(), "the first window is the granted one");
            typeIn(granted, "draft");
            awaitTitle(desktop, granted, "*Untitled");
            desktop.snapshot(granted.id(), REVISION); // libatspi caches both frames' names now
            run("xdotool", "windowactivate", "--sync", Long.toString(granted.id()), "key", "ctrl+z");
            awaitTitle(desktop, granted, "Untitled");
            typeIn(other, "PERSON-PRIVATE");
            awaitTitle(desktop, other, "*Untitled");
            ScopedTree t = desktop.snapshot(granted.id(), REVISION);
            boolean readOther =
                    t.nodes().stream().map(Node::value).anyMatch(v -> v != null && v.contains("PERSON-PRIVATE"));
            assertFalse(readOther, "the granted window's read shows the other window's text");
            assertTrue(t.nodes().stream().anyMatch(n -> "text".equals(n.role())), "the granted window's editor");
        }
    }

    private static void typeIn(WindowInfo w, String text) throws Exception {
        run("xdotool", "windowactivate", "--sync", Long.toString(w.id()), "type", "--delay", "20", text);
    }

    private static void awaitTitle(LinuxDesktop desktop, WindowInfo w, String title) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (desktop.windows().stream()
                    .anyMatch(i -> i.id() == w.id() && i.title().equals(title))) return;
            Thread.sleep(50);
        }
        throw new AssertionError("window 0x" + Long.toHexString(w.id()) + " never titled " + title);
    }

    private static List<WindowInfo> await(LinuxDesktop desktop, TestApp app, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            List<WindowInfo> mine = desktop.windows().stream()
                    .filter(w -> w.pid() == app.pid() && w.visible())
                    .sorted(java.util.Comparator.comparingLong(WindowInfo::id))
                    .toList();
            if (mine.size() >= count && mine.stream().allMatch(w -> w.title().equals("Untitled"))) {
                Thread.sleep(1000); // the second window's tree on the bus
                return mine;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(count + " FeatherPad windows titled Untitled; log: " + app.log());
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly();
    }
}

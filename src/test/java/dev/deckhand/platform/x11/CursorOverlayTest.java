package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.CursorDesktop;
import dev.deckhand.platform.linux.LinuxDesktop;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The drawn cursor (docs/presence.md#the-drawn-cursor), in the virtual desktop with a real GTK app (a yad dialog with one button):
 * a series of screen reads shows the cursor travelling to the button and pressing it while the real
 * pointer never moves; a click on the overlay's area reaches the button underneath; the window capture
 * the model would get never contains the overlay.
 */
@Tag("desktop")
class CursorOverlayTest {

    private static final String TITLE = "Cursor target";
    private static final int BUTTON_EXIT = 7;

    private static Process yad(TestApps apps) throws Exception {
        return apps.start(
                "yad",
                "yad",
                "--title",
                TITLE,
                "--width",
                "420",
                "--height",
                "200",
                "--text",
                "The drawn cursor presses the button below.",
                "--button",
                "Press me:" + BUTTON_EXIT);
    }

    private static Node button(LinuxDesktop desktop, WindowInfo w) {
        for (int i = 0; i < 100; i++) {
            ScopedTree tree = desktop.snapshot(w.id(), 1);
            for (Node n : tree.nodes()) {
                if (n.role().equals("push button")
                        && n.name().contains("Press me")
                        && n.bounds() != null
                        && n.bounds().width() > 0) return n;
            }
            TestApps.sleep(100);
        }
        throw new AssertionError("yad's button did not appear in the tree");
    }

    /** How many pixels of {@code img} in the area have exactly {@code rgb}; and their mean position. */
    private static double[] find(RgbImage img, int rgb) {
        long n = 0, sx = 0, sy = 0;
        for (int y = 0; y < img.height; y++) {
            for (int x = 0; x < img.width; x++) {
                if (img.rgb(x, y) == (rgb & 0xffffff)) {
                    n++;
                    sx += x;
                    sy += y;
                }
            }
        }
        return n == 0 ? new double[] {0, -1, -1} : new double[] {n, (double) sx / n, (double) sy / n};
    }

    @Test
    void travelsToTheButtonAndPressesItWhileTheRealPointerStays() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                ScreenReader screen = new ScreenReader(display);
                LinuxDesktop desktop = LinuxDesktop.open()) {
            Process yad = yad(apps);
            WindowInfo w = TestApps.awaitWindow(desktop.x11(), x -> x.title().equals(TITLE), "yad");
            Node button = button(desktop, w);
            int bx = button.bounds().centerX(), by = button.bounds().centerY();
            int[] pointer = screen.pointer();
            CursorOverlay overlay = CursorOverlay.start(
                    System.getenv(),
                    new CursorOverlay.Timing(Duration.ofMillis(900), Duration.ofMillis(500), Duration.ofSeconds(5)));
            try {
                assertTrue(overlay.window(Duration.ofSeconds(5)).isPresent(), "the overlay window was created");
                Desktop shown = CursorDesktop.over(desktop.desktop(), overlay, () -> {});
                // As the loop does: read the tree through the cursor desktop and act on a uid from it.
                String uid = shown.trees().snapshot(w.id(), 1).nodes().stream()
                        .filter(n -> n.role().equals("push button") && n.name().contains("Press me"))
                        .findFirst()
                        .orElseThrow()
                        .uid();
                List<RgbImage> frames = new ArrayList<>();
                List<int[]> pointers = new ArrayList<>();
                AtomicBoolean done = new AtomicBoolean();
                Thread recorder = new Thread(() -> {
                    while (!done.get()) {
                        frames.add(screen.screen());
                        pointers.add(screen.pointer());
                        TestApps.sleep(60);
                    }
                });
                recorder.start();
                TestApps.sleep(150);
                long t0 = System.nanoTime();
                shown.showing().showElement(uid, true); // the loop's travel step, then (after its last check) the click
                shown.showing().awaitShown();
                shown.input().click(uid);
                long clickMillis = (System.nanoTime() - t0) / 1_000_000;
                TestApps.sleep(700);
                done.set(true);
                recorder.join();
                assertTrue(yad.waitFor(10, java.util.concurrent.TimeUnit.SECONDS), "yad ended after the press");
                assertEquals(BUTTON_EXIT, yad.exitValue(), "the button was pressed");

                Path out = Files.createDirectories(Path.of("target", "presence-frames"));
                List<double[]> positions = new ArrayList<>();
                int pressedFrames = 0;
                for (int i = 0; i < frames.size(); i++) {
                    RgbImage f = frames.get(i);
                    double[] fill = find(f, CursorArt.FILL);
                    double[] ring = find(f, CursorArt.RING);
                    if (fill[0] > 20) positions.add(fill);
                    if (ring[0] > 40 && Math.abs(ring[1] - bx) < 20 && Math.abs(ring[2] - by) < 20) pressedFrames++;
                    Files.write(out.resolve(String.format("frame-%02d.png", i)), f.png());
                }
                System.out.printf(
                        "cursor series: %d frames, %d with the cursor, %d pressed; click call %d ms; "
                                + "pointer stayed at %d,%d%n",
                        frames.size(), positions.size(), pressedFrames, clickMillis, pointer[0], pointer[1]);
                assertTrue(positions.size() >= 5, "the cursor shows in several frames: " + positions.size());
                double[] firstSeen = positions.get(0), last = positions.get(positions.size() - 1);
                double startDist = Math.hypot(firstSeen[1] - bx, firstSeen[2] - by);
                double endDist = Math.hypot(last[1] - bx, last[2] - by);
                assertTrue(startDist > 60, "it starts away from the button: " + startDist);
                assertTrue(endDist < 30, "it ends on the button: " + endDist);
                long distinct = positions.stream()
                        .map(p -> Math.round(p[1]) + "," + Math.round(p[2]))
                        .distinct()
                        .count();
                assertTrue(distinct >= 3, "it travels through several places: " + distinct);
                assertTrue(pressedFrames >= 1, "a frame shows the press ring on the button");
                for (int[] p : pointers) assertArrayEquals(pointer, p, "the real pointer never moved");
                assertArrayEquals(pointer, screen.pointer(), "the real pointer never moved");
            } finally {
                overlay.close();
            }
        }
    }

    @Test
    void clicksOnTheOverlayReachTheAppAndCapturesNeverContainIt() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                ScreenReader screen = new ScreenReader(display);
                LinuxDesktop desktop = LinuxDesktop.open()) {
            Process yad = yad(apps);
            WindowInfo w = TestApps.awaitWindow(desktop.x11(), x -> x.title().equals(TITLE), "yad");
            Node button = button(desktop, w);
            int bx = button.bounds().centerX(), by = button.bounds().centerY();
            CursorOverlay overlay = CursorOverlay.start(
                    System.getenv(),
                    new CursorOverlay.Timing(Duration.ofMillis(100), Duration.ofMillis(0), Duration.ofSeconds(30)));
            try {
                long ow = overlay.window(Duration.ofSeconds(5)).orElseThrow();
                overlay.pointAt(bx, by, false);
                TestApps.sleep(200);
                int px = bx + 2, py = by + 6; // inside the arrow's fill
                RgbImage seen = screen.screen();
                assertEquals(CursorArt.FILL & 0xffffff, seen.rgb(px, py), "the overlay is drawn at the click point");

                // It is Deckhand's own window and in no window list (never grantable).
                assertTrue(desktop.x11().windows().stream().noneMatch(x -> x.id() == ow), "overlay is not listed");
                assertTrue(desktop.x11().window(ow).orElseThrow().own(), "overlay is Deckhand's own window");

                // The capture the model would get: the granted window's pixels only.
                Capture capture = desktop.capture(w.id(), 1, 4096);
                BufferedImage img = ImageIO.read(new ByteArrayInputStream(capture.image()));
                int overlayPixels = 0;
                for (int y = 0; y < img.getHeight(); y++) {
                    for (int x = 0; x < img.getWidth(); x++) {
                        int rgb = img.getRGB(x, y) & 0xffffff;
                        if (rgb == (CursorArt.FILL & 0xffffff) || rgb == (CursorArt.RING & 0xffffff)) overlayPixels++;
                    }
                }
                double onScreen = find(seen, CursorArt.FILL)[0];
                System.out.printf(
                        "overlay: %.0f cursor pixels on screen, %d in the window capture%n", onScreen, overlayPixels);
                assertTrue(onScreen > 50, "the cursor is on screen while captured");
                assertEquals(0, overlayPixels, "the window capture holds no overlay pixel");
                // Through the presence desktop the overlay is also taken off the screen before a capture.
                CursorDesktop.over(desktop.desktop(), overlay, () -> {})
                        .captures()
                        .capture(w.id(), 1, 4096);
                assertEquals(0.0, find(screen.screen(), CursorArt.FILL)[0], "hidden before a capture");
                overlay.pointAt(bx, by, false);
                TestApps.sleep(200);
                assertEquals(CursorArt.FILL & 0xffffff, screen.screen().rgb(px, py), "shown again");

                TestApps.run("xdotool", "mousemove", "3", "3"); // start away from the overlay
                // A real click (XTEST through xdotool, allowed here: a private virtual desktop) on the overlay.
                assertEquals(
                        0, TestApps.run("xdotool", "mousemove", String.valueOf(px), String.valueOf(py), "click", "1"));
                assertTrue(yad.waitFor(10, java.util.concurrent.TimeUnit.SECONDS), "the click reached yad");
                assertEquals(BUTTON_EXIT, yad.exitValue(), "the click on the overlay pressed the button underneath");
                assertFalse(overlay.broken(), "the overlay kept drawing");
            } finally {
                overlay.close();
            }
        }
    }

    @Test
    void aDisplayThatCannotBeOpenedLeavesTheCursorANoOp() {
        CursorOverlay overlay = CursorOverlay.start(
                Map.of("DISPLAY", ":9999"),
                new CursorOverlay.Timing(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofSeconds(1)));
        try {
            assertTrue(overlay.window(Duration.ofSeconds(5)).isEmpty());
            assertTrue(overlay.broken());
            long t0 = System.nanoTime();
            overlay.pointAt(10, 10, true);
            overlay.hide();
            assertTrue(System.nanoTime() - t0 < Duration.ofMillis(50).toNanos(), "a broken cursor returns at once");
        } finally {
            overlay.close();
        }
    }
}

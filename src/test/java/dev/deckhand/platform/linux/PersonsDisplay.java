package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.x11.X11Display;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import javax.imageio.ImageIO;

/**
 * The private virtual desktop played as a person's own display: a {@link LinuxDesktop} opened without
 * {@code DECKHAND_PRIVATE_DESKTOP}, so XTEST is never its way, and an xmessage window where the person works (the
 * active window, the real pointer resting in it). {@link #clickAt} clicks as the loop does and checks that the
 * real pointer and the active window stayed where the person had them.
 */
final class PersonsDisplay implements AutoCloseable {

    final LinuxDesktop desktop;
    private final TestApp xmessage;
    final long personsWindow;

    PersonsDisplay() throws Exception {
        TestApp.requireDesktop();
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove(X11Display.PRIVATE_DESKTOP_ENV);
        desktop = LinuxDesktop.open(System::nanoTime, env);
        xmessage = TestApp.launch(List.of("xmessage", "-geometry", "+900+650", "the person works here"));
        personsWindow = await(w -> w.app().equalsIgnoreCase("xmessage")).id();
    }

    /** The first visible window {@code which} accepts, within 60 s. */
    WindowInfo await(Predicate<WindowInfo> which) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            for (WindowInfo w : desktop.windows()) if (w.visible() && which.test(w)) return w;
            Thread.sleep(100);
        }
        throw new AssertionError("no such window within 60 s; windows: " + desktop.windows());
    }

    /** The person activates their xmessage window and rests the pointer in it (xdotool: the person's hand). */
    void personWorksElsewhere() throws Exception {
        activate(personsWindow);
        run("xdotool", "mousemove", "1000", "700");
    }

    /** The person makes {@code window} the active one. */
    void activate(long window) throws Exception {
        run("xdotool", "windowactivate", "--sync", Long.toString(window));
        poll(
                () -> desktop.x11().topLevelOf(desktop.x11().activeWindow())
                        == desktop.x11().topLevelOf(window),
                10_000,
                "window 0x" + Long.toHexString(window) + " is active");
    }

    /** A capture at full size (scale 1): its pixels are the window's. */
    Capture capture(long window) {
        Capture c = desktop.capture(window, 1, 4096);
        assertEquals(1.0, c.basis().scale(), "a full-size capture");
        return c;
    }

    /**
     * {@code click_at} at window point {@code (x, y)} through the driver, as the loop delivers it, against a fresh
     * capture's basis; then the real pointer and the active window are what they were (read with
     * {@code XQueryPointer} and {@code _NET_ACTIVE_WINDOW} before and half a second after).
     */
    void clickAt(long window, int x, int y) throws InterruptedException {
        Capture c = capture(window);
        int[] pointer = desktop.x11().pointerPosition();
        long active = desktop.x11().activeWindow();
        try {
            desktop.clickAt(x, y, c.basis());
        } finally {
            Thread.sleep(500);
            assertArrayEquals(pointer, desktop.x11().pointerPosition(), "the real pointer did not move");
            assertEquals(active, desktop.x11().activeWindow(), "the active window did not change");
        }
    }

    static BufferedImage image(Capture c) throws IOException {
        return ImageIO.read(new ByteArrayInputStream(c.image()));
    }

    /** How many pixels differ between two captures of one window inside the rectangle. */
    static int changed(BufferedImage a, BufferedImage b, int x, int y, int w, int h) {
        int n = 0;
        for (int j = y; j < Math.min(y + h, Math.min(a.getHeight(), b.getHeight())); j++) {
            for (int i = x; i < Math.min(x + w, Math.min(a.getWidth(), b.getWidth())); i++) {
                if ((a.getRGB(i, j) & 0xffffff) != (b.getRGB(i, j) & 0xffffff)) n++;
            }
        }
        return n;
    }

    static void poll(BooleanSupplier done, long millis, String what) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < deadline) {
            if (done.getAsBoolean()) return;
            Thread.sleep(100);
        }
        assertTrue(done.getAsBoolean(), what + " (within " + millis + " ms)");
    }

    static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), String.join(" ", command) + " finished");
    }

    /** The canvas test app (GTK 3, python3-gi) from the test resources. */
    static Path canvasApp() {
        try {
            return Path.of(PersonsDisplay.class
                    .getResource("/dev/deckhand/apps/canvas_app.py")
                    .toURI());
        } catch (java.net.URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            xmessage.close();
        } finally {
            desktop.close();
        }
    }
}

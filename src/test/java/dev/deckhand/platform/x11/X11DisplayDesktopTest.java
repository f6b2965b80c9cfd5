package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.WindowInfo;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The X11 half against real apps on the private virtual desktop (scripts/desktop.sh): mousepad
 * (GTK3), FeatherPad (Qt5), and solid-colour windows of a second X client.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("desktop")
class X11DisplayDesktopTest {

    /** Characters the default Xvfb "us" layout lacks, so typing them exercises the spare keycodes. */
    static final String UTF8_TEXT = "Grüße, naïve café – 日本語 ✓ ok\nsecond line: a+b=c & (x) {y} ~!@#$%^*_|\\\"'<>?/";

    String display;
    TestApps apps;
    X11Display x;
    OtherClient other;
    Process mousepad;
    Path mousepadFile;
    WindowInfo mousepadWindow;
    Process featherpad;
    Path featherpadFile;
    WindowInfo featherpadWindow;

    @BeforeAll
    void startApps() throws Exception {
        display = TestApps.requireDisplay();
        apps = new TestApps();
        x = X11Display.open();
        other = new OtherClient(display);
        mousepadFile = Files.writeString(apps.home().resolve("mousepad-note.txt"), "");
        featherpadFile = Files.writeString(apps.home().resolve("featherpad-note.txt"), "");
        mousepad = apps.start("mousepad", "mousepad", mousepadFile.toString());
        featherpad = apps.start("featherpad", "featherpad", featherpadFile.toString());
        mousepadWindow = TestApps.awaitWindow(x, w -> w.title().contains("mousepad-note"), "mousepad");
        featherpadWindow = TestApps.awaitWindow(x, w -> w.title().contains("featherpad-note"), "featherpad");
    }

    @AfterAll
    void stopApps() {
        if (other != null) other.close();
        if (x != null) x.close();
        if (apps != null) apps.close();
    }

    @Test
    void windowsListsRealAppsWithClassPidAndGeometry() {
        List<WindowInfo> all = x.windows();
        WindowInfo m = all.stream()
                .filter(w -> w.id() == mousepadWindow.id())
                .findFirst()
                .orElseThrow();
        WindowInfo f = all.stream()
                .filter(w -> w.id() == featherpadWindow.id())
                .findFirst()
                .orElseThrow();
        assertEquals("Mousepad", m.app());
        assertEquals(mousepad.pid(), m.pid(), "mousepad's _NET_WM_PID");
        assertEquals("FeatherPad", f.app());
        assertEquals(featherpad.pid(), f.pid(), "featherpad's _NET_WM_PID");
        for (WindowInfo w : List.of(m, f)) {
            assertTrue(w.visible(), w + " visible");
            assertFalse(w.minimised(), w + " minimised");
            assertFalse(w.own(), w + " own");
            assertTrue(w.geometry().width() > 100 && w.geometry().height() > 100, w + " has a real size");
            assertTrue(x.screen().contains(w.geometry().x(), w.geometry().y()), w + " origin on screen");
        }
        for (int i = 0; i < all.size(); i++) assertEquals(i, all.get(i).stacking(), "stacking is bottom-to-top order");
        assertEquals(x.geometry(m.id()), m.geometry(), "windows() geometry equals a fresh measure");
    }

    @Test
    void ownWindowByTitleMarker() {
        long w =
                other.solidWindow("Settings " + X11Display.OWN_WINDOW_MARKER + " - Browser", 20, 20, 120, 80, 0x808080);
        try {
            WindowInfo info = TestApps.awaitWindow(x, i -> i.id() == w, "marked window");
            assertTrue(info.own(), "title with the marker is Deckhand's own");
            // no _NET_WM_PID on a bare Xlib window: the X server names its client's process (XRes), this JVM
            assertEquals(ProcessHandle.current().pid(), info.pid(), "the pid of the window's X client");
        } finally {
            other.destroy(w);
        }
    }

    /** The person activates {@code window} (xdotool as the external actor), retried while the WM settles. */
    private void activate(long window) {
        long top = x.topLevelOf(window);
        assertTrue(
                TestApps.await(
                        () -> {
                            TestApps.run("xdotool", "windowactivate", "--sync", Long.toString(window));
                            return TestApps.await(() -> x.focusedTopLevel() == top, Duration.ofSeconds(1));
                        },
                        Duration.ofSeconds(10)),
                "window 0x" + Long.toHexString(window) + " (top-level 0x" + Long.toHexString(top)
                        + ") got the focus; focus is on 0x" + Long.toHexString(x.focusedTopLevel()));
    }

    /** Another client's window takes the focus, as a person's other work would. */
    private long focusElsewhere(String title) {
        long thief = other.solidWindow(title, 1100, 650, 120, 100, 0x202020);
        TestApps.awaitWindow(x, i -> i.id() == thief, title);
        activate(thief);
        return thief;
    }

    @Test
    void typesUtf8IntoUnfocusedGtk3MousepadAndSavesWithChord() {
        long thief = focusElsewhere("thief-gtk");
        try {
            long focusBefore = x.focusedTopLevel();
            typeLines(x, mousepadWindow.id(), UTF8_TEXT);
            x.key(mousepadWindow.id(), dev.deckhand.grant.Chord.parse("ctrl+s"));
            assertTrue(
                    TestApps.await(() -> TestApps.read(mousepadFile).equals(UTF8_TEXT), Duration.ofSeconds(10)),
                    "mousepad saved exactly the typed text; file has: " + TestApps.read(mousepadFile));
            assertEquals(focusBefore, x.focusedTopLevel(), "typing never moved the focus");
        } finally {
            other.destroy(thief);
        }
    }

    /**
     * Qt5 puts synthetic key events into the focused widget of an inactive window, so text arrives,
     * but its shortcuts (QAction, e.g. ctrl+s) fire only in the active window: the chord is sent
     * after the person activates FeatherPad.
     */
    @Test
    void typesUtf8IntoUnfocusedQt5FeatherpadAndSavesWithChordOnceActive() {
        long thief = focusElsewhere("thief-qt");
        try {
            long focusBefore = x.focusedTopLevel();
            typeLines(x, featherpadWindow.id(), UTF8_TEXT);
            assertTrue(
                    TestApps.await(
                            () -> x.window(featherpadWindow.id())
                                    .orElseThrow()
                                    .title()
                                    .startsWith("*"),
                            Duration.ofSeconds(10)),
                    "featherpad marks its document modified while inactive");
            assertEquals(focusBefore, x.focusedTopLevel(), "typing never moved the focus");
        } finally {
            other.destroy(thief);
        }
        activate(featherpadWindow.id());
        // Qt learns it is active a moment after the X focus moves; saving twice is harmless, so repeat
        // the chord (bounded) until the file shows the text.
        assertTrue(
                TestApps.await(
                        () -> {
                            if (TestApps.read(featherpadFile).strip().equals(UTF8_TEXT)) return true;
                            x.key(featherpadWindow.id(), dev.deckhand.grant.Chord.parse("ctrl+s"));
                            TestApps.sleep(300);
                            return TestApps.read(featherpadFile).strip().equals(UTF8_TEXT);
                        },
                        Duration.ofSeconds(10)),
                "featherpad saved exactly the typed text; file has: " + TestApps.read(featherpadFile));
    }

    /**
     * A capture at full size is the window's exact pixels with its basis; a smaller long edge
     * downscales and says so in the basis' scale; JPEG is offered here (the port asks for PNG). That
     * a half-covered window still captures its own pixels is shown through the port against real
     * apps, in {@code platform.linux.DesktopContract}.
     */
    @Test
    void captureKeepsEveryPixelAtFullSizeAndDownscalesToTheLongEdge() throws Exception {
        int blue = 0x0000ff;
        long w = other.solidWindow("capture-blue", 100, 150, 400, 300, blue);
        try {
            TestApps.awaitWindow(x, i -> i.id() == w, "blue window");
            Geometry bg = x.geometry(w);
            Capture c = x.capture(w, 7, 2000, "png");
            BufferedImage img = ImageIO.read(new ByteArrayInputStream(c.image()));
            assertEquals(bg.width(), img.getWidth());
            assertEquals(bg.height(), img.getHeight());
            int wrong = 0;
            for (int y = 0; y < img.getHeight(); y++) {
                for (int xx = 0; xx < img.getWidth(); xx++) if ((img.getRGB(xx, y) & 0xffffff) != blue) wrong++;
            }
            assertEquals(0, wrong, "every captured pixel is the window's blue");
            assertTrue(x.compositeCapture());
            assertEquals(new Basis(7, w, bg, 1.0), c.basis());

            Capture small = x.capture(w, 7, 200, "jpeg");
            assertEquals("image/jpeg", small.mediaType());
            assertEquals(200, Math.max(small.width(), small.height()));
            assertEquals(
                    200.0 / Math.max(bg.width(), bg.height()), small.basis().scale(), 1e-9);
            BufferedImage j = ImageIO.read(new ByteArrayInputStream(small.image()));
            int centre = j.getRGB(j.getWidth() / 2, j.getHeight() / 2);
            assertTrue(
                    ((centre >> 16) & 0xff) < 40 && (centre & 0xff) > 200,
                    "jpeg centre is blue: " + Integer.toHexString(centre));
        } finally {
            other.destroy(w);
        }
    }

    @Test
    void captureIncludesTheWindowsOwnOpenMenu() throws Exception {
        long id = mousepadWindow.id();
        long top = x.topLevelOf(id);
        activate(id);
        x.key(id, dev.deckhand.grant.Chord.parse("alt+f"));
        try {
            assertTrue(
                    TestApps.await(() -> !x.popupsOver(id, top).isEmpty(), Duration.ofSeconds(5)),
                    "the File menu opened");
            long menu = x.popupsOver(id, top).get(0);
            TestApps.sleep(300); // let the menu paint before comparing pixels
            Geometry wg = x.geometry(id), mg = x.geometry(menu);
            RgbImage menuPixels = x.grab(menu);
            BufferedImage img = ImageIO.read(
                    new ByteArrayInputStream(x.capture(id, 1, 4000, "png").image()));
            int x0 = Math.max(wg.x(), mg.x()), y0 = Math.max(wg.y(), mg.y());
            int x1 = Math.min(wg.x() + wg.width(), mg.x() + mg.width()),
                    y1 = Math.min(wg.y() + wg.height(), mg.y() + mg.height());
            assertTrue(x1 - x0 > 20 && y1 - y0 > 20, "the menu overlaps the window: " + mg + " / " + wg);
            int differ = 0;
            for (int yy = y0; yy < y1; yy++) {
                for (int xx = x0; xx < x1; xx++) {
                    if ((img.getRGB(xx - wg.x(), yy - wg.y()) & 0xffffff) != menuPixels.rgb(xx - mg.x(), yy - mg.y()))
                        differ++;
                }
            }
            assertEquals(0, differ, "the capture shows the menu's own pixels where it overlaps the window");
        } finally {
            x.key(id, dev.deckhand.grant.Chord.parse("Escape"));
        }
        assertTrue(TestApps.await(() -> x.popupsOver(id, top).isEmpty(), Duration.ofSeconds(5)), "the menu closed");
    }

    private int stackOf(long id) {
        return x.windows().stream()
                .filter(w -> w.id() == id)
                .mapToInt(WindowInfo::stacking)
                .findFirst()
                .orElse(-1);
    }

    /**
     * XTEST keys while another client holds a keyboard grab would go to that client: refused. That
     * the grab shows in the facts, and is gone after release, is shown through the port in
     * {@code platform.linux.DesktopContract}.
     */
    @Test
    void xtestKeysAreRefusedWhileAnotherClientHoldsAGrab() {
        assertEquals(Xlib.GrabSuccess, other.grabKeyboard());
        try {
            RefusedException e = assertThrows(
                    RefusedException.class, () -> x.xtestKey(mousepadWindow.id(), dev.deckhand.grant.Chord.parse("a")));
            assertEquals(RefusalCode.SECURE_INPUT, e.code());
        } finally {
            other.ungrabKeyboard();
        }
    }

    @Test
    void vanishedWindowIsRefusedNotACrash() {
        long w = other.solidWindow("doomed", 700, 100, 150, 100, 0xffff00);
        TestApps.awaitWindow(x, i -> i.id() == w, "doomed");
        Capture c = x.capture(w, 1, 100, "png");
        other.destroy(w);
        for (Runnable call : List.<Runnable>of(
                () -> x.capture(w, 1, 100, "png"),
                () -> x.key(w, dev.deckhand.grant.Chord.parse("ctrl+a")),
                () -> x.type(w, "hi"),
                () -> x.geometry(w))) {
            RefusedException e = assertThrows(RefusedException.class, call::run);
            assertEquals(RefusalCode.PREFLIGHT_FAILED, e.code(), e.getMessage());
        }
        assertFalse(x.basisValid(c.basis()));
        assertFalse(x.windows().stream().anyMatch(i -> i.id() == w));
        // A made-up id never seen on this server: a BadWindow the error handler must swallow.
        assertThrows(RefusedException.class, () -> x.geometry(0x7ffffff0L));
        assertTrue(x.windows().size() >= 2, "the connection still works after the errors");
    }

    @Test
    void clickAtOnPrivateDesktopLandsOnTheWindow() {
        long w = other.solidWindow("clickme", 200, 200, 300, 200, 0x00ffff);
        try {
            TestApps.awaitWindow(x, i -> i.id() == w, "clickme");
            other.raise(w);
            TestApps.await(() -> x.windows().get(x.windows().size() - 1).id() == w, Duration.ofSeconds(5));
            other.nextButtonPress(); // drain
            Capture c = x.capture(w, 2, 150, "png"); // scale 0.5
            assertEquals(0.5, c.basis().scale(), 1e-9);
            x.clickAt(40, 30, c.basis());
            long[] press = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (press == null && System.nanoTime() < deadline) {
                press = other.nextButtonPress().orElse(null);
                if (press == null) TestApps.sleep(20);
            }
            assertTrue(press != null, "the window received a button press");
            assertEquals(w, press[0]);
            assertEquals(81, press[1], "x: (40 + 0.5) / 0.5");
            assertEquals(61, press[2], "y: (30 + 0.5) / 0.5");
            assertEquals(1, press[3]);
        } finally {
            other.destroy(w);
        }
    }

    @Test
    void pointerRefusedOffPrivateDesktopAndWhenCovered() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove(X11Display.PRIVATE_DESKTOP_ENV);
        long under = other.solidWindow("under", 100, 100, 300, 200, 0x404040);
        long over = other.solidWindow("over", 150, 120, 300, 200, 0xc0c0c0);
        try (X11Display notPrivate = X11Display.open(env)) {
            TestApps.awaitWindow(x, i -> i.id() == under, "under");
            TestApps.awaitWindow(x, i -> i.id() == over, "over");
            other.raise(over);
            TestApps.await(() -> stackOf(over) > stackOf(under), Duration.ofSeconds(5));
            Basis b = x.capture(under, 1, 1000, "png").basis();
            RefusedException warp = assertThrows(RefusedException.class, () -> notPrivate.clickAt(5, 5, b));
            assertEquals(RefusalCode.POINTER_WARP_REFUSED, warp.code());
            Geometry ug = b.windowGeometry(), og = x.geometry(over);
            int px = og.x() - ug.x() + 20, py = og.y() - ug.y() + 20; // inside both: the cover is on top
            RefusedException covered = assertThrows(RefusedException.class, () -> x.clickAt(px, py, b));
            assertEquals(RefusalCode.OUT_OF_SCOPE, covered.code(), covered.getMessage());
        } finally {
            other.destroy(over);
            other.destroy(under);
        }
    }

    @Test
    void xtestKeysOnlyIntoTheFocusedWindow() throws Exception {
        long w = other.solidWindow("focus-thief", 900, 500, 150, 100, 0x202020);
        try {
            TestApps.awaitWindow(x, i -> i.id() == w, "focus-thief");
            activate(w);
            RefusedException e = assertThrows(
                    RefusedException.class, () -> x.xtestKey(mousepadWindow.id(), dev.deckhand.grant.Chord.parse("a")));
            assertEquals(RefusalCode.OUT_OF_SCOPE, e.code(), e.getMessage());
        } finally {
            other.destroy(w);
        }
        // The person focuses mousepad; now XTEST may type into it.
        Path file = Files.writeString(apps.home().resolve("xtest-note.txt"), "");
        Process p = apps.start("mousepad-xtest", "mousepad", file.toString());
        WindowInfo win = TestApps.awaitWindow(x, i -> i.title().contains("xtest-note"), "mousepad xtest-note");
        activate(win.id());
        x.xtestType(win.id(), "XTEST é✓");
        x.xtestKey(win.id(), dev.deckhand.grant.Chord.parse("ctrl+s"));
        assertTrue(
                TestApps.await(() -> TestApps.read(file).equals("XTEST é✓"), Duration.ofSeconds(10)),
                "saved: " + TestApps.read(file));
        p.destroy();
    }

    /** Types text line by line with Enter between (type carries printable text only). */
    private static void typeLines(X11Display x, long window, String text) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) x.key(window, dev.deckhand.grant.Chord.parse("Enter"));
            if (!lines[i].isEmpty()) x.type(window, lines[i]);
        }
    }
}

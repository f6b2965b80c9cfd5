package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.WindowInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@link WatchedWindows} through {@link X11Display#windows()} against real apps on the private virtual
 * desktop: for each change another client makes, the very next answer shows it, with no waiting and no
 * retry (the watching connection's XSync queues every event the server generated before the call; that is
 * the property under test, and it does not depend on timing). Before each change the list is settled (an
 * answer came from the kept list), so the answer after it is a kept list unless an event made it read.
 * Each external command has finished, and its change is on the server (xdotool syncs before it exits; an
 * xprop change is read back by another client), before the next answer is asked.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("desktop")
class WatchedWindowsTest {

    TestApps apps;
    X11Display x;
    OtherClient other;
    WindowInfo mousepad;

    @BeforeAll
    void start() throws Exception {
        String display = TestApps.requireDisplay();
        apps = new TestApps();
        x = X11Display.open();
        other = new OtherClient(display);
        Path file = Files.writeString(apps.home().resolve("watched-note.txt"), "");
        apps.start("mousepad", "mousepad", file.toString());
        mousepad = TestApps.awaitWindow(x, w -> w.title().contains("watched-note"), "mousepad");
        assertTrue(x.windowListWatched(), "the window list is watched on this desktop");
    }

    @AfterAll
    void stop() {
        if (other != null) other.close();
        if (x != null) x.close();
        if (apps != null) apps.close();
    }

    @Test
    void unchangedDesktopAnswersWithoutARead() {
        assertNoReadOnce(
                () -> {
                    List<WindowInfo> first = x.windows();
                    List<WindowInfo> second = x.windows();
                    Optional<WindowInfo> one = x.window(mousepad.id());
                    assertEquals(first, second);
                    assertEquals(
                            first.stream().filter(w -> w.id() == mousepad.id()).findFirst(), one);
                },
                "two answers and a window(id) on an unchanged desktop");
    }

    @Test
    void userTimeOnlyCausesNoRead() {
        long[] time = {424242};
        assertNoReadOnce(
                () -> {
                    setProperty(mousepad.id(), "_NET_WM_USER_TIME", "32c", Long.toString(++time[0]));
                    x.windows();
                },
                "a _NET_WM_USER_TIME change and an answer");
    }

    @Test
    void retitleThroughNetWmNameShowsInTheNextAnswer() {
        settle();
        long reads = x.windowListReads();
        String title = "watched net title " + System.nanoTime();
        setProperty(mousepad.id(), "_NET_WM_NAME", "8u", title);
        assertEquals(title, next(mousepad.id()).orElseThrow().title());
        assertTrue(x.windowListReads() > reads, "the change caused a read");
    }

    @Test
    void retitleThroughWmNameShowsInTheNextAnswer() throws IOException {
        WindowInfo msg = xmessage("watched-wm-name");
        settle();
        String title = "watched latin title " + System.nanoTime();
        setProperty(msg.id(), "WM_NAME", "8s", title);
        assertEquals(title, next(msg.id()).orElseThrow().title(), "xmessage has no _NET_WM_NAME: WM_NAME is its title");
    }

    @Test
    void moveShowsInTheNextAnswer() {
        long frame = x.topLevelOf(mousepad.id());
        settle();
        Geometry before = next(mousepad.id()).orElseThrow().geometry();
        int[] framed = other.position(frame);
        settle();
        assertEquals(
                0,
                TestApps.run(
                        "xdotool",
                        "windowmove",
                        "--sync",
                        Long.toString(mousepad.id()),
                        Integer.toString(before.x() + 37),
                        Integer.toString(before.y() + 23)));
        // The window manager applies the request in its own time, and xdotool's --sync gives up after a
        // while under load (exit 0 all the same); once the server has the move (read by another client),
        // the next answer must show it.
        assertTrue(
                TestApps.await(() -> !Arrays.equals(framed, other.position(frame)), Duration.ofSeconds(10)),
                "the window manager moved the frame");
        Geometry after = next(mousepad.id()).orElseThrow().geometry();
        assertNotEquals(before, after, "the move shows");
        assertEquals(x.geometry(mousepad.id()), after, "the answer equals a fresh measure");
    }

    @Test
    void frameMovedByAnotherClientShowsInTheNextAnswer() {
        // The frame (the client's ancestor) moves; the client itself gets no real event, only the window
        // manager's synthetic one, if any.
        long frame = x.topLevelOf(mousepad.id());
        assertNotEquals(mousepad.id(), frame, "mousepad is reparented into a frame");
        settle();
        Geometry before = next(mousepad.id()).orElseThrow().geometry();
        settle();
        int[] to = {before.x() / 2 + 11, before.y() / 2 + 7};
        other.move(frame, to[0], to[1]);
        // The window manager (which redirects moves of root children) applies it in its own time; once
        // the server has it (read by another client), the next answer must show it.
        assertTrue(
                TestApps.await(() -> Arrays.equals(to, other.position(frame)), Duration.ofSeconds(10)),
                "the window manager moved the frame to " + to[0] + "," + to[1]);
        Geometry after = next(mousepad.id()).orElseThrow().geometry();
        assertEquals(x.geometry(mousepad.id()), after, "the answer equals a fresh measure");
        assertNotEquals(before, after, "the frame moved");
    }

    @Test
    void ancestorMovedInsideItsParentShowsInTheNextAnswer() throws IOException {
        // client -> frame -> holder -> root: a move of the frame inside the holder is announced neither on
        // the client nor under the root, only on the frame (the client's ancestor) itself. Window managers
        // with a wrapper between frame and client (KWin) move a non-root ancestor the same way.
        WindowInfo msg = xmessage("watched-nested");
        long frame = x.topLevelOf(msg.id());
        long holder = other.holder(0, 0, 1000, 700);
        try {
            other.reparent(frame, holder, 40, 30);
            settle();
            Geometry before = next(msg.id())
                    .orElseThrow(() -> new AssertionError("still managed"))
                    .geometry();
            settle();
            other.move(frame, 140, 90); // the holder redirects nothing: the server moves it now
            Geometry after = next(msg.id()).orElseThrow().geometry();
            assertEquals(x.geometry(msg.id()), after, "the answer equals a fresh measure");
            assertNotEquals(before, after, "the frame moved");
        } finally {
            TestApps.run("xdotool", "windowkill", Long.toString(msg.id()));
            other.destroy(holder);
        }
    }

    @Test
    void newAncestorsAfterAReparentAreWatched() throws IOException {
        // client -> frame -> inner -> holder -> root: inner becomes an ancestor only by the reparent, so
        // only a new selection after the ReparentNotify sees it move inside the holder.
        WindowInfo msg = xmessage("watched-reparented");
        long frame = x.topLevelOf(msg.id());
        long holder = other.holder(0, 0, 1000, 700);
        long inner = other.child(holder, 20, 10, 900, 600);
        try {
            settle();
            other.reparent(frame, inner, 30, 20);
            settle();
            Geometry before = next(msg.id())
                    .orElseThrow(() -> new AssertionError("still managed"))
                    .geometry();
            settle();
            other.move(inner, 70, 60);
            Geometry after = next(msg.id()).orElseThrow().geometry();
            assertEquals(x.geometry(msg.id()), after, "the answer equals a fresh measure");
            assertNotEquals(before, after, "the new ancestor moved");
        } finally {
            TestApps.run("xdotool", "windowkill", Long.toString(msg.id()));
            other.destroy(holder);
        }
    }

    @Test
    void hiddenStateShowsInTheNextAnswer() {
        settle();
        setProperty(mousepad.id(), "_NET_WM_STATE", "32a", "_NET_WM_STATE_HIDDEN");
        try {
            WindowInfo hidden = next(mousepad.id()).orElseThrow();
            assertTrue(hidden.minimised(), "hidden is minimised: " + hidden);
            assertFalse(hidden.visible(), "hidden is not visible: " + hidden);
        } finally {
            assertEquals(0, TestApps.run("xprop", "-id", Long.toString(mousepad.id()), "-remove", "_NET_WM_STATE"));
        }
        assertTrue(
                TestApps.await(
                        () -> x.window(mousepad.id()).map(WindowInfo::visible).orElse(false), Duration.ofSeconds(10)),
                "visible again");
    }

    @Test
    void iconifyShowsInTheNextAnswer() throws IOException {
        WindowInfo msg = xmessage("watched-iconify");
        settle();
        assertEquals(0, TestApps.run("xdotool", "windowminimize", "--sync", Long.toString(msg.id())));
        Optional<WindowInfo> after = next(msg.id());
        assertTrue(after.isEmpty() || !after.get().visible(), "iconified is not visible: " + after);
    }

    @Test
    void unmapShowsInTheNextAnswer() throws IOException {
        WindowInfo msg = xmessage("watched-unmap");
        settle();
        assertEquals(0, TestApps.run("xdotool", "windowunmap", "--sync", Long.toString(msg.id())));
        Optional<WindowInfo> after = next(msg.id());
        assertTrue(after.isEmpty() || !after.get().visible(), "unmapped is not visible: " + after);
    }

    @Test
    void newWindowShowsInTheNextAnswer() {
        settle();
        long w = other.solidWindow("watched new window", 300, 200, 160, 120, 0x336699);
        try {
            // The window manager publishes it in its own time; once it has (read by another client), the
            // next answer must list it.
            assertTrue(
                    TestApps.await(
                            () -> List.of(rootProperty("_NET_CLIENT_LIST").split("[\\s,=]+"))
                                    .contains("0x" + Long.toHexString(w)),
                            Duration.ofSeconds(20)),
                    "the window manager listed the new window");
            assertTrue(next(w).isPresent(), "the new window is in the next answer");
        } finally {
            other.destroy(w);
        }
    }

    @Test
    void destroyedWindowIsGoneFromTheNextAnswer() throws IOException {
        WindowInfo msg = xmessage("watched-destroy");
        settle();
        // XKillClient destroys the app's windows before xdotool's sync returns.
        assertEquals(0, TestApps.run("xdotool", "windowkill", Long.toString(msg.id())));
        assertTrue(next(msg.id()).isEmpty(), "the destroyed window is not listed");
    }

    // ------------------------------------------------------------------------------------------

    /**
     * Waits (bounded) until an answer comes from the kept list: the apps have settled, and the next answer
     * is a kept one unless an event since makes it read.
     */
    private void settle() {
        assertTrue(
                TestApps.await(
                        () -> {
                            long reads = x.windowListReads();
                            x.windows();
                            return x.windowListReads() == reads;
                        },
                        Duration.ofSeconds(20)),
                "the window list settled (an answer without a read)");
    }

    /**
     * Asserts that {@code steps} ran without a list read at least once in five tries, each after
     * {@link #settle()}: the window manager may still finish an earlier test's change (a killed app's
     * window leaving its list) after the settle, which causes a read that is right. A rule that reads
     * on what {@code steps} does fails all five.
     */
    private void assertNoReadOnce(Runnable steps, String what) {
        long[] readsPerTry = new long[5];
        for (int i = 0; i < readsPerTry.length; i++) {
            settle();
            long reads = x.windowListReads();
            steps.run();
            readsPerTry[i] = x.windowListReads() - reads;
            if (readsPerTry[i] == 0) return;
        }
        throw new AssertionError(what + " caused list reads in every try: " + Arrays.toString(readsPerTry));
    }

    /** The very next answer's entry for {@code id}. */
    private Optional<WindowInfo> next(long id) {
        return x.windows().stream().filter(w -> w.id() == id).findFirst();
    }

    /** An xmessage (Athena: WM_NAME only, no _NET_WM_NAME) titled {@code title}, listed and visible. */
    private WindowInfo xmessage(String title) throws IOException {
        apps.start(title, "xmessage", "-title", title, "watched windows test");
        return TestApps.awaitWindow(x, w -> w.title().equals(title), title);
    }

    /** Sets a property with xprop (another client) and waits until another client reads it back. */
    private void setProperty(long window, String name, String format, String value) {
        String id = Long.toString(window);
        assertEquals(0, TestApps.run("xprop", "-id", id, "-f", name, format, "-set", name, value));
        assertTrue(
                TestApps.await(() -> output("xprop", "-id", id, name).contains(value), Duration.ofSeconds(10)),
                name + " reads back as " + value);
    }

    private static String rootProperty(String name) {
        return output("xprop", "-root", name);
    }

    private static String output(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            return out;
        } catch (IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }
}

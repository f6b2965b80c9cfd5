package dev.deckhand.platform.wayland;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.deckhand.grant.Chord;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.DeliveryGate;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.linux.LinuxDesktop;
import dev.deckhand.platform.linux.MixedDesktop;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the {@link dev.deckhand.loop.desktop.Desktop} port must show for a native Wayland app (docs/wayland.md),
 * run once per subclass against one app in a headless weston the test starts beside the virtual X
 * desktop (as GNOME runs Wayland beside XWayland): the app's frame listed with a frame id on the Wayland
 * route, its tree with opaque uids, an action by uid whose effect is read back (in the subclass), a uid
 * of an earlier revision refused, and every synthetic input refused {@code WAYLAND_INPUT_UNSUPPORTED}
 * (capture {@code PLATFORM_UNSUPPORTED}) with this JVM still alive to say so. Every wait is a bounded
 * poll on a real outcome.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WaylandDesktopContract {

    protected WestonSession weston;
    protected LinuxDesktop x11;
    protected MixedDesktop desktop;
    protected TestApp app;
    protected long windowId;
    private long revision = 1;

    /** Starts the app under test in {@code weston}. */
    protected abstract TestApp launchApp() throws Exception;

    /** Matches the title of the app's window under test. */
    protected abstract Predicate<String> windowTitle();

    /** Whether the app has filled its tree. */
    protected boolean contentReady(ScopedTree tree) {
        return tree.nodes().size() > 3;
    }

    @BeforeAll
    void start() throws Exception {
        weston = WestonSession.start();
        x11 = LinuxDesktop.open();
        desktop = new MixedDesktop(x11);
        app = launchApp();
        WindowInfo[] found = {null};
        boolean listed = poll(
                () -> {
                    if (!app.alive()) throw new AssertionError("the app exited early; log: " + app.log());
                    found[0] = desktop.windows().stream()
                            .filter(w -> w.pid() == app.pid() && windowTitle().test(w.title()))
                            .findFirst()
                            .orElse(null);
                    return found[0] != null;
                },
                Duration.ofSeconds(30));
        if (!listed)
            fail("no frame of pid " + app.pid() + " listed in 30 s: " + desktop.windows() + "; log: " + app.log());
        windowId = found[0].id();
        ScopedTree[] last = {null};
        if (!poll(
                () -> {
                    try {
                        last[0] = snapshot();
                        return !last[0].partial() && contentReady(last[0]);
                    } catch (RefusedException e) {
                        return false;
                    }
                },
                Duration.ofSeconds(30))) {
            fail("the frame never showed its content: " + (last[0] == null ? "no tree" : dump(last[0])));
        }
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (app != null) app.close();
        } finally {
            try {
                if (desktop != null) desktop.close();
            } finally {
                if (weston != null) weston.close();
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Helpers

    protected ScopedTree snapshot() {
        return desktop.snapshot(windowId, revision);
    }

    protected WindowInfo window() {
        return desktop.windows().stream()
                .filter(w -> w.id() == windowId)
                .findFirst()
                .orElseThrow(() -> new AssertionError("frame " + windowId + " is not listed: " + desktop.windows()));
    }

    protected static boolean poll(BooleanSupplier condition, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (true) {
            if (condition.getAsBoolean()) return true;
            if (System.nanoTime() > deadline) return false;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /** Polls fresh reads until one gives {@code expected} (bounded); the last value read. */
    protected static String awaitValue(Supplier<String> read, String expected, Duration max) {
        String[] last = {null};
        poll(
                () -> {
                    try {
                        last[0] = read.get();
                    } catch (RefusedException e) {
                        last[0] = "refused: " + e.getMessage();
                    }
                    return expected.equals(last[0]);
                },
                max);
        return last[0];
    }

    protected static Node find(ScopedTree tree, String what, Predicate<Node> p) {
        return tree.nodes().stream()
                .filter(p)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + what + " in the tree:\n" + dump(tree)));
    }

    protected static String dump(ScopedTree tree) {
        return tree.nodes().stream()
                .limit(200)
                .map(n -> "  ".repeat(n.depth()) + n.role() + " '" + n.name() + "'"
                        + (n.value() != null ? " = '" + n.value() + "'" : "") + " " + n.uid())
                .collect(Collectors.joining("\n"));
    }

    // ------------------------------------------------------------------------------------------
    // The contract

    @Test
    void theFrameIsListedOnTheWaylandRouteWithAnOpaqueIdAndItsProcess() {
        WindowInfo w = window();
        assertTrue(FrameIds.isFrameId(w.id()), "a frame id is above every X window id: " + w.id());
        assertEquals(app.pid(), w.pid());
        assertTrue(w.processStart() > 0, "the process start binds a grant to the process: " + w);
        assertTrue(w.visible(), "a frame counts as visible (no reliable showing state)");
        assertFalse(
                x11.windows().stream().anyMatch(x -> x.pid() == app.pid()),
                "a native Wayland app has no X window: " + x11.windows());
        assertEquals(
                1, desktop.windows().stream().filter(x -> x.id() == windowId).count());
        assertTrue(
                desktop.facts().windows().stream().anyMatch(x -> x.id() == windowId),
                "the facts the policy reads list the frame too");
    }

    @Test
    void theTreeHasOpaqueUniqueUidsAndTheFrameAtDepthZero() {
        ScopedTree tree = snapshot();
        assertEquals(windowId, tree.windowId());
        assertEquals(0, tree.nodes().get(0).depth());
        Set<String> uids = new HashSet<>();
        for (Node n : tree.nodes()) {
            assertTrue(uids.add(n.uid()), "uids are unique: " + n.uid() + " in\n" + dump(tree));
            assertFalse(
                    n.uid().contains("/") || n.uid().contains(":1.") || n.uid().contains(String.valueOf(app.pid())),
                    "a uid names no bus route or process: " + n.uid());
        }
    }

    @Test
    void aUidOfAnEarlierRevisionIsRefusedOutOfScope() {
        String old = snapshot().nodes().get(0).uid();
        long next = ++revision;
        ScopedTree fresh = snapshot();
        assertEquals(next, fresh.grantRevision());
        assertFalse(fresh.byUid(old).isPresent(), "a new revision mints new uids");
        for (Runnable act : List.<Runnable>of(
                () -> desktop.click(old), () -> desktop.focus(old), () -> desktop.setText(old, "x"))) {
            RefusedException e = assertThrows(RefusedException.class, act::run);
            assertEquals(RefusalCode.OUT_OF_SCOPE, e.code(), e.getMessage());
        }
    }

    @Test
    void keyTypeAndClickAtAreRefusedAndCaptureIsUnsupportedWithThisProcessAlive() {
        Geometry g = window().geometry();
        Basis basis = new Basis(revision, windowId, g, 1.0);
        List<Runnable> inputs = List.of(
                () -> desktop.key(windowId, Chord.parse("ctrl+a")),
                () -> desktop.key(windowId, Chord.parse("Return")),
                () -> desktop.type(windowId, "hello", DeliveryGate.OPEN),
                () -> desktop.clickAt(5, 5, basis));
        for (Runnable input : inputs) {
            RefusedException e = assertThrows(RefusedException.class, input::run);
            assertEquals(RefusalCode.WAYLAND_INPUT_UNSUPPORTED, e.code(), e.getMessage());
        }
        RefusedException c = assertThrows(RefusedException.class, () -> desktop.capture(windowId, revision, 800));
        assertEquals(RefusalCode.PLATFORM_UNSUPPORTED, c.code(), c.getMessage());
        assertFalse(desktop.basisValid(basis), "no capture, so no basis holds");
        // Still here: libatspi's synthetic input (which kills the caller without X) was never reached,
        // and the bus still answers for this app.
        assertTrue(ProcessHandle.current().isAlive());
        assertTrue(snapshot().nodes().size() > 1);
        assertTrue(app.alive(), "the app is untouched");
    }

    @Test
    void libatspiSyntheticInputIsNotEvenBound() throws Exception {
        Class<?> natives = Class.forName("dev.deckhand.platform.atspi.AtspiNative");
        int methods = 0;
        for (Class<?> c : natives.getDeclaredClasses()) {
            for (Method m : c.getDeclaredMethods()) {
                methods++;
                assertFalse(
                        m.getName().startsWith("atspi_generate_"), "bound: " + c.getSimpleName() + "." + m.getName());
            }
        }
        assertTrue(methods > 20, "the native bindings were read: " + methods);
    }
}

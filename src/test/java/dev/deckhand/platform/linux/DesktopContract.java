package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.SampleApp;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.x11.OtherClient;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What the {@link dev.deckhand.loop.desktop.Desktop} port must show for every real application in
 * the virtual desktop (docs/driver-atspi.md#the-desktop-port-contract), run once per subclass against one app: a subclass starts the app and
 * names its window. One {@link LinuxDesktop} per class; the window is found through
 * {@code desktop.windows()} and every assertion goes through the port's methods. {@code x11()} is used
 * only for set-up the port has no way to do or tell (the screen size, whether the X focus has moved
 * after the person's {@code xdotool windowactivate}); a second X client ({@link OtherClient}) plays
 * the other application that covers the window or holds a keyboard grab.
 *
 * <p>Waits are bounded polls on a real outcome. The two destructive tests run last, in order: the
 * app stopped and continued, then killed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class DesktopContract {

    /** A snapshot's upper bound on a stopped or dying app (the bridge's is its walk budget plus one call). */
    static final long REFUSAL_BOUND_MILLIS = 5_000;

    protected LinuxDesktop desktop;
    protected TestApp app;
    protected OtherClient other;
    /** The X id of the app's window under test. */
    protected long windowId;

    private long revision = 1;

    /** The app under test. */
    protected abstract SampleApp sampleApp();

    /** Starts the app under test. */
    protected TestApp launchApp() throws Exception {
        return sampleApp().launch();
    }

    /** Matches the title of the app's window under test. */
    protected Predicate<String> windowTitle() {
        return sampleApp().windowTitle();
    }

    /** Whether the app has filled its tree (apps add their widgets after the window maps). */
    protected boolean contentReady(ScopedTree tree) {
        return tree.nodes().size() > 3;
    }

    @BeforeAll
    void startApp() throws Exception {
        TestApp.requireDesktop();
        desktop = LinuxDesktop.open();
        other = new OtherClient(System.getenv("DISPLAY"));
        app = launchApp();
        windowId = awaitWindow().id();
        ScopedTree[] last = {null};
        RefusedException[] lastRefusal = {null};
        boolean ready = poll(
                () -> {
                    try {
                        last[0] = snapshot();
                        return !last[0].partial() && contentReady(last[0]);
                    } catch (RefusedException e) { // not registered on the accessibility bus yet
                        lastRefusal[0] = e;
                        return false;
                    }
                },
                Duration.ofSeconds(30));
        if (!ready) {
            fail("window 0x" + Long.toHexString(windowId) + " never showed its content through the port; last tree: "
                    + (last[0] == null ? "none" : dump(last[0])) + "; last refusal: " + lastRefusal[0] + "; app log: "
                    + app.log());
        }
    }

    @AfterAll
    void stopApp() throws Exception {
        try {
            if (other != null) other.close();
        } finally {
            try {
                if (app != null) app.close();
            } finally {
                if (desktop != null) desktop.close();
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Helpers

    private WindowInfo awaitWindow() {
        WindowInfo[] found = {null};
        boolean ok = poll(
                () -> {
                    if (!app.alive()) throw new AssertionError("the app exited early; log: " + app.log());
                    found[0] = desktop.windows().stream()
                            .filter(w -> w.pid() == app.pid()
                                    && w.visible()
                                    && windowTitle().test(w.title()))
                            .findFirst()
                            .orElse(null);
                    return found[0] != null;
                },
                Duration.ofSeconds(30));
        if (!ok) {
            fail("no visible window of pid " + app.pid() + " with a matching title within 30 s; windows: "
                    + desktop.windows() + "; app log: " + app.log());
        }
        return found[0];
    }

    /** The window under test as the port lists it now. */
    protected WindowInfo window() {
        return desktop.windows().stream()
                .filter(w -> w.id() == windowId)
                .findFirst()
                .orElseThrow(() -> new AssertionError("window 0x" + Long.toHexString(windowId) + " is not listed"));
    }

    protected long revision() {
        return revision;
    }

    /** Moves to a new grant revision: every earlier uid becomes meaningless. */
    protected long nextRevision() {
        return ++revision;
    }

    protected ScopedTree snapshot() {
        return desktop.snapshot(windowId, revision);
    }

    /** Polls {@code condition} every 50 ms until it holds or {@code max} passes; whether it held. */
    protected static boolean poll(BooleanSupplier condition, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (true) {
            if (condition.getAsBoolean()) return true;
            if (System.nanoTime() > deadline) return false;
            sleep(50);
        }
    }

    /**
     * Polls fresh snapshots until {@code read} gives {@code expected} from one (bounded); the last value
     * read. A refusal while the app updates (an editor retitles its window when the text changes) is
     * read again, and reported if it is the last outcome.
     */
    protected String awaitSnapshotValue(Supplier<String> read, String expected, Duration max) {
        String[] last = {null};
        RefusedException[] refusal = {null};
        poll(
                () -> {
                    try {
                        last[0] = read.get();
                        refusal[0] = null;
                    } catch (RefusedException e) {
                        refusal[0] = e;
                    }
                    return expected.equals(last[0]);
                },
                max);
        if (refusal[0] != null && !expected.equals(last[0])) throw refusal[0];
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
                .map(n -> "  ".repeat(n.depth()) + n.role() + " '" + n.name() + "'"
                        + (n.value() != null ? " = '" + n.value() + "'" : "") + (n.focused() ? " [focused]" : ""))
                .collect(Collectors.joining("\n"));
    }

    protected static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }

    /** Runs an external actor (xdotool, as the person would act) and returns its exit code. */
    protected static int run(String... command) {
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in 10 s");
            }
            return p.exitValue();
        } catch (IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }

    /**
     * The person activates {@code window} (xdotool as the external actor), retried while the window
     * manager settles. The X focus is read through {@code x11()}: the port has no way to tell it.
     */
    protected void activate(long window) {
        long top = desktop.x11().topLevelOf(window);
        assertTrue(
                poll(
                        () -> {
                            run("xdotool", "windowactivate", "--sync", Long.toString(window));
                            return poll(() -> desktop.x11().focusedTopLevel() == top, Duration.ofSeconds(1));
                        },
                        Duration.ofSeconds(10)),
                "window 0x" + Long.toHexString(window) + " got the input focus; it is on 0x"
                        + Long.toHexString(desktop.x11().focusedTopLevel()));
    }

    private static BufferedImage decode(Capture c) {
        try {
            return ImageIO.read(new ByteArrayInputStream(c.image()));
        } catch (IOException e) {
            throw new AssertionError("the capture is no readable " + c.mediaType(), e);
        }
    }

    private static int[] pixels(BufferedImage img) {
        return img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
    }

    private static boolean overlaps(Geometry a, Geometry b, int margin) {
        return a.x() - margin < b.x() + b.width()
                && b.x() - margin < a.x() + a.width()
                && a.y() - margin < b.y() + b.height()
                && b.y() - margin < a.y() + a.height();
    }

    /** Polls the port until the window's geometry differs from {@code old} and holds still; the new one. */
    private Geometry awaitSettledGeometry(Predicate<Geometry> moved, String what) {
        Geometry[] last = {null};
        assertTrue(
                poll(
                        () -> {
                            Geometry g = window().geometry();
                            boolean still = g.equals(last[0]) && moved.test(g);
                            last[0] = g;
                            if (!still) sleep(100);
                            return still;
                        },
                        Duration.ofSeconds(10)),
                what + "; geometry now " + last[0]);
        return last[0];
    }

    // ------------------------------------------------------------------------------------------
    // The contract

    @Test
    void snapshotHasContentInDocumentOrderWithOpaqueUniqueUids() {
        WindowInfo w = window();
        ScopedTree tree = snapshot();
        assertFalse(tree.partial(), "a responsive app gives a complete tree");
        assertEquals(windowId, tree.windowId());
        assertEquals(revision(), tree.grantRevision());
        assertTrue(contentReady(tree) && tree.nodes().size() > 3, "the window has content:\n" + dump(tree));
        Node root = tree.nodes().get(0);
        assertEquals(0, root.depth());
        assertEquals(w.title(), root.name(), "the root is the window's frame");
        int previous = 0;
        Set<String> uids = new HashSet<>();
        for (Node n : tree.nodes()) {
            assertTrue(n.depth() <= previous + 1, "document order: depth " + n.depth() + " after " + previous);
            previous = n.depth();
            assertTrue(n.uid().matches("u[0-9A-Za-z]{5}"), "opaque uid: " + n.uid());
            assertFalse(
                    n.uid().contains(Long.toString(windowId)) || n.uid().contains(Integer.toString(app.pid())),
                    "the uid carries neither the window nor the process: " + n.uid());
            assertTrue(uids.add(n.uid()), "uids are unique: " + n.uid());
            assertEquals(n.role(), n.role().toLowerCase(java.util.Locale.ROOT), "roles are lower case");
        }
        assertTrue(
                tree.nodes().stream()
                        .anyMatch(n -> n.bounds() != null && n.bounds().width() > 0),
                "showing elements have bounds");
    }

    @Test
    void passwordValuesAreNeverExposed() {
        for (Node n : snapshot().nodes()) {
            if (n.role().equals("password text")) assertNull(n.value(), n.toString());
        }
    }

    @Test
    void uidOfAnEarlierRevisionIsRefusedOutOfScope() {
        String old = snapshot().nodes().get(0).uid();
        long next = nextRevision();
        ScopedTree fresh = snapshot();
        assertEquals(next, fresh.grantRevision());
        assertFalse(fresh.byUid(old).isPresent(), "a new revision mints new uids");
        for (Runnable act : List.<Runnable>of(
                () -> desktop.click(old), () -> desktop.focus(old), () -> desktop.setText(old, "x"))) {
            RefusedException e = assertThrows(RefusedException.class, act::run);
            assertEquals(RefusalCode.OUT_OF_SCOPE, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("is not from revision " + next), e.getMessage());
        }
    }

    /**
     * Another client's window covers half of the window under test: its capture is the window's own
     * pixels, equal to its uncovered capture. The cover first takes the focus away from a spot off
     * the window (so the app draws its unfocused look, with no blinking caret), then moves over it.
     */
    @Test
    void captureOfTheHalfCoveredWindowEqualsItsUncoveredCapture() {
        Geometry screen = desktop.x11().screen();
        Geometry g = window().geometry();
        Geometry spot = List.of(
                        new Geometry(screen.width() - 110, screen.height() - 110, 100, 100),
                        new Geometry(10, screen.height() - 110, 100, 100),
                        new Geometry(screen.width() - 110, 10, 100, 100),
                        new Geometry(10, 10, 100, 100))
                .stream()
                .filter(s -> !overlaps(s, g, 40))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no free corner beside the window " + g));
        int red = 0xff0000;
        long cover = other.solidWindow("deckhand-cover", spot.x(), spot.y(), spot.width(), spot.height(), red);
        try {
            assertTrue(
                    poll(
                            () -> desktop.windows().stream().anyMatch(w -> w.id() == cover && w.visible()),
                            Duration.ofSeconds(10)),
                    "the cover window mapped");
            activate(cover);
            // The pointer rests on the cover, off the window: a button under the pointer would be drawn
            // hovered, and lose it (a real repaint) when the cover slides in between.
            assertEquals(
                    0, run("xdotool", "mousemove", Integer.toString(spot.centerX()), Integer.toString(spot.centerY())));

            // The uncovered reference: the captures agree for half a second once the app has repainted
            // unfocused (GTK fades into its backdrop look).
            Capture[] ref = {desktop.capture(windowId, revision(), 4000)};
            long[] sameSince = {System.nanoTime()};
            assertTrue(
                    poll(
                            () -> {
                                Capture next = desktop.capture(windowId, revision(), 4000);
                                if (!Arrays.equals(pixels(decode(next)), pixels(decode(ref[0])))) {
                                    ref[0] = next;
                                    sameSince[0] = System.nanoTime();
                                }
                                return System.nanoTime() - sameSince[0] >= 500_000_000L;
                            },
                            Duration.ofSeconds(10)),
                    "the unfocused window's pixels hold still");
            assertEquals(1.0, ref[0].basis().scale(), "a long edge of 4000 keeps every pixel");
            BufferedImage uncovered = decode(ref[0]);
            assertEquals(g.width(), uncovered.getWidth());
            assertEquals(g.height(), uncovered.getHeight());

            int coverX = g.x() + g.width() / 2;
            assertEquals(
                    0,
                    run(
                            "xdotool",
                            "windowsize",
                            Long.toString(cover),
                            Integer.toString(g.width() / 2 + 50),
                            Integer.toString(g.height() + 50)));
            assertEquals(
                    0,
                    run(
                            "xdotool",
                            "windowmove",
                            Long.toString(cover),
                            Integer.toString(coverX),
                            Integer.toString(Math.max(0, g.y() - 25))));
            other.raise(cover);
            assertTrue(
                    poll(
                            () -> {
                                List<WindowInfo> all = desktop.windows();
                                WindowInfo c = all.stream()
                                        .filter(w -> w.id() == cover)
                                        .findFirst()
                                        .orElse(null);
                                WindowInfo me = all.stream()
                                        .filter(w -> w.id() == windowId)
                                        .findFirst()
                                        .orElse(null);
                                if (c == null || me == null || c.stacking() < me.stacking()) return false;
                                Geometry cg = c.geometry();
                                int ow = Math.min(cg.x() + cg.width(), g.x() + g.width()) - Math.max(cg.x(), g.x());
                                int oh = Math.min(cg.y() + cg.height(), g.y() + g.height()) - Math.max(cg.y(), g.y());
                                return ow >= g.width() / 3 && oh >= g.height() * 2 / 3;
                            },
                            Duration.ofSeconds(10)),
                    "the cover lies above the window over about half of it: " + desktop.windows());

            int[] expected = pixels(uncovered);
            int[] differ = {0};
            int[] redPixels = {0};
            boolean equal = poll(
                    () -> {
                        Capture covered = desktop.capture(windowId, revision(), 4000);
                        assertEquals(g, covered.basis().windowGeometry(), "the window did not move");
                        int[] got = pixels(decode(covered));
                        differ[0] = 0;
                        redPixels[0] = 0;
                        for (int i = 0; i < got.length; i++) {
                            if (got[i] != expected[i]) differ[0]++;
                            if ((got[i] & 0xffffff) == red) redPixels[0]++;
                        }
                        return differ[0] == 0;
                    },
                    Duration.ofSeconds(5));
            assertTrue(
                    equal,
                    differ[0] + " of " + expected.length + " pixels differ from the uncovered capture (" + redPixels[0]
                            + " are the cover's red)");
        } finally {
            other.destroy(cover);
        }
    }

    /** Moving the window (the person, with xdotool) invalidates the earlier basis; a fresh one holds. */
    @Test
    void movingTheWindowMakesTheEarlierBasisStale() {
        Geometry screen = desktop.x11().screen();
        Capture before = desktop.capture(windowId, revision(), 800);
        Basis old = before.basis();
        assertTrue(desktop.basisValid(old), "a fresh basis holds");
        Geometry g = old.windowGeometry();
        int dx = g.x() + g.width() + 60 <= screen.width() ? 60 : -60;
        int dy = g.y() + g.height() + 40 <= screen.height() ? 40 : -40;
        assertEquals(
                0,
                run(
                        "xdotool",
                        "windowmove",
                        Long.toString(windowId),
                        Integer.toString(g.x() + dx),
                        Integer.toString(g.y() + dy)));
        Geometry moved = awaitSettledGeometry(n -> n.x() != g.x() || n.y() != g.y(), "the window moved");
        assertNotEquals(g, moved);

        assertFalse(desktop.basisValid(old), "the old basis no longer holds");
        RefusedException e = assertThrows(RefusedException.class, () -> desktop.clickAt(5, 5, old));
        assertEquals(RefusalCode.BASIS_STALE, e.code(), e.getMessage());

        Capture after = desktop.capture(windowId, revision(), 800);
        assertEquals(moved, after.basis().windowGeometry(), "the fresh capture is taken where the window is now");
        assertTrue(desktop.basisValid(after.basis()), "the fresh basis holds");
    }

    /**
     * A grab announces itself to nobody, so the facts kept between events (KeptFacts) may miss it for at most
     * their age bound; the fresh facts of the last check see it at once.
     */
    @Test
    void aKeyboardGrabHeldByAnotherClientShowsInTheFacts() throws InterruptedException {
        assertFalse(desktop.freshFacts().keyboardGrabbed(), "nobody holds a keyboard grab yet");
        assertEquals(OtherClient.GRAB_SUCCESS, other.grabKeyboard(), "the other client takes the grab");
        try {
            assertTrue(
                    desktop.freshFacts().keyboardGrabbed(), "another client's grab is seen by the last check's read");
            assertTrue(desktop.freshFacts().keyboardGrabbed(), "and the probe did not take it over");
            Thread.sleep(KeptFacts.MAX_AGE.toMillis() + 50);
            assertTrue(desktop.facts().keyboardGrabbed(), "the kept facts see it once they are older than their bound");
        } finally {
            other.ungrabKeyboard();
        }
        assertFalse(desktop.freshFacts().keyboardGrabbed(), "the released grab is gone");
    }

    /**
     * SIGSTOP: a walk racing the stop ends (tree or refusal); a snapshot started while the app is
     * stopped is refused {@code A11Y_UNAVAILABLE} or marked partial, within the bound; after SIGCONT the
     * whole tree comes back.
     */
    @Test
    @Order(Integer.MAX_VALUE - 1)
    void aStoppedAppIsRefusedWithinTheBoundAndAnswersAfterContinue() throws Exception {
        ScopedTree warm = snapshot();
        String title = window().title();
        long racingRevision = nextRevision();
        CompletableFuture<Object> racing =
                CompletableFuture.supplyAsync(() -> outcome(() -> desktop.snapshot(windowId, racingRevision)));
        app.sigstop();
        try {
            long t0 = System.nanoTime();
            Object raced = racing.get(30, TimeUnit.SECONDS);
            System.out.printf(
                    "%s: walk racing SIGSTOP: %s after %.0f ms%n",
                    getClass().getSimpleName(), describe(raced), (System.nanoTime() - t0) / 1e6);
            assertRefusedOrTree(raced, false);

            long t1 = System.nanoTime();
            Object stopped = outcome(this::snapshot);
            long elapsed = (System.nanoTime() - t1) / 1_000_000;
            System.out.printf(
                    "%s: snapshot of the stopped app: %s after %d ms%n",
                    getClass().getSimpleName(), describe(stopped), elapsed);
            assertRefusedOrTree(stopped, true);
            assertTrue(
                    elapsed < REFUSAL_BOUND_MILLIS,
                    "the stopped app's snapshot ended within the bound: " + elapsed + " ms");
        } finally {
            app.sigcont();
        }

        ScopedTree[] back = {null};
        Object[] lastOutcome = {null};
        assertTrue(
                poll(
                        () -> {
                            lastOutcome[0] = outcome(this::snapshot);
                            if (lastOutcome[0] instanceof ScopedTree t && !t.partial()) back[0] = t;
                            return back[0] != null;
                        },
                        Duration.ofSeconds(15)),
                "the continued app answers again; last: " + describe(lastOutcome[0]));
        assertEquals(title, back[0].nodes().get(0).name());
        assertTrue(
                contentReady(back[0])
                        && back[0].nodes().size() >= Math.min(warm.nodes().size(), 4),
                "the tree is back: " + back[0].nodes().size() + " nodes, "
                        + warm.nodes().size() + " before");
        desktop.settle(Duration.ofMillis(300));
    }

    /**
     * Last: SIGKILL while a walk runs gives refusals, not a hang or a crash of the JVM. The app is
     * stopped first, so the walk (bounds are never cached: it must ask the app) is certainly waiting
     * on the app when the kill lands, rather than finished before it.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void killingTheAppMidWalkIsRefusedNotAHang() throws Exception {
        long walkRevision = nextRevision();
        ScopedTree tree = snapshot();
        String uid = tree.nodes().get(tree.nodes().size() - 1).uid();
        app.sigstop();
        long t0 = System.nanoTime();
        CompletableFuture<Object> walk =
                CompletableFuture.supplyAsync(() -> outcome(() -> desktop.snapshot(windowId, walkRevision)));
        // The walk blocks on the stopped app; the kill lands while it waits (or, on a slow start,
        // before it begins: then the walk meets a dead app, which must be refused as well).
        poll(walk::isDone, Duration.ofMillis(300));
        app.kill();
        assertFalse(app.alive(), "the app is dead");
        Object during = walk.get(30, TimeUnit.SECONDS);
        long walkMillis = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf(
                "%s: walk of the stopped app killed mid-walk: %s after %d ms%n",
                getClass().getSimpleName(), describe(during), walkMillis);
        // The cut walk is refused, or its tree is marked partial: libatspi's cached roles and names stay
        // readable after the app died, and must not come back looking like a whole window.
        if (during instanceof RefusedException e) {
            assertTrue(
                    e.code() == RefusalCode.A11Y_UNAVAILABLE || e.code() == RefusalCode.PREFLIGHT_FAILED, e.toString());
        } else {
            assertTrue(
                    during instanceof ScopedTree t && t.partial(), "a refusal or a partial tree: " + describe(during));
        }
        assertTrue(walkMillis < REFUSAL_BOUND_MILLIS, "the walk ended within the bound: " + walkMillis + " ms");

        long t1 = System.nanoTime();
        Object after = outcome(this::snapshot);
        long elapsed = (System.nanoTime() - t1) / 1_000_000;
        System.out.printf(
                "%s: snapshot after the kill: %s after %d ms%n", getClass().getSimpleName(), describe(after), elapsed);
        assertTrue(after instanceof RefusedException, "a dead app's window is refused, not read: " + describe(after));
        RefusalCode code = ((RefusedException) after).code();
        assertTrue(code == RefusalCode.A11Y_UNAVAILABLE || code == RefusalCode.PREFLIGHT_FAILED, after.toString());
        assertTrue(elapsed < REFUSAL_BOUND_MILLIS, "refused within the bound: " + elapsed + " ms");

        Object act = outcome(() -> {
            desktop.click(uid);
            return "clicked";
        });
        assertTrue(
                act instanceof RefusedException e && e.code() == RefusalCode.A11Y_UNAVAILABLE,
                "an action on the dead app's element is refused A11Y_UNAVAILABLE: " + describe(act));

        // The driver is still usable: the desktop answers and the dead window is gone from it.
        assertTrue(
                poll(() -> desktop.windows().stream().noneMatch(w -> w.id() == windowId), Duration.ofSeconds(10)),
                "the dead app's window leaves the list");
        assertTrue(
                desktop.facts().windows().stream().noneMatch(w -> w.id() == windowId),
                "the facts are read after the kill and no longer list the window");
    }

    private static Object outcome(Supplier<?> call) {
        try {
            return call.get();
        } catch (RefusedException e) {
            return e;
        }
    }

    private static String describe(Object outcome) {
        if (outcome instanceof ScopedTree t) {
            return "tree of " + t.nodes().size() + " nodes ("
                    + t.nodes().stream().filter(n -> n.bounds() != null).count() + " with bounds), partial="
                    + t.partial();
        }
        if (outcome instanceof RefusedException e) return "refused " + e.code() + " (" + e.getMessage() + ")";
        return String.valueOf(outcome);
    }

    /** A refusal A11Y_UNAVAILABLE, or a tree (which must be partial when {@code mustBePartial}). */
    private static void assertRefusedOrTree(Object outcome, boolean mustBePartial) {
        if (outcome instanceof RefusedException e) {
            assertEquals(RefusalCode.A11Y_UNAVAILABLE, e.code(), e.getMessage());
        } else if (outcome instanceof ScopedTree t) {
            if (mustBePartial) assertTrue(t.partial(), "a stopped app's tree is marked partial");
        } else {
            fail("neither a tree nor a refusal: " + outcome);
        }
    }

    protected static Optional<Node> byRole(ScopedTree tree, String role) {
        return tree.nodes().stream().filter(n -> n.role().equals(role)).findFirst();
    }
}

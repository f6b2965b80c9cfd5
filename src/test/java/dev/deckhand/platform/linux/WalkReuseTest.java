package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.Chord;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.TestApp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link LinuxDesktop#latestSnapshot} returns the last walk again only while nothing can have changed,
 * on a real galculator. Each rule has its own case, in which only that rule can end the reuse: the age is
 * measured by a clock the test holds still (moved on only in the age case), and a case whose rule is not the
 * accessibility events counts only a round in which no event of any app arrived from before its walk to after
 * its last read (a round with one is played again). The first case uses the real clock and asserts the reuse
 * only for a round that stayed under the age bound, by the test's own reading of the time.
 */
@Tag("desktop")
class WalkReuseTest {

    private static final long REVISION = 1;
    private static final Duration MAX = Duration.ofSeconds(2);
    /** How many rounds a case may play before it gives up on a quiet one. */
    private static final int ROUNDS = 20;

    @Test
    void aReadRightAfterAWalkWithNothingHappeningReusesIt() throws Exception {
        TestApp.requireDesktop();
        try (LinuxDesktop desktop = LinuxDesktop.open();
                TestApp app = galculator()) {
            long window = awaitReady(desktop, app);
            int told = 0;
            for (int round = 0; round < ROUNDS && told < 3; round++) {
                desktop.settle(MAX);
                long events = desktop.atspi().allEvents();
                long t0 = System.nanoTime();
                ScopedTree walked = desktop.snapshot(window, REVISION);
                long walks = desktop.walks();
                ScopedTree again = desktop.latestSnapshot(window, REVISION);
                long elapsed = System.nanoTime() - t0;
                if (desktop.atspi().allEvents() != events || elapsed >= LinuxDesktop.REUSE_AGE.toNanos()) {
                    continue; // an event or a slow round may end the reuse: this round cannot tell
                }
                told++;
                assertEquals(walks, desktop.walks(), "round " + round + ": no new walk");
                assertSame(walked, again, "round " + round + ": the same tree");
            }
            assertTrue(told > 0, "no round stayed quiet and under " + LinuxDesktop.REUSE_AGE.toMillis() + " ms");
        }
    }

    @Test
    void anActionOfDeckhandAfterTheWalkEndsItsReuse() throws Exception {
        TestApp.requireDesktop();
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        try (LinuxDesktop desktop = LinuxDesktop.open(clock::get);
                TestApp app = galculator()) {
            long window = awaitReady(desktop, app);
            quietRound(desktop, () -> {
                desktop.snapshot(window, REVISION);
                long walks = desktop.walks();
                // galculator answers F12 with no accessibility event: only the action rule can end the reuse
                desktop.key(window, Chord.parse("F12"));
                ScopedTree again = desktop.latestSnapshot(window, REVISION);
                return () -> {
                    assertEquals(walks + 1, desktop.walks(), "a walk after the action");
                    assertEquals(window, again.windowId());
                };
            });
        }
    }

    @Test
    void aKeyFromOutsideDeckhandEndsTheReuseAndTheNewDisplayIsRead() throws Exception {
        TestApp.requireDesktop();
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        try (LinuxDesktop desktop = LinuxDesktop.open(clock::get);
                TestApp app = galculator()) {
            long window = awaitReady(desktop, app);
            // the key goes to the focused window (XTEST), as a person's would
            run("xdotool", "windowactivate", "--sync", Long.toString(window));
            desktop.settle(MAX);
            ScopedTree before = desktop.snapshot(window, REVISION);
            assertEquals("0", display(before));
            long walks = desktop.walks();
            long events = desktop.atspi().allEvents();
            run("xdotool", "key", "7");
            await(() -> desktop.atspi().allEvents() != events, "galculator's events for the key from outside");
            desktop.settle(MAX);
            ScopedTree after = desktop.latestSnapshot(window, REVISION);
            assertEquals(walks + 1, desktop.walks(), "a walk after the app's events");
            assertEquals("7", display(after), "the display after the key from outside");
        }
    }

    @Test
    void aWindowMovedFromOutsideEndsTheReuseAndTheNewPlaceIsRead() throws Exception {
        TestApp.requireDesktop();
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        try (LinuxDesktop desktop = LinuxDesktop.open(clock::get);
                TestApp app = galculator()) {
            long window = awaitReady(desktop, app);
            quietRound(desktop, () -> {
                ScopedTree before = desktop.snapshot(window, REVISION);
                Geometry frame = frame(before);
                Geometry placed = geometry(desktop, window);
                long walks = desktop.walks();
                int x = placed.x() < 200 ? placed.x() + 40 : placed.x() - 40;
                run("xdotool", "windowmove", Long.toString(window), Integer.toString(x), Integer.toString(placed.y()));
                await(() -> geometry(desktop, window).x() != placed.x(), "the window's move");
                int dx = geometry(desktop, window).x() - placed.x();
                ScopedTree after = desktop.latestSnapshot(window, REVISION);
                return () -> {
                    assertEquals(walks + 1, desktop.walks(), "a walk after the move");
                    assertEquals(frame.x() + dx, frame(after).x(), "the frame's place after the move");
                };
            });
        }
    }

    @Test
    void anotherRevisionOrWindowIsWalked() throws Exception {
        TestApp.requireDesktop();
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        try (LinuxDesktop desktop = LinuxDesktop.open(clock::get);
                TestApp app = galculator();
                TestApp other = galculator()) {
            long window = awaitReady(desktop, app);
            long otherWindow = awaitReady(desktop, other);
            quietRound(desktop, () -> {
                desktop.snapshot(window, REVISION);
                long walks = desktop.walks();
                ScopedTree nextRevision = desktop.latestSnapshot(window, REVISION + 1);
                return () -> {
                    assertEquals(walks + 1, desktop.walks(), "a walk for another revision");
                    assertEquals(REVISION + 1, nextRevision.grantRevision());
                };
            });
            quietRound(desktop, () -> {
                desktop.snapshot(window, REVISION);
                long walks = desktop.walks();
                ScopedTree otherTree = desktop.latestSnapshot(otherWindow, REVISION);
                return () -> {
                    assertEquals(walks + 1, desktop.walks(), "a walk for another window");
                    assertEquals(otherWindow, otherTree.windowId());
                };
            });
        }
    }

    @Test
    void aWalkOfTheAgeBoundIsWalkedAgain() throws Exception {
        TestApp.requireDesktop();
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        try (LinuxDesktop desktop = LinuxDesktop.open(clock::get);
                TestApp app = galculator()) {
            long window = awaitReady(desktop, app);
            quietRound(desktop, () -> {
                ScopedTree walked = desktop.snapshot(window, REVISION);
                long walks = desktop.walks();
                clock.addAndGet(LinuxDesktop.REUSE_AGE.toNanos() - 1);
                ScopedTree young = desktop.latestSnapshot(window, REVISION);
                long walksYoung = desktop.walks();
                clock.addAndGet(1);
                desktop.latestSnapshot(window, REVISION);
                return () -> {
                    assertSame(walked, young, "just under the bound: the same tree");
                    assertEquals(walks, walksYoung, "just under the bound: no walk");
                    assertEquals(walks + 1, desktop.walks(), "at the bound: a walk");
                };
            });
        }
    }

    // ------------------------------------------------------------------------------------------

    /** What one round read; its assertions run only if the round stayed quiet. */
    private interface Round {
        Runnable play() throws Exception;
    }

    /**
     * Plays {@code round} until it plays with no accessibility event of any app from before its first read to
     * after its last, then runs that round's assertions; fails when no round of {@link #ROUNDS} was quiet.
     */
    private static void quietRound(LinuxDesktop desktop, Round round) throws Exception {
        for (int i = 0; i < ROUNDS; i++) {
            desktop.settle(MAX);
            long events = desktop.atspi().allEvents();
            Runnable check = round.play();
            if (desktop.atspi().allEvents() == events) {
                check.run();
                return;
            }
        }
        throw new AssertionError("no round of " + ROUNDS + " was free of accessibility events");
    }

    private static TestApp galculator() throws IOException {
        return TestApp.launch(List.of("galculator"));
    }

    /** The app's window once its tree shows the keypad and its start-up events are over. */
    private static long awaitReady(LinuxDesktop desktop, TestApp app) throws InterruptedException {
        long[] window = {0};
        await(
                () -> {
                    for (WindowInfo w : desktop.windows()) {
                        if (w.pid() == app.pid() && w.visible()) window[0] = w.id();
                    }
                    return window[0] != 0;
                },
                "galculator's window; log: " + app.log());
        await(
                () -> {
                    try {
                        ScopedTree t = desktop.snapshot(window[0], REVISION);
                        return !t.partial()
                                && t.nodes().stream().anyMatch(n -> n.name().equals("AC"));
                    } catch (RefusedException notYet) {
                        return false; // the app registers on the accessibility bus a little after its window maps
                    }
                },
                "galculator's keypad on the accessibility bus");
        desktop.settle(MAX);
        return window[0];
    }

    private static Geometry geometry(LinuxDesktop desktop, long window) {
        return desktop.windows().stream()
                .filter(w -> w.id() == window)
                .findFirst()
                .orElseThrow()
                .geometry();
    }

    private static Geometry frame(ScopedTree tree) {
        Node frame = tree.nodes().get(0);
        assertNotNull(frame.bounds(), "the frame's bounds");
        return frame.bounds();
    }

    private static String display(ScopedTree tree) {
        return tree.nodes().stream()
                .filter(n -> n.role().equals("text"))
                .findFirst()
                .map(n -> n.value() == null ? n.name() : n.value())
                .orElseThrow()
                .strip();
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            if (done.getAsBoolean()) return;
            Thread.sleep(100);
        }
        throw new AssertionError("not within 30 s: " + what);
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + out);
    }
}

package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The global Stop chord on the root window of the virtual desktop, pressed as real key events (XTEST
 * through xdotool): it fires with and without CapsLock/NumLock on, and a chord another client already
 * grabs is reported (BadAccess), not fatal.
 */
@Tag("desktop")
class StopKeyGrabTest {

    private static final String CHORD = "ctrl+alt+shift+Escape";

    @Test
    void firesOnTheRealChordWhateverLockKeysAreOn() {
        TestApps.requireDisplay();
        AtomicInteger presses = new AtomicInteger();
        try (StopKeyGrab grab = StopKeyGrab.start(CHORD, System.getenv(), presses::incrementAndGet)) {
            assertTrue(grab.status().registered(), grab.status().toString());
            assertEquals(0, TestApps.run("xdotool", "key", "ctrl+alt+shift+Escape"));
            assertTrue(TestApps.await(() -> presses.get() == 1, Duration.ofSeconds(5)), "fired once: " + presses);
            for (String lock : List.of("Caps_Lock", "Num_Lock")) {
                TestApps.run("xdotool", "key", lock); // lock on
                try {
                    int before = presses.get();
                    assertEquals(0, TestApps.run("xdotool", "key", "ctrl+alt+shift+Escape"));
                    assertTrue(
                            TestApps.await(() -> presses.get() == before + 1, Duration.ofSeconds(5)),
                            "fired with " + lock + " on");
                } finally {
                    TestApps.run("xdotool", "key", lock); // lock off again
                }
            }
            // Other chords are not taken.
            int before = presses.get();
            TestApps.run("xdotool", "key", "ctrl+alt+Escape");
            TestApps.sleep(300);
            assertEquals(before, presses.get());
        }
    }

    /**
     * The keyboard-grab probe ({@link KeyboardGrab}) holds the keyboard for a moment many times a step; a
     * Stop chord pressed in that moment is reported to the probe, not to the passive grab. Here the moment is
     * held open (the probe's connection grabs the keyboard first), the chord and another key are pressed, and
     * the probe's answer hands the chord on: Stop fires once, the other key does not fire it.
     */
    @Test
    void theChordPressedWhileTheGrabProbeHoldsTheKeyboardStillStops() {
        TestApps.requireDisplay();
        AtomicInteger presses = new AtomicInteger();
        try (StopKeyGrab grab = StopKeyGrab.start(CHORD, System.getenv(), presses::incrementAndGet)) {
            assertTrue(grab.status().registered(), grab.status().toString());
            XConnection c = XConnection.open(System.getenv());
            try {
                assertEquals(
                        Xlib.GrabSuccess,
                        Xlib.X.XGrabKeyboard(
                                c.dpy, c.root, Xlib.False, Xlib.GrabModeAsync, Xlib.GrabModeAsync, Xlib.CurrentTime));
                c.sync();
                assertEquals(0, TestApps.run("xdotool", "key", "a"));
                assertEquals(0, TestApps.run("xdotool", "key", "ctrl+alt+shift+Escape"));
                // The raw key event fires Stop under the probe's grab; the probe's hand-off of the same press
                // does not fire it twice.
                assertTrue(
                        TestApps.await(() -> presses.get() == 1, Duration.ofSeconds(5)),
                        "the chord fired Stop under the probe's grab: " + presses);
                assertFalse(new KeyboardGrab(c).heldByOther(), "the probe (this connection) answers: not held");
                TestApps.sleep(300);
                assertEquals(1, presses.get(), "once; the other key did not fire it");
            } finally {
                Xlib.X.XUngrabKeyboard(c.dpy, Xlib.CurrentTime);
                c.close();
            }
        }
    }

    @Test
    void aChordAnotherClientHoldsIsReportedNotFatal() {
        TestApps.requireDisplay();
        try (StopKeyGrab first = StopKeyGrab.start(CHORD, System.getenv(), () -> {});
                StopKeyGrab second = StopKeyGrab.start(CHORD, System.getenv(), () -> {})) {
            assertTrue(first.status().registered(), first.status().toString());
            assertFalse(second.status().registered());
            assertTrue(
                    second.status().detail().contains("BadAccess"),
                    second.status().detail());
        }
    }

    @Test
    void badChordsAndMissingDisplaysAreReported() {
        try (StopKeyGrab g = StopKeyGrab.start("ctrl+NoSuchKey", System.getenv(), () -> {})) {
            assertFalse(g.status().registered());
            assertTrue(
                    g.status().detail().contains("cannot be read"), g.status().detail());
        }
        try (StopKeyGrab g = StopKeyGrab.start(CHORD, Map.of("DISPLAY", ":9999"), () -> {})) {
            assertFalse(g.status().registered());
            assertTrue(
                    g.status().detail().contains("could not be opened"),
                    g.status().detail());
        }
    }

    @Test
    void lockCombinationsCoverEverySubset() {
        assertEquals(List.of(0, 2, 16, 18), StopKeyGrab.lockCombinations(new int[] {2, 16, 0}));
        assertEquals(List.of(0, 2), StopKeyGrab.lockCombinations(new int[] {2, 2, 0}));
    }
}

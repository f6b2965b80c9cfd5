package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.Chord;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Stop chord judged by one reading of the keyboard, without a display: the keyboards here are the pc105 "us"
 * map's keys that matter, as {@code xkbcomp} shows them on the virtual desktop, before and after the options the
 * reviewer's model typed ({@code setxkbmap -option ctrl:swapcaps -option caps:swapescape}: Escape then has no key
 * at all, the physical Control key is a CapsLock in the Lock row, the physical CapsLock is Control).
 */
@Tag("pure")
class StopChordTest {

    private static final Set<Chord.Modifier> CTRL_ALT_SHIFT =
            Set.of(Chord.Modifier.CTRL, Chord.Modifier.ALT, Chord.Modifier.SHIFT);
    private static final int ESC = 9,
            LCTL = 37,
            LFSH = 50,
            RTSH = 62,
            LALT = 64,
            CAPS = 66,
            NMLK = 77,
            RCTL = 105,
            RALT = 108,
            LWIN = 133,
            SCRATCH = 200;

    /** A keyboard of keycodes 8..255, one keysym each, and its modifier map (rows Shift, Lock, Control, Mod1..Mod5). */
    private static Keyboard keyboard(Map<Integer, Long> keys, int[][] modmap) {
        long[] syms = new long[248];
        keys.forEach((kc, sym) -> syms[kc - 8] = sym);
        return new Keyboard(8, 1, syms, modmap);
    }

    private static Map<Integer, Long> usKeys() {
        Map<Integer, Long> k = new HashMap<>();
        k.put(ESC, Keyboard.ESCAPE);
        k.put(LCTL, Keyboard.CONTROL_L);
        k.put(RCTL, Keyboard.CONTROL_R);
        k.put(LFSH, Keyboard.SHIFT_L);
        k.put(RTSH, Keyboard.SHIFT_R);
        k.put(LALT, Keyboard.ALT_L);
        k.put(RALT, Keyboard.ALT_R);
        k.put(CAPS, Keyboard.CAPS_LOCK);
        k.put(NMLK, Keyboard.NUM_LOCK);
        k.put(LWIN, Keyboard.SUPER_L);
        k.put(38, (long) 'a');
        return k;
    }

    private static final Keyboard US =
            keyboard(usKeys(), new int[][] {{LFSH, RTSH}, {CAPS}, {LCTL, RCTL}, {LALT, RALT}, {NMLK}, {}, {LWIN}, {}});

    /** ctrl:swapcaps + caps:swapescape as the server maps them (xkbcomp): no Escape, Lock {ESC, LCTL}, Control {CAPS}. */
    private static Keyboard swapped(boolean scratchEscape) {
        Map<Integer, Long> k = usKeys();
        k.put(ESC, Keyboard.CAPS_LOCK);
        k.put(LCTL, Keyboard.CAPS_LOCK);
        k.put(CAPS, Keyboard.CONTROL_L);
        if (scratchEscape) k.put(SCRATCH, Keyboard.ESCAPE); // xdotool maps a spare keycode for a keysym with no key
        return keyboard(k, new int[][] {{LFSH, RTSH}, {ESC, LCTL}, {CAPS, RCTL}, {LALT, RALT}, {NMLK}, {}, {LWIN}, {}});
    }

    /** Presses {@code keys} in order, as raw events report them; true when the last one is the chord. */
    private static boolean press(StopChord chord, int... keys) {
        boolean[] down = new boolean[256];
        boolean fired = false;
        for (int k : keys) {
            down[k] = true;
            fired = chord.pressedBy(k, down);
        }
        return fired;
    }

    @Test
    void onTheUsMapTheChordIsItsKeysAndNothingElse() {
        StopChord c = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, US);
        assertEquals(Set.of(ESC), c.keys());
        assertEquals(Xlib.ControlMask | Xlib.Mod1Mask | Xlib.ShiftMask, c.modifiers());
        assertTrue(press(c, LCTL, LALT, LFSH, ESC));
        assertTrue(press(c, RCTL, RALT, RTSH, ESC), "either hand's modifiers");
        assertTrue(press(c, CAPS, NMLK, LCTL, LALT, LFSH, ESC), "lock keys held are ignored");
        assertFalse(press(c, LCTL, LALT, ESC), "ctrl+alt+Escape");
        assertFalse(press(c, ESC), "Escape alone");
        assertTrue(
                press(c, LCTL, LALT, LFSH, LWIN, ESC), "one modifier more still stops (a program may hold one down)");
        assertFalse(press(c, LCTL, LALT, LFSH, 38), "another key");
    }

    /** B9: the physical keys still stop by the keys at start; the current map's reading does not see them. */
    @Test
    void afterTheSwapThePhysicalKeysAreStopByTheKeysAtStart() {
        StopChord atStart = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, US);
        StopChord now = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, swapped(false));
        assertEquals(Set.of(), now.keys(), "no key types Escape any more");
        assertTrue(press(atStart, LCTL, LALT, LFSH, ESC), "the person's fingers: 37 64 50 9");
        assertFalse(press(now, LCTL, LALT, LFSH, ESC));
    }

    /** B9, the other way: xdotool reads the new map (Control on the CapsLock key, Escape on a scratch key). */
    @Test
    void afterTheSwapTheKeysByTheNewMapAreStopByTheMapNow() {
        StopChord atStart = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, US);
        StopChord now = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, swapped(true));
        assertEquals(Set.of(SCRATCH), now.keys());
        assertTrue(press(now, CAPS, LALT, LFSH, SCRATCH));
        assertFalse(press(atStart, CAPS, LALT, LFSH, SCRATCH), "at start that was CapsLock and no key");
        // caps:swapescape alone: Escape on the CapsLock key, Control where it was
        Map<Integer, Long> k = usKeys();
        k.put(ESC, Keyboard.CAPS_LOCK);
        k.put(CAPS, Keyboard.ESCAPE);
        StopChord swapEscape = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, keyboard(k, new int[][] {
            {LFSH, RTSH}, {ESC}, {LCTL, RCTL}, {LALT, RALT}, {NMLK}, {}, {LWIN}, {}
        }));
        assertTrue(press(swapEscape, LCTL, LALT, LFSH, CAPS));
        assertFalse(press(atStart, LCTL, LALT, LFSH, CAPS));
        assertTrue(
                press(atStart, LCTL, LALT, LFSH, ESC), "and the physical Escape key still stops by the keys at start");
    }

    /** Alt and Super swapped (altwin:swap_alt_win), and Alt moved to Mod3 (an xmodmap): the modifier follows its keysym. */
    @Test
    void theModifierBitsFollowTheirKeysyms() {
        Map<Integer, Long> k = usKeys();
        k.put(LALT, Keyboard.SUPER_L);
        k.put(LWIN, Keyboard.ALT_L);
        Keyboard altWin =
                keyboard(k, new int[][] {{LFSH, RTSH}, {CAPS}, {LCTL, RCTL}, {LWIN, RALT}, {NMLK}, {}, {LALT}, {}});
        StopChord atStart = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, US);
        StopChord now = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, altWin);
        assertTrue(press(atStart, LCTL, LALT, LFSH, ESC), "the physical Alt key");
        assertFalse(press(now, LCTL, LALT, LFSH, ESC), "by the new map that is ctrl+super+shift");
        assertTrue(press(now, LCTL, LWIN, LFSH, ESC), "the key now labelled Alt");

        Keyboard mod3 = keyboard(
                usKeys(), new int[][] {{LFSH, RTSH}, {CAPS}, {LCTL, RCTL}, {}, {NMLK}, {LALT, RALT}, {LWIN}, {}});
        StopChord moved = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, mod3);
        assertEquals(Xlib.ControlMask | Xlib.ShiftMask | 1 << 5, moved.modifiers(), "alt is Mod3 on that map");
        assertTrue(press(moved, LCTL, LALT, LFSH, ESC));
    }

    /**
     * A granted program that holds another modifier down ({@code xdotool keydown super} typed into a granted terminal,
     * round 2 of the review) or leaves a lock on must not switch Stop off: more modifiers than the chord's still stop.
     */
    @Test
    void anotherModifierHeldDownStillStops() {
        StopChord c = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, US);
        assertTrue(press(c, LCTL, LALT, LFSH, LWIN, ESC), "super held by a program");
        assertTrue(press(c, LCTL, LALT, LFSH, CAPS, NMLK, ESC), "locks on");
        assertTrue(press(c, LCTL, RCTL, LALT, RALT, LFSH, RTSH, ESC), "both keys of each modifier");
        assertFalse(press(c, LCTL, LALT, ESC), "without shift it is not the chord");
        assertFalse(press(c, LCTL, LALT, LFSH, LWIN, 38), "another key is not the chord");
    }

    @Test
    void theGrabsCoverEveryLockVariantOfEveryKey() {
        StopChord c = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, US);
        assertEquals(4, c.grabs().size(), "Lock and NumLock (Mod2); this map has no ScrollLock");
        assertTrue(c.grabs().stream().allMatch(g -> g[0] == ESC && (g[1] & c.modifiers()) == c.modifiers()));
        StopChord two = StopChord.of(CTRL_ALT_SHIFT, Keyboard.ESCAPE, swapped(true));
        assertEquals(Set.of(SCRATCH), two.keys());
        assertEquals(4, two.grabs().size());
    }

    @Test
    void aChangeIsTheKeysymsOfKeysThatHadSomeOrTheModifierMap() {
        assertEquals(Optional.empty(), US.changedSince(US, Set.of()));
        assertEquals(
                Optional.of("the keysyms of 3 keys and the modifier map"),
                swapped(false).changedSince(US, US.spares()));
        // a spare keycode remapped (Deckhand's type, xdotool's scratch key) is no change of the person's keys
        assertEquals(Optional.empty(), swapped(true).changedSince(swapped(false), US.spares()));
        assertTrue(US.spares().contains(SCRATCH));
        // the same keysyms with more NoSymbol columns per keycode are the same keys
        long[] wide = new long[248 * 2];
        for (int kc = 8; kc < 256; kc++) wide[(kc - 8) * 2] = usKeys().getOrDefault(kc, 0L);
        Keyboard widened = new Keyboard(
                8, 2, wide, new int[][] {{LFSH, RTSH}, {CAPS}, {LCTL, RCTL}, {LALT, RALT}, {NMLK}, {}, {LWIN}, {}});
        assertEquals(Optional.empty(), widened.changedSince(US, Set.of()));
    }

    @Test
    void theControlsAreNamed() {
        assertEquals("slow keys on, sticky keys on", KeyboardWatch.controls(1 << 1 | 1 << 3, 1 << 1 | 1 << 3 | 1));
        assertEquals("key repeat off", KeyboardWatch.controls(1, 0));
    }
}

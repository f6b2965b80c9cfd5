package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.Chord;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The driver only maps a normalised {@link Chord} to X: the modifier mask and the keysym. */
@Tag("pure")
class KeyChordTest {

    /** A stand-in for XStringToKeysym with the few names these cases use. */
    static final ToLongFunction<String> NAMES = n -> Map.of(
                    "Return", 0xff0dL, "Tab", 0xff09L, "F4", 0xffc1L, "Prior", 0xff55L, "space", 0x20L, "Escape",
                    0xff1bL)
            .getOrDefault(n, 0L);

    private static KeyChord x(String chord) {
        return KeyChord.of(Chord.parse(chord), NAMES);
    }

    @Test
    void mapsModifiersAndKeys() {
        assertEquals(new KeyChord(Xlib.ControlMask, 's'), x("ctrl+s"));
        assertEquals(new KeyChord(Xlib.ControlMask | Xlib.ShiftMask, 0xff09L), x("shift+ctrl+Tab"));
        assertEquals(
                new KeyChord(Xlib.Mod1Mask | Xlib.ShiftMask, 's'),
                x("alt+S"),
                "an upper-case letter is shift + its key");
        for (String enter : new String[] {"Enter", "Return", "return", "KP_Enter"}) {
            assertEquals(new KeyChord(0, 0xff0dL), x(enter), enter);
        }
        assertEquals(new KeyChord(0, 0xff55L), x("Page_Up"));
        assertEquals(new KeyChord(Xlib.ControlMask, 0x20L), x("ctrl+space"));
    }

    @Test
    void neverSendsASystemChord() {
        for (String c : new String[] {"super+d", "ctrl+alt+Right", "alt+F4", "alt+Tab", "Print", "XF86LogOff"}) {
            RefusedException e = assertThrows(RefusedException.class, () -> x(c), c);
            assertEquals(RefusalCode.SYSTEM_CHORD, e.code());
        }
        assertEquals(
                new KeyChord(Xlib.ControlMask | Xlib.Mod1Mask | Xlib.ShiftMask, 0xff1bL),
                KeyChord.grabbed(Chord.parseLenient("ctrl+alt+shift+Escape"), NAMES),
                "the Stop shortcut is grabbed, never sent");
    }

    @Test
    void keysymsOfPrintableCharactersOnly() {
        assertEquals('a', KeyChord.keysymOf('a'));
        assertEquals(0xe9L, KeyChord.keysymOf('é'), "Latin-1 is its own keysym");
        assertEquals(0x1002013L, KeyChord.keysymOf('–'), "beyond Latin-1: Unicode keysym");
        assertEquals(0x101f600L, KeyChord.keysymOf("😀".codePointAt(0)), "astral code points");
        for (int c : new int[] {'\n', '\t', 0x07, 0x1b, 0x7f, 0x85, 0x2028}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KeyChord.keysymOf(c));
            assertTrue(e.getMessage().contains("printable"), e.getMessage());
        }
    }
}

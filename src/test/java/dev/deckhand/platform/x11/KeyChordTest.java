package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;

class KeyChordTest {

    /** A stand-in for XStringToKeysym with the few names these cases use. */
    static final ToLongFunction<String> NAMES = n -> Map.of("Return", 0xff0dL, "Tab", 0xff09L, "F4", 0xffc1L,
            "Prior", 0xff55L, "plus", 0x2bL, "space", 0x20L).getOrDefault(n, 0L);

    @Test
    void parsesModifiersAndKeys() {
        assertEquals(new KeyChord(Xlib.ControlMask, 's'), KeyChord.parse("ctrl+s", NAMES));
        assertEquals(new KeyChord(Xlib.ControlMask | Xlib.ShiftMask, 0xff09L), KeyChord.parse("Ctrl+Shift+Tab", NAMES));
        assertEquals(new KeyChord(Xlib.Mod1Mask, 0xffc1L), KeyChord.parse("alt+F4", NAMES));
        assertEquals(new KeyChord(0, 0xff0dL), KeyChord.parse("Enter", NAMES));
        assertEquals(new KeyChord(0, 0xff55L), KeyChord.parse("pgup", NAMES));
        assertEquals(new KeyChord(Xlib.Mod4Mask, 'x'), KeyChord.parse("super+x", NAMES));
        assertEquals(new KeyChord(Xlib.ControlMask, '+'), KeyChord.parse("ctrl++", NAMES));
        assertEquals(new KeyChord(0, '+'), KeyChord.parse("+", NAMES));
        assertEquals(new KeyChord(Xlib.ControlMask, 0x20L), KeyChord.parse("ctrl+space", NAMES));
        assertEquals(new KeyChord(0, 0x10065e5L), KeyChord.parse("日", NAMES));
    }

    @Test
    void refusesUnknownPartsNamingThem() {
        IllegalArgumentException mod = assertThrows(IllegalArgumentException.class, () -> KeyChord.parse("hyper+a", NAMES));
        assertTrue(mod.getMessage().contains("hyper"), mod.getMessage());
        IllegalArgumentException key = assertThrows(IllegalArgumentException.class, () -> KeyChord.parse("ctrl+Nope", NAMES));
        assertTrue(key.getMessage().contains("Nope"), key.getMessage());
        assertThrows(IllegalArgumentException.class, () -> KeyChord.parse("  ", NAMES));
        assertThrows(IllegalArgumentException.class, () -> KeyChord.parse("ctrl+", NAMES));
    }

    @Test
    void keysymsOfCharacters() {
        assertEquals('a', KeyChord.keysymOf('a'));
        assertEquals(0xe9L, KeyChord.keysymOf('é'), "Latin-1 is its own keysym");
        assertEquals(0x1002013L, KeyChord.keysymOf('–'), "beyond Latin-1: Unicode keysym");
        assertEquals(0xff0dL, KeyChord.keysymOf('\n'));
        assertEquals(0xff09L, KeyChord.keysymOf('\t'));
        assertEquals(0x101f600L, KeyChord.keysymOf("😀".codePointAt(0)), "astral code points");
        assertThrows(IllegalArgumentException.class, () -> KeyChord.keysymOf(0x07));
    }
}

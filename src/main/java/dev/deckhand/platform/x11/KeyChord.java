package dev.deckhand.platform.x11;

import dev.deckhand.grant.Chord;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * A normalised {@link Chord} as X sends it: a modifier mask and a keysym. The grammar and its normal form
 * are decided once, in {@link Chord}; this only maps the key name to its keysym and the modifiers to their
 * mask. A system chord is refused here too ({@code SYSTEM_CHORD}), so no caller of the driver can send one.
 *
 * @param modifiers X modifier mask (ShiftMask, ControlMask, Mod1Mask, Mod4Mask)
 * @param keysym the key's X keysym
 */
record KeyChord(int modifiers, long keysym) {

    /** Key names of the grammar whose X keysym name differs. */
    private static final Map<String, String> X_NAMES =
            Map.of("Enter", "Return", "Page_Up", "Prior", "Page_Down", "Next", "SysRq", "Sys_Req");

    KeyChord {
        if (keysym <= 0) throw new IllegalArgumentException("keysym must be > 0, was " + keysym);
    }

    /**
     * The X form of {@code chord}; {@code keysymNamed} resolves X keysym names (XStringToKeysym, 0 when
     * unknown).
     *
     * @throws RefusedException {@code SYSTEM_CHORD} for a chord the desktop may take
     */
    static KeyChord of(Chord chord, ToLongFunction<String> keysymNamed) {
        chord.systemReason().ifPresent(why -> {
            throw new RefusedException(Refusal.systemChord("key " + chord + ": " + why));
        });
        return grabbed(chord, keysymNamed);
    }

    /**
     * The X form of a chord Deckhand grabs for the person (the Stop shortcut, a desktop chord on purpose);
     * never used to send keys.
     */
    static KeyChord grabbed(Chord chord, ToLongFunction<String> keysymNamed) {
        int mods = 0;
        for (Chord.Modifier m : chord.modifiers()) {
            mods |= switch (m) {
                case CTRL -> Xlib.ControlMask;
                case SHIFT -> Xlib.ShiftMask;
                case ALT, META -> Xlib.Mod1Mask;
                case SUPER, HYPER -> Xlib.Mod4Mask;
            };
        }
        String key = chord.key();
        long keysym =
                key.length() == 1 ? keysymOf(key.charAt(0)) : keysymNamed.applyAsLong(X_NAMES.getOrDefault(key, key));
        if (keysym == 0) throw new IllegalArgumentException("no X keysym for key '" + key + "'");
        return new KeyChord(mods, keysym);
    }

    /**
     * The X keysym that types code point {@code cp}: Latin-1 printable characters are their own keysym,
     * everything else printable is a Unicode keysym ({@code 0x01000000 | cp}).
     *
     * @throws IllegalArgumentException for a control character ({@code type} carries printable text only)
     */
    static long keysymOf(int cp) {
        if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return cp;
        if (Character.isISOControl(cp) || cp == 0x2028 || cp == 0x2029) {
            throw new IllegalArgumentException("text contains control character U+" + String.format("%04X", cp)
                    + "; type carries printable text only");
        }
        return 0x01000000L | cp;
    }
}

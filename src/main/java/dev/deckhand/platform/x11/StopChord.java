package dev.deckhand.platform.x11;

import dev.deckhand.grant.Chord;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The Stop chord's keys as one reading of the keyboard ({@link Keyboard}) gives them: the keycodes that type the
 * chord's key, the modifier bits the chord needs, which bits are lock keys, and which bits each keycode sets. A raw
 * press is the chord ({@link #pressedBy}) when it is one of those keycodes and the keys held set at least the chord's
 * modifiers — judged by this reading, whatever the keyboard maps now. At least, not exactly: a granted program that
 * holds another modifier down (a command running {@code xdotool keydown super}) must not switch Stop off.
 *
 * <p>{@link StopKeyGrab} keeps two: the keys the chord had when Stop was set up (the physical keys, as the person's
 * fingers know them; a granted program that remaps the keyboard cannot take them away) and the keys of the
 * keyboard's map now (a person who reads the keys' new labels, or changed the map themselves); either fires Stop.
 *
 * @param keys the keycodes that type the chord's key (any group or level); empty when none does
 * @param modifiers the modifier bits the chord needs
 * @param locks the bits of CapsLock, NumLock and ScrollLock, ignored when comparing
 * @param bits per keycode (0–255), the modifier bits it sets
 */
record StopChord(Set<Integer> keys, int modifiers, int locks, int[] bits) {

    StopChord {
        keys = Set.copyOf(keys);
        if (bits.length != 256) throw new IllegalArgumentException("bits per keycode: 256, not " + bits.length);
        bits = bits.clone();
    }

    /** The chord ({@code modifiers} of the grammar, {@code keysym} its key) as {@code keyboard} maps it. */
    static StopChord of(Set<Chord.Modifier> modifiers, long keysym, Keyboard keyboard) {
        int mods = 0;
        for (Chord.Modifier m : modifiers) {
            mods |= switch (m) {
                case CTRL -> Xlib.ControlMask;
                case SHIFT -> Xlib.ShiftMask;
                case ALT -> orElse(keyboard.rowsOf(Keyboard.ALT_L, Keyboard.ALT_R) & MOD_BITS, Xlib.Mod1Mask);
                case META ->
                    orElse(
                            keyboard.rowsOf(Keyboard.META_L, Keyboard.META_R) & MOD_BITS,
                            orElse(keyboard.rowsOf(Keyboard.ALT_L, Keyboard.ALT_R) & MOD_BITS, Xlib.Mod1Mask));
                case SUPER -> orElse(keyboard.rowsOf(Keyboard.SUPER_L, Keyboard.SUPER_R) & MOD_BITS, Xlib.Mod4Mask);
                case HYPER ->
                    orElse(
                            keyboard.rowsOf(Keyboard.HYPER_L, Keyboard.HYPER_R) & MOD_BITS,
                            orElse(keyboard.rowsOf(Keyboard.SUPER_L, Keyboard.SUPER_R) & MOD_BITS, Xlib.Mod4Mask));
            };
        }
        int locks = Xlib.LockMask | keyboard.rowsOf(Keyboard.NUM_LOCK) | keyboard.rowsOf(Keyboard.SCROLL_LOCK);
        locks &= ~mods; // a chord that names a modifier the map also uses as a lock still needs it
        int[] bits = new int[256];
        for (int kc = 0; kc < 256; kc++) bits[kc] = keyboard.bitsOf(kc);
        return new StopChord(keyboard.keycodesOf(keysym), mods, locks, bits);
    }

    /** Mod1..Mod5: where Alt, Meta, Super and Hyper may live. */
    private static final int MOD_BITS = 0xf8;

    private static int orElse(int bits, int fallback) {
        if (bits == 0) return fallback;
        return Integer.lowestOneBit(bits);
    }

    /**
     * Whether a raw press of {@code keycode}, with the keys in {@code down} held (the press's own key included or
     * not), is this chord: its key, and at least its modifiers set by the other keys held (any other modifier or
     * lock held as well).
     */
    boolean pressedBy(int keycode, boolean[] down) {
        if (!keys.contains(keycode)) return false;
        int held = 0;
        for (int kc = 0; kc < 256 && kc < down.length; kc++) if (down[kc] && kc != keycode) held |= bits[kc];
        return (held & modifiers) == modifiers;
    }

    /** The passive grabs that catch the chord by this reading: each key with the modifiers and every lock variant. */
    List<int[]> grabs() {
        List<Integer> distinct = new ArrayList<>();
        for (int bit = 0; bit < 8; bit++) if ((locks & 1 << bit) != 0) distinct.add(1 << bit);
        List<int[]> out = new ArrayList<>();
        for (int kc : new LinkedHashSet<>(keys)) {
            for (int subset = 0; subset < 1 << distinct.size(); subset++) {
                int extra = 0;
                for (int i = 0; i < distinct.size(); i++) if ((subset & 1 << i) != 0) extra |= distinct.get(i);
                out.add(new int[] {kc, modifiers | extra});
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StopChord s
                && s.keys.equals(keys)
                && s.modifiers == modifiers
                && s.locks == locks
                && java.util.Arrays.equals(s.bits, bits);
    }

    @Override
    public int hashCode() {
        return keys.hashCode() * 31 + modifiers * 7 + locks + java.util.Arrays.hashCode(bits);
    }

    @Override
    public String toString() {
        return "StopChord[keys=" + keys + ", modifiers=0x" + Integer.toHexString(modifiers) + ", locks=0x"
                + Integer.toHexString(locks) + "]";
    }
}

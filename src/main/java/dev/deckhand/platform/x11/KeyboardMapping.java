package dev.deckhand.platform.x11;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which keycode types which keysym on this keyboard: the mapping is read fresh for every key or text
 * (a layout switch is picked up), and a keysym the layout lacks gets a spare keycode (one with no
 * symbol) remapped with {@code XChangeKeyboardMapping} before the first event that needs it. The
 * remaps stay until a later text needs the spares or {@link #close()} resets them. One thread at a
 * time ({@link X11Display}'s lock).
 */
final class KeyboardMapping {

    private static final Xlib X = Xlib.X;

    private final XConnection c;
    /** Keycodes we mapped to characters the layout lacks, by keysym; restored on close. */
    private final Map<Long, Integer> remapped = new LinkedHashMap<>();

    KeyboardMapping(XConnection c) {
        this.c = c;
    }

    /** Keysym → {keycode, level 0|1}, spare keycodes, keysyms per keycode, as read at one moment. */
    static final class Keymap {
        final int perCode;
        final Map<Long, int[]> byKeysym = new HashMap<>();
        final List<Integer> spares = new ArrayList<>();

        /** From {@code XGetKeyboardMapping}: {@code perCode} keysyms for each of {@code count} keycodes from {@code min}. */
        Keymap(int min, int count, int perCode, long[] syms) {
            this(min, count, perCode, syms, 0);
        }

        /**
         * As {@link #Keymap(int, int, int, long[])}, for layout group {@code group} (0 or 1): the core mapping lists a
         * key's first group's two levels, then its second group's; a key with no symbol in that group types its first
         * group's, as XKB wraps a group the key lacks.
         */
        Keymap(int min, int count, int perCode, long[] syms, int group) {
            this.perCode = perCode;
            for (int level = 0; level < Math.min(2, perCode); level++) {
                for (int i = 0; i < count; i++) {
                    int column = 2 * group + level;
                    boolean inGroup = column < perCode && syms[i * perCode + 2 * group] != 0;
                    long s = syms[i * perCode + (inGroup ? column : level)];
                    if (s != 0) byKeysym.putIfAbsent(s, new int[] {min + i, level});
                }
            }
            for (int i = 0; i < count; i++) {
                boolean empty = true;
                for (int l = 0; l < perCode; l++) empty &= syms[i * perCode + l] == 0;
                if (empty) spares.add(min + i);
            }
        }
    }

    /** The keyboard mapping as the server holds it now, for its first layout group. */
    Keymap read() {
        return read(0);
    }

    /** What of the keyboard's XKB state decides which symbol an XTEST key types. */
    record XkbState(int group, int lockedGroup, int latchedGroup, int latchedMods, int lockedMods) {}

    /** The keyboard's XKB state now ({@code XkbGetState}). */
    XkbState xkbState() {
        com.sun.jna.Memory state = new com.sun.jna.Memory(32);
        state.clear();
        if (X.XkbGetState(c.dpy, Xlib.XkbUseCoreKbd, state) != 0) {
            throw new RefusedException(Refusal.platformUnsupported("cannot read the keyboard's XKB state"));
        }
        // XkbStateRec: group, locked_group (bytes), base_group, latched_group (shorts), mods, base_mods,
        // latched_mods, locked_mods (bytes)
        return new XkbState(
                state.getByte(0) & 0xff,
                state.getByte(1) & 0xff,
                state.getShort(4),
                state.getByte(8) & 0xff,
                state.getByte(9) & 0xff);
    }

    /**
     * The keyboard mapping for the layout group the server applies to keys now (XKB's effective group): what XTEST
     * keys type. Round 16: with a second layout's group locked, {@code ctrl+b} by the first group's keycodes arrived
     * as {@code ctrl+v} (a paste the gate never judged) and typed text as other letters. Refused where the state
     * would make keys type other than judged and cannot be mapped for: a latched group or latched modifiers (they
     * change the first key only: round 17's L1, L2 typed "/tmp/.canary" from other letters), a third or fourth group
     * (the core mapping does not list them reliably), and, for text, Caps Lock (round 17's L3: letters in the other
     * case, where a path's case decides whether it is denied).
     *
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} naming the state
     */
    Keymap readForEffectiveGroup(XkbState s, boolean text) {
        if (s.latchedGroup() != 0 || s.latchedMods() != 0) {
            throw new RefusedException(Refusal.platformUnsupported("the keyboard has a latched "
                    + (s.latchedGroup() != 0 ? "layout group" : "modifier (sticky keys)")
                    + ", which changes the next key only; keys are refused until it is used or released"));
        }
        if (s.group() > 1) {
            throw new RefusedException(Refusal.platformUnsupported("the keyboard's layout group " + (s.group() + 1)
                    + " is active; Deckhand sends keys in the first two groups only"));
        }
        if (text && (s.lockedMods() & Xlib.LockMask) != 0) {
            throw new RefusedException(Refusal.platformUnsupported(
                    "Caps Lock is on: typed letters would arrive in the other case; refused until it is off"));
        }
        return read(s.group());
    }

    private Keymap read(int group) {
        IntByReference min = new IntByReference(), max = new IntByReference(), per = new IntByReference();
        X.XDisplayKeycodes(c.dpy, min, max);
        int count = max.getValue() - min.getValue() + 1;
        Pointer p = X.XGetKeyboardMapping(c.dpy, min.getValue(), count, per);
        if (p == null) throw new RefusedException(Refusal.platformUnsupported("cannot read the keyboard mapping"));
        try {
            return new Keymap(min.getValue(), count, per.getValue(), p.getLongArray(0, count * per.getValue()), group);
        } finally {
            X.XFree(p);
        }
    }

    /**
     * {keycode, level} for each keysym, mapping spare keycodes for keysyms the layout lacks. Every
     * keysym this call needs gets its own keycode, mapped before any event is sent.
     *
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} when more distinct keysyms are missing than
     *     there are spare keycodes
     */
    int[][] keycodes(Keymap map, long[] keysyms) {
        Set<Long> missing = new LinkedHashSet<>();
        for (long s : keysyms) {
            if (!map.byKeysym.containsKey(s)) missing.add(s);
        }
        if (!missing.isEmpty()) {
            // Our earlier remaps that the map still shows are usable as they are.
            List<Integer> free = new ArrayList<>(map.spares);
            int available = free.size() + remapped.size();
            if (missing.size() > available) {
                throw new RefusedException(Refusal.platformUnsupported("text needs " + missing.size()
                        + " characters the keyboard layout lacks; only " + available + " spare keycodes exist"));
            }
            if (missing.size() > free.size()) reset(map);
            free = new ArrayList<>(spareKeycodes(map));
            int i = 0;
            for (long s : missing) {
                int kc = free.get(i++);
                long[] row = new long[map.perCode];
                java.util.Arrays.fill(row, s);
                X.XChangeKeyboardMapping(c.dpy, kc, map.perCode, row, 1);
                remapped.put(s, kc);
                map.byKeysym.put(s, new int[] {kc, 0});
            }
            c.sync();
        }
        int[][] out = new int[keysyms.length][];
        for (int i = 0; i < keysyms.length; i++) out[i] = map.byKeysym.get(keysyms[i]);
        return out;
    }

    private List<Integer> spareKeycodes(Keymap map) {
        List<Integer> free = new ArrayList<>(map.spares);
        free.removeAll(remapped.values());
        return free;
    }

    private void reset(Keymap map) {
        for (Map.Entry<Long, Integer> e : remapped.entrySet()) {
            X.XChangeKeyboardMapping(c.dpy, e.getValue(), map.perCode, new long[map.perCode], 1);
            map.byKeysym.remove(e.getKey());
            map.spares.add(e.getValue());
        }
        remapped.clear();
        c.sync();
    }

    /**
     * The keycodes of the modifier keys in {@code mask} (Control, Shift, Alt, Super, in that order).
     *
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} when the keyboard has no key for one of them
     */
    List<Integer> modifierKeycodes(Keymap map, int mask) {
        List<Integer> out = new ArrayList<>();
        long[][] names = {
            {Xlib.ControlMask, 0xffe3L}, // Control_L
            {Xlib.ShiftMask, 0xffe1L}, // Shift_L
            {Xlib.Mod1Mask, 0xffe9L}, // Alt_L
            {Xlib.Mod4Mask, 0xffebL}, // Super_L
        };
        for (long[] n : names) {
            if ((mask & n[0]) != 0) {
                int[] kc = map.byKeysym.get(n[1]);
                if (kc == null) {
                    throw new RefusedException(Refusal.platformUnsupported(
                            "the keyboard mapping has no key for modifier keysym 0x" + Long.toHexString(n[1])));
                }
                out.add(kc[0]);
            }
        }
        return out;
    }

    /** Resets every keycode this connection remapped (the connection is about to close). */
    void close() {
        if (!remapped.isEmpty()) reset(read());
    }
}

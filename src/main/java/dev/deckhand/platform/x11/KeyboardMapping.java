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

    /** keysymdef.h: {@code XK_Num_Lock}, and the keypad keysyms' range ({@code IsKeypadKey}: KP_Space..KP_Equal). */
    static final long NUM_LOCK = 0xff7fL, KP_SPACE = 0xff80L, KP_EQUAL = 0xffbdL;

    /** The AccessX controls that drop, delay or re-map keys, and what each does, for the refusal's words. */
    private static final int[] KEY_CONTROLS = {
        Xlib.XkbSlowKeysMask, Xlib.XkbBounceKeysMask, Xlib.XkbOverlay1Mask, Xlib.XkbOverlay2Mask
    };

    private static final String[] KEY_CONTROL_WORDS = {
        "SlowKeys (a key counts only once held for a delay, a shorter press is dropped)",
        "BounceKeys (a key pressed again within a delay is dropped: \"//eettcc\" typed \"/etc\")",
        "Overlay1 (the overlay's keys arrive as other keys)",
        "Overlay2 (the overlay's keys arrive as other keys)"
    };

    private static final String[] MODIFIER_NAMES = {"Shift", "Lock", "Control", "Mod1", "Mod2", "Mod3", "Mod4", "Mod5"};

    private final XConnection c;
    /** Keycodes we mapped to characters the layout lacks, by keysym; restored on close. */
    private final Map<Long, Integer> remapped = new LinkedHashMap<>();

    KeyboardMapping(XConnection c) {
        this.c = c;
    }

    /**
     * Keysym → {keycode, level 0|1}, spare keycodes, keysyms per keycode, the keycodes of Num Lock, as read at one
     * moment. Keypad keys (a key with a keypad keysym at any group or level: {@code KP_7}, {@code KP_Delete}) never
     * type: Num Lock decides their level, and a layout option may put a character on one ({@code kpdl:dot} gives
     * {@code KP_Delete, period}); a character found only there gets a spare keycode instead.
     */
    static final class Keymap {
        final int perCode;
        final Map<Long, int[]> byKeysym = new HashMap<>();
        final List<Integer> spares = new ArrayList<>();
        /** The keycodes with {@code Num_Lock} at any group or level. */
        final Set<Integer> numLock = new LinkedHashSet<>();

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
            boolean[] keypad = new boolean[count];
            for (int i = 0; i < count; i++) {
                for (int l = 0; l < perCode; l++) {
                    long s = syms[i * perCode + l];
                    keypad[i] |= s >= KP_SPACE && s <= KP_EQUAL;
                    if (s == NUM_LOCK) numLock.add(min + i);
                }
            }
            for (int level = 0; level < Math.min(2, perCode); level++) {
                for (int i = 0; i < count; i++) {
                    if (keypad[i]) continue;
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
     * would make keys type other than judged and cannot be mapped for:
     *
     * <ul>
     *   <li>a latched group or latched modifiers (they change the first key only: round 17's L1, L2 typed
     *       "/tmp/.canary" from other letters);
     *   <li>a third or fourth group (the core mapping does not list them reliably);
     *   <li>any locked modifier but Num Lock, for keys and text alike: Caps Lock (round 17's L3: letters in the other
     *       case, where a path's case decides whether it is denied), Shift locked (round 18's M1, M2: {@code key
     *       Insert} arrived as {@code shift+Insert}, a paste, and {@code "/1."} typed as {@code "?!>"}), any other
     *       (round 18's L3: Mod5, the third level, locked under us(intl) typed {@code " test"} as {@code " þéßþ"});
     *   <li>an AccessX control that drops, delays or re-maps keys: SlowKeys, BounceKeys (round 18's K1, K1d: a
     *       repeated key was dropped, {@code " /tmp/?.canary"} typed "/tmp/.canary"), Overlay1, Overlay2. StickyKeys
     *       stays allowed: it only latches and locks modifiers, which are refused above.
     * </ul>
     *
     * <p>Num Lock is allowed because it changes the level of keypad keys only (the key type that reads it is the
     * keypad's), and Deckhand sends none: keypad keys are not in the key grammar ({@code KP_Enter} is {@code Enter},
     * sent by the Return key) and text never types by them ({@link Keymap}). Its modifier is read from the modifier
     * map as the server holds it, not assumed to be Mod2 ({@code XGetModifierMapping}, the rows holding a key with
     * {@code Num_Lock}); Xlib's cached answer ({@code XkbKeysymToModifiers}) was measured to keep the old modifier
     * after another client moved Num Lock to Mod3.
     *
     * <p>Cost, on top of the caller's {@code XkbGetState} and this keymap's {@code XGetKeyboardMapping}: one round
     * trip for the controls ({@code XkbGetControls}), and one more for the modifier map only while a modifier is
     * locked (about 35 µs each against a local Xvfb).
     *
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} naming the state
     */
    Keymap readForEffectiveGroup(XkbState s) {
        if (s.latchedGroup() != 0 || s.latchedMods() != 0) {
            throw new RefusedException(Refusal.platformUnsupported("the keyboard has a latched "
                    + (s.latchedGroup() != 0 ? "layout group" : "modifier (sticky keys)")
                    + ", which changes the next key only; keys are refused until it is used or released"));
        }
        if (s.group() > 1) {
            throw new RefusedException(Refusal.platformUnsupported("the keyboard's layout group " + (s.group() + 1)
                    + " is active; Deckhand sends keys in the first two groups only"));
        }
        refuseKeyControls(enabledControls());
        Keymap map = read(s.group());
        int locked = s.lockedMods();
        if (locked != 0) locked &= ~numLockMask(map);
        if (locked != 0) throw new RefusedException(Refusal.platformUnsupported(lockedWords(locked)));
        return map;
    }

    /** What the locked modifiers in {@code locked} (Num Lock's left out) do to keys, for the refusal. */
    static String lockedWords(int locked) {
        List<String> what = new ArrayList<>();
        if ((locked & Xlib.ShiftMask) != 0) {
            what.add("Shift Lock is on: keys would arrive with Shift (key Insert as shift+Insert, a paste) and"
                    + " typed text as the shifted characters");
        }
        if ((locked & Xlib.LockMask) != 0) {
            what.add("Caps Lock is on: typed letters would arrive in the other case");
        }
        for (int bit = 2; bit < 8; bit++) {
            if ((locked & (1 << bit)) != 0) {
                what.add("a locked modifier (" + MODIFIER_NAMES[bit] + ") is on: keys would arrive with it, as"
                        + " other characters or chords");
            }
        }
        return String.join("; ", what) + "; keys and text are refused until " + (what.size() > 1 ? "they are" : "it is")
                + " off";
    }

    /**
     * Refuses keys while an AccessX control in {@code enabled} drops, delays or re-maps them.
     *
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} naming the controls
     */
    static void refuseKeyControls(int enabled) {
        List<String> on = new ArrayList<>();
        for (int i = 0; i < KEY_CONTROLS.length; i++) {
            if ((enabled & KEY_CONTROLS[i]) != 0) on.add(KEY_CONTROL_WORDS[i]);
        }
        if (!on.isEmpty()) {
            throw new RefusedException(Refusal.platformUnsupported("the keyboard's AccessX " + String.join(" and ", on)
                    + (on.size() > 1 ? " are" : " is") + " on; keys and text are refused until "
                    + (on.size() > 1 ? "they are" : "it is") + " off"));
        }
    }

    /** The keyboard's enabled XKB controls ({@code enabled_ctrls}) now: one request and its reply. */
    int enabledControls() {
        Pointer desc = X.XkbAllocKeyboard();
        if (desc == null) {
            throw new RefusedException(Refusal.platformUnsupported("cannot read the keyboard's XKB controls"));
        }
        try {
            Pointer ctrls = X.XkbGetControls(c.dpy, Xlib.XkbControlsEnabledMask, desc) == Xlib.Success
                    ? desc.getPointer(Xlib.XKB_DESC_CTRLS)
                    : null;
            if (ctrls == null) {
                throw new RefusedException(Refusal.platformUnsupported("cannot read the keyboard's XKB controls"));
            }
            return ctrls.getInt(Xlib.XKB_CTRLS_ENABLED);
        } finally {
            X.XkbFreeKeyboard(desc, Xlib.XkbAllComponentsMask, Xlib.True);
        }
    }

    /**
     * The modifier bits Num Lock sets: the rows of the modifier map (read now, one round trip) that hold a keycode
     * of {@code map} with {@code Num_Lock}; 0 when there is none, or the map cannot be read (every lock refuses).
     */
    private int numLockMask(Keymap map) {
        if (map.numLock.isEmpty()) return 0;
        Pointer mm = X.XGetModifierMapping(c.dpy);
        if (mm == null) return 0;
        try {
            int per = mm.getInt(Xlib.MODMAP_MAX);
            Pointer codes = mm.getPointer(Xlib.MODMAP_MAP);
            int mask = 0;
            for (int mod = 0; mod < 8; mod++) {
                for (int i = 0; i < per; i++) {
                    if (map.numLock.contains(codes.getByte((long) mod * per + i) & 0xff)) mask |= 1 << mod;
                }
            }
            return mask;
        } finally {
            X.XFreeModifiermap(mm);
        }
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

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
        Xlib.XkbSlowKeysMask, Xlib.XkbBounceKeysMask, Xlib.XkbOverlay1Mask, Xlib.XkbOverlay2Mask, Xlib.XkbMouseKeysMask
    };

    private static final String[] KEY_CONTROL_WORDS = {
        "SlowKeys (a key counts only once held for a delay, a shorter press is dropped)",
        "BounceKeys (a key pressed again within a delay is dropped: \"//eettcc\" typed \"/etc\")",
        "Overlay1 (the overlay's keys arrive as other keys)",
        "Overlay2 (the overlay's keys arrive as other keys)",
        "MouseKeys (a key with a pointer action clicks or moves the pointer, wherever it is: round 19's K3)"
    };

    /** XKB.h's action types by number ({@code XkbSA_NoAction} 0 .. {@code XkbSA_DeviceValuator} 0x14). */
    private static final String[] ACTION_NAMES = {
        "NoAction",
        "SetMods",
        "LatchMods",
        "LockMods",
        "SetGroup",
        "LatchGroup",
        "LockGroup",
        "MovePtr",
        "PtrBtn",
        "LockPtrBtn",
        "SetPtrDflt",
        "ISOLock",
        "Terminate",
        "SwitchScreen",
        "SetControls",
        "LockControls",
        "ActionMessage",
        "RedirectKey",
        "DeviceBtn",
        "LockDeviceBtn",
        "DeviceValuator"
    };

    private static final String[] MODIFIER_NAMES = {"Shift", "Lock", "Control", "Mod1", "Mod2", "Mod3", "Mod4", "Mod5"};

    /** The modifier keys Deckhand presses, in that order: {modifier bit, keysym}. */
    static final long[][] MODIFIER_KEYS = {
        {Xlib.ControlMask, 0xffe3L}, // Control_L
        {Xlib.ShiftMask, 0xffe1L}, // Shift_L
        {Xlib.Mod1Mask, 0xffe9L}, // Alt_L
        {Xlib.Mod4Mask, 0xffebL}, // Super_L
    };

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
     *       repeated key was dropped, {@code " /tmp/?.canary"} typed "/tmp/.canary"), Overlay1, Overlay2, and MouseKeys (round 19's K3: a key's pointer action clicked under the
     *       person's pointer). StickyKeys
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

    /** The server's XKB keyboard map now ({@code XkbGetMap}): one request and its reply, for one send. */
    ServerKeys serverKeys() {
        Pointer desc = X.XkbGetMap(c.dpy, Xlib.XkbAllClientInfoMask | Xlib.XkbAllServerInfoMask, Xlib.XkbUseCoreKbd);
        if (desc == null) throw new RefusedException(Refusal.platformUnsupported("cannot read the keyboard's XKB map"));
        return new ServerKeys(desc);
    }

    /**
     * The keyboard's XKB map as the server holds it, to measure what a key Deckhand is about to press makes: the
     * keysym ({@code XkbTranslateKeyCode}, under the modifiers held and locked and the group) and the action
     * ({@code key_acts}, {@code acts}) at the level the key's type picks. Round 19: keymaps loaded with xkbcomp kept a
     * key's keysyms and gave it an action ({@code RedirectKey} to ctrl+v: {@code " q"} pasted; {@code PtrBtn}:
     * {@code "q"} clicked under the person's pointer) or a type whose level Num Lock picks ({@code KEYPAD} with
     * {@code [q, period]}: {@code " /tmp/qcanary"} typed "/tmp/.canary"). Offsets: {@link Xlib#XKB_DESC_MAP}.
     */
    final class ServerKeys implements AutoCloseable {
        private final Pointer desc, map, keySymMap, types, syms, keyActs, acts, behaviors;
        private final int min, max;
        /** Keysyms measured in this send, by {@code keycode << 16 | core state}; and XkbTranslateKeyCode's outputs. */
        private final Map<Integer, Long> translated = new HashMap<>();

        private final com.sun.jna.ptr.LongByReference sym = new com.sun.jna.ptr.LongByReference();
        private final IntByReference consumed = new IntByReference();

        private ServerKeys(Pointer desc) {
            this.desc = desc;
            this.min = desc.getByte(Xlib.XKB_DESC_MIN_KEY) & 0xff;
            this.max = desc.getByte(Xlib.XKB_DESC_MAX_KEY) & 0xff;
            this.map = desc.getPointer(Xlib.XKB_DESC_MAP);
            if (map == null || desc.getPointer(Xlib.XKB_DESC_SERVER) == null) {
                X.XkbFreeKeyboard(desc, 0, Xlib.True);
                throw new RefusedException(Refusal.platformUnsupported("cannot read the keyboard's XKB map"));
            }
            this.keySymMap = map.getPointer(Xlib.XKB_MAP_KEY_SYM_MAP);
            this.types = map.getPointer(Xlib.XKB_MAP_TYPES);
            this.syms = map.getPointer(Xlib.XKB_MAP_SYMS);
            Pointer server = desc.getPointer(Xlib.XKB_DESC_SERVER);
            this.keyActs = server.getPointer(Xlib.XKB_SERVER_KEY_ACTS);
            this.acts = server.getPointer(Xlib.XKB_SERVER_ACTS);
            this.behaviors = server.getPointer(Xlib.XKB_SERVER_BEHAVIORS);
        }

        /**
         * Refuses unless {@code keycode} has the default key behaviour ({@code XkbKB_Default}) in the server's keymap.
         * Round 20's D1: {@code <LCTL>} with {@code locks= true} ({@code XkbKB_Lock}) kept Control down after its
         * release, so {@code type " v"} after {@code key ctrl+End} pasted, and the person's Control stayed locked. A
         * radio group releases other keys, an overlay sends another keycode, a permanent variant is the same behaviour
         * the server keeps; none is Deckhand's to press through. Checked for every key about to be pressed, modifier
         * keys included; the behaviours come with the map already read ({@code XkbKeyBehaviorsMask} is in {@link
         * Xlib#XkbAllServerInfoMask}), so this costs no request.
         */
        void requireDefaultBehavior(String what, int keycode) {
            if (keycode < min || keycode > max) throw wrongKeysym(what, keycode);
            if (behaviors == null) {
                throw new RefusedException(Refusal.platformUnsupported("cannot read the keyboard's key behaviours"));
            }
            Pointer b = behaviors.share((long) keycode * Xlib.XKB_BEHAVIOR_SIZE);
            int type = b.getByte(Xlib.XKB_BEHAVIOR_TYPE) & 0xff;
            if (type != Xlib.XkbKB_Default) {
                throw new RefusedException(Refusal.platformUnsupported(what + ": the key at " + position(keycode)
                        + " has the XKB key behaviour " + behaviorName(type, b.getByte(Xlib.XKB_BEHAVIOR_DATA) & 0xff)
                        + " in the server's keymap, so the server would not press and release it as sent; not sent"));
            }
        }

        /**
         * Refuses unless {@code keycode} makes {@code keysym} at the level Deckhand picked ({@code level}: Shift or 0,
         * with the modifiers locked now), the other modifiers {@code held} down with it (by keys checked with {@link
         * #requireModifierKey}) change its keysym no more than Shift alone does, and it carries no action there.
         *
         * @param what the key for the refusal, {@code "key ctrl+s"} or {@code "text"} (never the text itself)
         * @throws RefusedException {@code PLATFORM_UNSUPPORTED} naming the key position and what it would do
         */
        void requirePlainKey(String what, int keycode, int level, int held, XkbState s, long keysym) {
            requireDefaultBehavior(what, keycode);
            if (translate(keycode, level, s) != keysym
                    || translate(keycode, held, s) != translate(keycode, held & Xlib.ShiftMask, s)) {
                throw wrongKeysym(what, keycode);
            }
            int type = actionAt(what, keycode, held, s) & 0xff;
            if (type != Xlib.XkbSA_NoAction) {
                throw new RefusedException(Refusal.platformUnsupported(what + ": the key at " + position(keycode)
                        + " carries the XKB action " + actionName(type) + " in the server's keymap, so pressing it"
                        + " would do that instead of, or besides, typing its keysym; not sent"));
            }
        }

        /**
         * Refuses unless the modifier key {@code keycode}, pressed as {@code modifier} with {@code held} down, carries
         * an action that only sets, latches or locks {@code modifier}. Its keysym may change with the modifiers held
         * ({@code Alt_L} is {@code Meta_L} with Shift): what it does is its action.
         */
        void requireModifierKey(String what, int keycode, int held, XkbState s, int modifier) {
            requireDefaultBehavior(what, keycode);
            int action = actionAt(what, keycode, held, s);
            int type = action & 0xff;
            int flags = (action >>> 8) & 0xff;
            int mods = (flags & Xlib.XkbSA_UseModMapMods) != 0 ? modmap(keycode) : (action >>> 16) & 0xff;
            boolean modAction = type >= Xlib.XkbSA_SetMods && type <= Xlib.XkbSA_LockMods;
            if (!modAction || mods != modifier) {
                throw new RefusedException(Refusal.platformUnsupported(what + ": the modifier key at "
                        + position(keycode) + " carries the XKB action " + actionName(type)
                        + (modAction ? " of modifiers 0x" + Integer.toHexString(mods) : "")
                        + " in the server's keymap, not one that sets " + modifierName(modifier)
                        + " alone, so the chord would arrive as another; not sent"));
            }
        }

        /** The keysym the server's keymap makes of {@code keycode} with {@code mods} and the locked ones, in the group. */
        private long translate(int keycode, int mods, XkbState s) {
            if (keycode < min || keycode > max) return 0;
            int state = coreState(mods, s);
            return translated.computeIfAbsent(keycode << 16 | state, k -> {
                X.XkbTranslateKeyCode(desc, (byte) keycode, state, consumed, sym);
                return sym.getValue();
            });
        }

        private int coreState(int mods, XkbState s) {
            return mods | s.lockedMods() | (s.group() << 13);
        }

        /**
         * The action of the key at the level its type picks with {@code held} down ({@code type | flags << 8 | mask
         * << 16}; type 0, NoAction, for none). The column is found as libX11's {@code XkbTranslateKeyCode} finds it
         * (XKBBind.c) and checked against that function's keysym, so the action read is the one beside it.
         */
        private int actionAt(String what, int keycode, int held, XkbState s) {
            if (keycode < min || keycode > max) throw wrongKeysym(what, keycode);
            int state = coreState(held, s);
            Pointer symMap = keySymMap.share((long) keycode * Xlib.XKB_SYM_MAP_SIZE);
            int info = symMap.getByte(Xlib.XKB_SYM_MAP_GROUP_INFO) & 0xff;
            int groups = info & 0x0f;
            if (groups == 0) throw wrongKeysym(what, keycode);
            int group = s.group();
            if (group >= groups) {
                switch (info & 0xc0) {
                    case 0x80 -> group = ((info >>> 4) & 0x03) < groups ? (info >>> 4) & 0x03 : 0; // redirect
                    case 0x40 -> group = groups - 1; // clamp
                    default -> group %= groups; // wrap
                }
            }
            Pointer type = types.share((long) (symMap.getByte(group) & 0xff) * Xlib.XKB_TYPE_SIZE);
            int typeMods = state & type.getByte(0) & 0xff;
            int level = 0;
            int entries = type.getByte(Xlib.XKB_TYPE_MAP_COUNT) & 0xff;
            Pointer entry = entries == 0 ? null : type.getPointer(Xlib.XKB_TYPE_MAP);
            for (int i = 0; i < entries; i++) {
                long at = (long) i * Xlib.XKB_ENTRY_SIZE;
                if (entry.getInt(at) != 0 && (entry.getByte(at + Xlib.XKB_ENTRY_MODS_MASK) & 0xff) == typeMods) {
                    level = entry.getByte(at + Xlib.XKB_ENTRY_LEVEL) & 0xff;
                    break;
                }
            }
            int column = group * (symMap.getByte(Xlib.XKB_SYM_MAP_WIDTH) & 0xff) + level;
            int offset = symMap.getShort(Xlib.XKB_SYM_MAP_OFFSET) & 0xffff;
            if (syms.getLong((long) (offset + column) * 8) != translate(keycode, held, s)) {
                throw wrongKeysym(what, keycode); // not the column libX11 read: the action beside it is unknown
            }
            int first = keyActs.getShort((long) keycode * 2) & 0xffff;
            if (first == 0) return Xlib.XkbSA_NoAction;
            Pointer act = acts.share((long) (first + column) * Xlib.XKB_ACTION_SIZE);
            return (act.getByte(0) & 0xff)
                    | (act.getByte(Xlib.XKB_ACTION_FLAGS) & 0xff) << 8
                    | (act.getByte(Xlib.XKB_ACTION_MASK) & 0xff) << 16;
        }

        private int modmap(int keycode) {
            return desc.getPointer(Xlib.XKB_DESC_MAP)
                            .getPointer(Xlib.XKB_MAP_MODMAP)
                            .getByte(keycode)
                    & 0xff;
        }

        private RefusedException wrongKeysym(String what, int keycode) {
            return new RefusedException(Refusal.platformUnsupported(what + ": the key at " + position(keycode)
                    + " would not make the keysym judged: the server's keymap gives it another under the modifiers"
                    + " held and locked now (its key type reads them, as KEYPAD reads Num Lock); not sent"));
        }

        /** {@code "keycode 24 (<AD01>)"}: the key's name is read (one more round trip) only for a refusal. */
        private String position(int keycode) {
            String name = "";
            if (X.XkbGetNames(c.dpy, Xlib.XkbKeyNamesMask, desc) == Xlib.Success) {
                Pointer names = desc.getPointer(Xlib.XKB_DESC_NAMES);
                Pointer keys = names == null ? null : names.getPointer(Xlib.XKB_NAMES_KEYS);
                if (keys != null && keycode >= min && keycode <= max) {
                    byte[] b = keys.getByteArray((long) keycode * 4, 4);
                    int n = 0;
                    while (n < 4 && b[n] != 0) n++;
                    name = new String(b, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
                }
            }
            return "keycode " + keycode + (name.isEmpty() ? "" : " (<" + name + ">)");
        }

        @Override
        public void close() {
            X.XkbFreeKeyboard(desc, 0, Xlib.True);
        }
    }

    private static String actionName(int type) {
        if (type < ACTION_NAMES.length) return ACTION_NAMES[type];
        return type == 0x86 ? "XFree86Private" : "a private action (0x" + Integer.toHexString(type) + ")";
    }

    /** XKB.h's key behaviours ({@code XkbKB_Lock} 1 .. {@code XkbKB_Overlay2} 4; {@code XkbKB_Permanent} 0x80 set). */
    static String behaviorName(int type, int data) {
        String[] names = {
            "Default",
            "Lock (a press locks the key down, the next press releases it)",
            "RadioGroup " + (data & 0x7f) + " (pressing it releases the group's other keys)",
            "Overlay1 (the key may arrive as keycode " + data + ")",
            "Overlay2 (the key may arrive as keycode " + data + ")"
        };
        int op = type & Xlib.XkbKB_OpMask;
        String name = op < names.length ? names[op] : "a private behaviour (0x" + Integer.toHexString(op) + ")";
        return (type & Xlib.XkbKB_Permanent) != 0 ? "Permanent " + name : name;
    }

    private static String modifierName(int mask) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < 8; bit++) {
            if ((mask & (1 << bit)) != 0) names.add(MODIFIER_NAMES[bit]);
        }
        return String.join("+", names);
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
        for (long[] n : MODIFIER_KEYS) {
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

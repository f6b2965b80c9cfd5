package dev.deckhand.platform.x11;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The keyboard as one reading saw it: the keysyms of every keycode (the core mapping, every group and level the
 * server reports) and the modifier map (which keycodes set which of the eight modifier bits). Read with two
 * requests ({@link #read}), never from Xlib's cache, so a map another client has just changed reads as it is.
 * Immutable; built from plain arrays too, for tests.
 */
final class Keyboard {

    static final long CONTROL_L = 0xffe3L,
            CONTROL_R = 0xffe4L,
            SHIFT_L = 0xffe1L,
            SHIFT_R = 0xffe2L,
            ALT_L = 0xffe9L,
            ALT_R = 0xffeaL,
            META_L = 0xffe7L,
            META_R = 0xffe8L,
            SUPER_L = 0xffebL,
            SUPER_R = 0xffecL,
            HYPER_L = 0xffedL,
            HYPER_R = 0xffeeL,
            CAPS_LOCK = 0xffe5L,
            NUM_LOCK = 0xff7fL,
            SCROLL_LOCK = 0xff14L,
            ESCAPE = 0xff1bL;

    private final int minKeycode;
    private final int perCode;
    private final long[] syms;
    /** Eight rows (Shift, Lock, Control, Mod1..Mod5), each the keycodes in it. */
    private final int[][] modmap;
    /**
     * What each keycode does beside its keysyms, by keycode (0..255): its XKB behaviour (2 bytes) then its actions
     * (8 bytes a column), trailing zeros trimmed; null when not read ({@link #read} alone, the Stop shortcut's).
     */
    private final byte[][] does;

    /**
     * @param syms {@code perCode} keysyms for each keycode from {@code minKeycode} on, as
     *     {@code XGetKeyboardMapping} returns them
     * @param modmap eight rows of keycodes (zeros are skipped)
     */
    Keyboard(int minKeycode, int perCode, long[] syms, int[][] modmap) {
        this(minKeycode, perCode, syms, modmap, null);
    }

    /** As {@link #Keyboard(int, int, long[], int[][])}, with what each keycode does ({@code does}, by keycode). */
    Keyboard(int minKeycode, int perCode, long[] syms, int[][] modmap, byte[][] does) {
        if (modmap.length != 8) throw new IllegalArgumentException("the modifier map has 8 rows, not " + modmap.length);
        if (perCode <= 0 || syms.length % perCode != 0)
            throw new IllegalArgumentException("keysyms per keycode " + perCode);
        this.minKeycode = minKeycode;
        this.perCode = perCode;
        this.syms = syms.clone();
        this.modmap = new int[8][];
        for (int i = 0; i < 8; i++)
            this.modmap[i] =
                    Arrays.stream(modmap[i]).filter(k -> k > 0 && k < 256).toArray();
        this.does = does == null ? null : does.clone();
    }

    /**
     * As {@link #read}, with what each key does in the server's XKB map: its actions and behaviour (one more round
     * trip, {@code XkbGetMap} of the keysyms, actions and behaviours). Round 20's D3: a keymap loaded with xkbcomp
     * gave {@code <AD01>} a RedirectKey and took it back every 60-150 ms, its keysyms unchanged; typed text lost
     * characters and the watch, comparing keysyms, counted nothing.
     */
    static Keyboard readWithActions(XConnection c) {
        Keyboard k = read(c);
        return new Keyboard(k.minKeycode, k.perCode, k.syms, k.modmap, readDoes(c));
    }

    private static byte[][] readDoes(XConnection c) {
        Xlib x = Xlib.X;
        Pointer desc = x.XkbGetMap(
                c.dpy, Xlib.XkbKeySymsMask | Xlib.XkbKeyActionsMask | Xlib.XkbKeyBehaviorsMask, Xlib.XkbUseCoreKbd);
        if (desc == null) throw new IllegalStateException("the keyboard's XKB map could not be read");
        try {
            int min = desc.getByte(Xlib.XKB_DESC_MIN_KEY) & 0xff, max = desc.getByte(Xlib.XKB_DESC_MAX_KEY) & 0xff;
            Pointer map = desc.getPointer(Xlib.XKB_DESC_MAP), server = desc.getPointer(Xlib.XKB_DESC_SERVER);
            if (map == null || server == null) throw new IllegalStateException("the keyboard's XKB map is empty");
            Pointer symMaps = map.getPointer(Xlib.XKB_MAP_KEY_SYM_MAP);
            Pointer keyActs = server.getPointer(Xlib.XKB_SERVER_KEY_ACTS);
            Pointer acts = server.getPointer(Xlib.XKB_SERVER_ACTS);
            Pointer behaviors = server.getPointer(Xlib.XKB_SERVER_BEHAVIORS);
            byte[][] out = new byte[256][];
            for (int kc = min; kc <= max; kc++) {
                int first = keyActs == null || acts == null ? 0 : keyActs.getShort((long) kc * 2) & 0xffff;
                int n = 0;
                if (first != 0 && symMaps != null) {
                    Pointer sm = symMaps.share((long) kc * Xlib.XKB_SYM_MAP_SIZE);
                    n = (sm.getByte(Xlib.XKB_SYM_MAP_GROUP_INFO) & 0x0f) * (sm.getByte(Xlib.XKB_SYM_MAP_WIDTH) & 0xff);
                }
                byte[] b = new byte[Xlib.XKB_BEHAVIOR_SIZE + n * Xlib.XKB_ACTION_SIZE];
                if (behaviors != null) behaviors.read((long) kc * Xlib.XKB_BEHAVIOR_SIZE, b, 0, Xlib.XKB_BEHAVIOR_SIZE);
                if (n > 0)
                    acts.read((long) first * Xlib.XKB_ACTION_SIZE, b, Xlib.XKB_BEHAVIOR_SIZE, n * Xlib.XKB_ACTION_SIZE);
                int len = b.length;
                while (len > 0 && b[len - 1] == 0) len--;
                out[kc] = Arrays.copyOf(b, len);
            }
            return out;
        } finally {
            x.XkbFreeKeyboard(desc, 0, Xlib.True);
        }
    }

    private byte[] does(int keycode) {
        byte[] b = does == null || keycode < 0 || keycode > 255 ? null : does[keycode];
        return b == null ? new byte[0] : b;
    }

    /** The keyboard as the server holds it now (two round trips on {@code c}). */
    static Keyboard read(XConnection c) {
        Xlib x = Xlib.X;
        IntByReference min = new IntByReference(), max = new IntByReference(), per = new IntByReference();
        x.XDisplayKeycodes(c.dpy, min, max);
        int count = max.getValue() - min.getValue() + 1;
        Pointer p = x.XGetKeyboardMapping(c.dpy, min.getValue(), count, per);
        if (p == null) throw new IllegalStateException("the keyboard mapping could not be read");
        long[] syms;
        try {
            syms = p.getLongArray(0, count * per.getValue());
        } finally {
            x.XFree(p);
        }
        Pointer map = x.XGetModifierMapping(c.dpy);
        if (map == null) throw new IllegalStateException("the modifier map could not be read");
        int[][] rows = new int[8][];
        try {
            int each = map.getInt(Xlib.MODMAP_MAX);
            Pointer codes = map.getPointer(Xlib.MODMAP_MAP);
            for (int mod = 0; mod < 8; mod++) {
                rows[mod] = new int[each];
                for (int i = 0; i < each; i++) rows[mod][i] = codes.getByte((long) mod * each + i) & 0xff;
            }
        } finally {
            x.XFreeModifiermap(map);
        }
        return new Keyboard(min.getValue(), per.getValue(), syms, rows);
    }

    /** Whether {@code keycode} has any keysym (a keycode without one is a spare: Deckhand's and xdotool's remaps use them). */
    boolean empty(int keycode) {
        int i = keycode - minKeycode;
        if (i < 0 || (i + 1) * perCode > syms.length) return true;
        for (int l = 0; l < perCode; l++) if (syms[i * perCode + l] != 0) return false;
        return true;
    }

    /** The keycodes with no keysym. */
    Set<Integer> spares() {
        Set<Integer> out = new LinkedHashSet<>();
        for (int kc = minKeycode; kc < minKeycode + syms.length / perCode; kc++) if (empty(kc)) out.add(kc);
        return out;
    }

    /** Every keycode that has {@code keysym} at any group or level. */
    Set<Integer> keycodesOf(long keysym) {
        Set<Integer> out = new LinkedHashSet<>();
        for (int i = 0; i < syms.length; i++) if (syms[i] == keysym) out.add(minKeycode + i / perCode);
        return out;
    }

    /** The modifier bits {@code keycode} sets: the rows it is in (0 for none). */
    int bitsOf(int keycode) {
        int bits = 0;
        for (int mod = 0; mod < 8; mod++) {
            for (int kc : modmap[mod]) if (kc == keycode) bits |= 1 << mod;
        }
        return bits;
    }

    /** The bits of the rows holding a keycode that has one of {@code keysyms} (0 when none does). */
    int rowsOf(long... keysyms) {
        int bits = 0;
        for (long s : keysyms) for (int kc : keycodesOf(s)) bits |= bitsOf(kc);
        return bits;
    }

    /**
     * What changed since {@code earlier}, keycodes in {@code ignore} left out of the keysyms' and actions' comparison
     * (the modifier map is compared whole): "the keysyms of 3 keys", "the XKB actions or behaviours of 1 key" (when
     * both readings have them, {@link #readWithActions}), "the modifier map"; empty when nothing.
     */
    Optional<String> changedSince(Keyboard earlier, Set<Integer> ignore) {
        List<String> what = new ArrayList<>();
        int keys = 0;
        int lo = Math.min(minKeycode, earlier.minKeycode);
        int hi = Math.max(
                minKeycode + syms.length / perCode, earlier.minKeycode + earlier.syms.length / earlier.perCode);
        for (int kc = lo; kc < hi; kc++) {
            if (ignore.contains(kc)) continue;
            if (!Arrays.equals(trimmed(kc), earlier.trimmed(kc))) keys++;
        }
        if (keys > 0) what.add("the keysyms of " + keys + (keys == 1 ? " key" : " keys"));
        if (does != null && earlier.does != null) {
            int acted = 0;
            for (int kc = 0; kc < 256; kc++) {
                if (!ignore.contains(kc) && !Arrays.equals(does(kc), earlier.does(kc))) acted++;
            }
            if (acted > 0) what.add("the XKB actions or behaviours of " + acted + (acted == 1 ? " key" : " keys"));
        }
        for (int mod = 0; mod < 8; mod++) {
            if (!Arrays.equals(sorted(modmap[mod]), sorted(earlier.modmap[mod]))) {
                what.add("the modifier map");
                break;
            }
        }
        return what.isEmpty() ? Optional.empty() : Optional.of(String.join(" and ", what));
    }

    /** A keycode's keysyms without the trailing NoSymbols (a change of keysyms per keycode alone is no change). */
    private long[] trimmed(int keycode) {
        int i = keycode - minKeycode;
        if (i < 0 || (i + 1) * perCode > syms.length) return new long[0];
        int n = perCode;
        while (n > 0 && syms[i * perCode + n - 1] == 0) n--;
        return Arrays.copyOfRange(syms, i * perCode, i * perCode + n);
    }

    private static int[] sorted(int[] row) {
        int[] r = row.clone();
        Arrays.sort(r);
        return r;
    }
}

package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.ptr.IntByReference;
import java.util.List;
import java.util.Optional;

/**
 * Whether another client holds a chord: Deckhand asks the X server for a passive grab of the same key and
 * modifiers (with every lock-key variant) on the root window and on the target's top-level, and the server
 * refuses it when another client holds one. The server reports that conflict only between grabs of the same
 * kind, so the core protocol ({@code XGrabKey}, BadAccess) and XInput 2 ({@code XIGrabKeycode}, failed
 * modifiers; for all master devices and for all devices) are both probed. Whatever was granted to the probe
 * is released and synced before the answer, so no other client ever finds Deckhand holding the chord.
 *
 * <p>A fact measured, not a list: a window manager's binding outside {@code SYSTEM_CHORD}'s floor, a hotkey
 * daemon's, or Deckhand's own Stop shortcut are found the same way.
 */
final class PassiveGrabProbe {

    private static final int BAD_ACCESS = 10;

    private final XConnection c;
    private final boolean xi2;

    PassiveGrabProbe(XConnection c) {
        this.c = c;
        this.xi2 = xi2(c);
    }

    private static boolean xi2(XConnection c) {
        try {
            IntByReference opcode = new IntByReference(), event = new IntByReference(), error = new IntByReference();
            if (Xlib.X.XQueryExtension(c.dpy, "XInputExtension", opcode, event, error) == 0) return false;
            IntByReference major = new IntByReference(2), minor = new IntByReference(2);
            return Xi.X.XIQueryVersion(c.dpy, major, minor) == 0 && major.getValue() >= 2;
        } catch (UnsatisfiedLinkError noLibXi) {
            return false;
        }
    }

    /** Whether XInput 2 grabs are probed too (libXi and the extension are present). */
    boolean probesXi2() {
        return xi2;
    }

    /**
     * Which probe found the chord ({@code keycode} with X modifier mask {@code modifiers}) held by another
     * client on the root window or on {@code topLevel} (0: the root only): "core" or "XInput 2"; empty
     * when neither did.
     */
    Optional<String> heldByOther(int keycode, int modifiers, long topLevel) {
        List<Integer> locks = StopKeyGrab.lockCombinations(StopKeyGrab.lockMasks(c));
        long[] windows = topLevel == 0 || topLevel == c.root ? new long[] {c.root} : new long[] {c.root, topLevel};
        for (long w : windows) {
            if (core(keycode, modifiers, locks, w)) return Optional.of("core");
        }
        if (xi2) {
            for (long w : windows) {
                for (int device : new int[] {Xi.XIAllMasterDevices, Xi.XIAllDevices}) {
                    if (xi2(keycode, modifiers, locks, w, device)) return Optional.of("XInput 2");
                }
            }
        }
        return Optional.empty();
    }

    private boolean core(int keycode, int modifiers, List<Integer> locks, long window) {
        Xlib x = Xlib.X;
        int before = c.errors();
        for (int lock : locks)
            x.XGrabKey(c.dpy, keycode, modifiers | lock, window, Xlib.False, Xlib.GrabModeAsync, Xlib.GrabModeAsync);
        c.sync();
        boolean refused = c.errors() != before && c.lastErrorCode() == BAD_ACCESS;
        // Ungrabbing a variant the probe did not get leaves the other client's grab alone (a grab is per client).
        for (int lock : locks) x.XUngrabKey(c.dpy, keycode, modifiers | lock, window);
        c.sync();
        return refused;
    }

    private boolean xi2(int keycode, int modifiers, List<Integer> locks, long window, int device) {
        Memory bits = new Memory(4);
        bits.clear();
        bits.setByte(0, (byte) (1 << Xi.XI_KeyPress | 1 << Xi.XI_KeyRelease));
        Memory mask = new Memory(Xi.MASK_SIZE);
        mask.clear();
        mask.setInt(Xi.MASK_DEVICE, device);
        mask.setInt(Xi.MASK_LEN, 4);
        mask.setPointer(Xi.MASK_PTR, bits);
        Memory mods = new Memory((long) Xi.MODS_SIZE * locks.size());
        mods.clear();
        for (int i = 0; i < locks.size(); i++) mods.setInt((long) i * Xi.MODS_SIZE, modifiers | locks.get(i));
        int before = c.errors();
        int failed = Xi.X.XIGrabKeycode(
                c.dpy,
                device,
                keycode,
                window,
                Xi.XIGrabModeAsync,
                Xi.XIGrabModeAsync,
                Xlib.False,
                mask,
                locks.size(),
                mods);
        for (int i = 0; i < locks.size(); i++) mods.setInt((long) i * Xi.MODS_SIZE, modifiers | locks.get(i));
        Xi.X.XIUngrabKeycode(c.dpy, device, keycode, window, locks.size(), mods);
        c.sync();
        return failed > 0 || (c.errors() != before && c.lastErrorCode() == BAD_ACCESS);
    }
}

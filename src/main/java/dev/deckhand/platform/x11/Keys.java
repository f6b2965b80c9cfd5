package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import dev.deckhand.grant.Chord;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import java.util.List;
import java.util.Optional;

/**
 * Keys and text into one window, two ways: synthetic events sent to the window itself
 * ({@code XSendEvent}, event mask 0; pointer and focus untouched), and XTEST events, which every toolkit
 * accepts but which go wherever the focus is, so they are sent only while the window's top-level
 * already holds the focus and no other client grabs the keyboard. The caller ({@link X11Display}) has
 * checked the connection is live and input is allowed; one thread at a time.
 */
final class Keys {

    private static final Xlib X = Xlib.X;

    private final XConnection c;
    private final Windows windows;
    private final KeyboardMapping mapping;
    /** Whether a client other than the window's own (its menu, opened by Deckhand's action) holds the keyboard. */
    private final java.util.function.LongPredicate grabbedByOther;

    private final boolean xtest;
    private final Memory event = new Memory(Xlib.EV_SIZE);
    private final PassiveGrabProbe grabs;

    Keys(
            XConnection c,
            Windows windows,
            KeyboardMapping mapping,
            boolean xtest,
            java.util.function.LongPredicate grabbedByOther) {
        this.c = c;
        this.windows = windows;
        this.mapping = mapping;
        this.grabbedByOther = grabbedByOther;
        this.xtest = xtest;
        this.grabs = new PassiveGrabProbe(c);
    }

    /** See {@link X11Display#key(long, Chord)}. */
    void send(long window, Chord chord) {
        KeyChord k = KeyChord.of(chord, X::XStringToKeysym);
        windows.measure(window, true);
        KeyboardMapping.Keymap map = mapping.read();
        int[] kc = mapping.keycodes(map, new long[] {k.keysym()})[0];
        int state = k.modifiers() | (kc[1] == 1 ? Xlib.ShiftMask : 0);
        refuseHeld(window, chord, kc[0], state);
        sendKey(window, kc[0], state);
        syncOrGone(window);
    }

    /** See {@link X11Display#type(long, String)}. */
    void type(long window, String text) {
        windows.measure(window, true);
        long[] syms = keysyms(text);
        int[][] codes = mapping.keycodes(mapping.read(), syms);
        for (int i = 0; i < syms.length; i++) {
            sendKey(window, codes[i][0], codes[i][1] == 1 ? Xlib.ShiftMask : 0);
        }
        syncOrGone(window);
    }

    private static long[] keysyms(String text) {
        int[] cps = text.codePoints().toArray();
        long[] syms = new long[cps.length];
        for (int i = 0; i < cps.length; i++) syms[i] = KeyChord.keysymOf(cps[i]);
        return syms;
    }

    private void sendKey(long window, int keycode, int state) {
        event.clear();
        event.setLong(Xlib.EV_SEND_EVENT, 1);
        event.setPointer(Xlib.EV_DISPLAY, c.dpy);
        event.setLong(Xlib.EV_WINDOW, window);
        event.setLong(Xlib.EV_ROOT, c.root);
        event.setLong(Xlib.EV_SUBWINDOW, Xlib.None);
        event.setLong(Xlib.EV_TIME, Xlib.CurrentTime);
        event.setInt(Xlib.EV_X, 1);
        event.setInt(Xlib.EV_Y, 1);
        event.setInt(Xlib.EV_X_ROOT, 1);
        event.setInt(Xlib.EV_Y_ROOT, 1);
        event.setInt(Xlib.EV_STATE, state);
        event.setInt(Xlib.EV_KEYCODE, keycode);
        event.setInt(Xlib.EV_SAME_SCREEN, Xlib.True);
        event.setInt(Xlib.EV_TYPE, Xlib.KeyPress);
        X.XSendEvent(c.dpy, window, Xlib.True, 0L, event);
        event.setInt(Xlib.EV_TYPE, Xlib.KeyRelease);
        X.XSendEvent(c.dpy, window, Xlib.True, 0L, event);
    }

    private void syncOrGone(long window) {
        int before = c.errors();
        c.sync();
        if (c.errors() != before) throw Windows.gone(window);
    }

    /**
     * {@code SYSTEM_CHORD} when another client holds the chord as a passive grab ({@link PassiveGrabProbe}):
     * on top of the chords refused by rule, whatever the window manager, a hotkey daemon or Deckhand's own Stop
     * shortcut holds right now.
     */
    private void refuseHeld(long window, Chord chord, int keycode, int state) {
        Optional<String> held = grabs.heldByOther(keycode, state, windows.topLevel(window));
        if (held.isPresent()) {
            throw new RefusedException(
                    Refusal.systemChord("key " + chord + ": another client holds it as a passive grab (" + held.get()
                            + " probe), so the desktop would take it"));
        }
    }

    /** See {@link X11Display#xtestKey(long, Chord)}. */
    void xtestSend(long window, Chord chord) {
        KeyChord k = KeyChord.of(chord, X::XStringToKeysym);
        requireFocusFor(window);
        KeyboardMapping.XkbState before = mapping.xkbState();
        // the server applies its group to XTEST keys
        KeyboardMapping.Keymap map = mapping.readForEffectiveGroup(before);
        int[] kc = mapping.keycodes(map, new long[] {k.keysym()})[0];
        int state = k.modifiers() | (kc[1] == 1 ? Xlib.ShiftMask : 0);
        refuseHeld(window, chord, kc[0], state);
        List<Integer> mods = mapping.modifierKeycodes(map, state);
        // what the server's keymap makes of these keys, measured: round 19's keymaps kept the keysyms and changed
        // what the key does (an action) or the level it types at (a key type that reads Num Lock)
        try (KeyboardMapping.ServerKeys keys = mapping.serverKeys()) {
            String what = "key " + chord;
            int held = 0, i = 0;
            for (long[] m : KeyboardMapping.MODIFIER_KEYS) {
                if ((state & m[0]) == 0) continue;
                keys.requireModifierKey(what, mods.get(i++), held, before, (int) m[0]);
                held |= (int) m[0];
            }
            keys.requirePlainKey(what, kc[0], kc[1] == 1 ? Xlib.ShiftMask : 0, held, before, k.keysym());
        }
        Xtst t = Xtst.X;
        for (int m : mods) t.XTestFakeKeyEvent(c.dpy, m, Xlib.True, 0);
        c.sync();
        if (mapping.xkbState().group() != before.group()) {
            // the person's XKB options switch the group on these modifiers (grp:ctrl_shift_toggle): the key would be
            // read in the other group (round 17's L5: ctrl+shift+b arrived as ctrl+shift+v, a paste)
            for (int i = mods.size() - 1; i >= 0; i--) t.XTestFakeKeyEvent(c.dpy, mods.get(i), Xlib.False, 0);
            c.sync();
            Xlib.X.XkbLockGroup(c.dpy, Xlib.XkbUseCoreKbd, before.lockedGroup());
            c.sync();
            throw new RefusedException(Refusal.platformUnsupported("key " + chord + ": its modifiers switch the"
                    + " keyboard's layout group (an XKB option), so the key would arrive as another; not sent, the"
                    + " group put back"));
        }
        t.XTestFakeKeyEvent(c.dpy, kc[0], Xlib.True, 0);
        t.XTestFakeKeyEvent(c.dpy, kc[0], Xlib.False, 0);
        for (int i = mods.size() - 1; i >= 0; i--) t.XTestFakeKeyEvent(c.dpy, mods.get(i), Xlib.False, 0);
        c.sync();
        // an option that switches the group as the modifiers are released leaves the person's layout changed
        if (mapping.xkbState().lockedGroup() != before.lockedGroup()) {
            Xlib.X.XkbLockGroup(c.dpy, Xlib.XkbUseCoreKbd, before.lockedGroup());
            c.sync();
        }
    }

    /** See {@link X11Display#xtestType(long, String)}. */
    void xtestType(long window, String text) {
        requireFocusFor(window);
        long[] syms = keysyms(text);
        KeyboardMapping.XkbState state = mapping.xkbState();
        KeyboardMapping.Keymap map = mapping.readForEffectiveGroup(state);
        int[][] codes = mapping.keycodes(map, syms);
        int shift = mapping.modifierKeycodes(map, Xlib.ShiftMask).get(0);
        // measured after any spare keycode was mapped, each key once: what the server's keymap makes of it
        try (KeyboardMapping.ServerKeys keys = mapping.serverKeys()) {
            java.util.Set<Long> seen = new java.util.HashSet<>();
            for (int i = 0; i < codes.length; i++) {
                int level = codes[i][1] == 1 ? Xlib.ShiftMask : 0;
                if (!seen.add((long) codes[i][0] << 32 | level)) continue;
                if (level != 0 && seen.add(-1L)) keys.requireModifierKey("text", shift, 0, state, Xlib.ShiftMask);
                keys.requirePlainKey("text", codes[i][0], level, level, state, syms[i]);
            }
        }
        Xtst t = Xtst.X;
        for (int[] code : codes) {
            if (code[1] == 1) t.XTestFakeKeyEvent(c.dpy, shift, Xlib.True, 0);
            t.XTestFakeKeyEvent(c.dpy, code[0], Xlib.True, 0);
            t.XTestFakeKeyEvent(c.dpy, code[0], Xlib.False, 0);
            if (code[1] == 1) t.XTestFakeKeyEvent(c.dpy, shift, Xlib.False, 0);
        }
        c.sync();
    }

    private void requireFocusFor(long window) {
        if (!xtest) throw new RefusedException(Refusal.platformUnsupported("the X server has no XTEST extension"));
        windows.measure(window, true);
        // the window's own menu, opened by Deckhand's action, holds the keyboard: the keys go to that menu
        if (grabbedByOther.test(window)) {
            throw new RefusedException(
                    Refusal.secureInput("another client holds a keyboard grab; XTEST keys would go to it"));
        }
        long focused = windows.focusedTopLevel();
        long target = windows.topLevel(window);
        if (focused == 0 || focused != target) {
            throw new RefusedException(Refusal.outOfScope("input focus is on "
                    + (focused == 0 ? "no window" : "another window") + ", not window 0x" + Long.toHexString(window)
                    + "; XTEST keys would land outside the grant and Deckhand never moves focus"));
        }
    }
}

package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;

/**
 * Whether another client holds a keyboard grab: X11's secure input (a password prompt, a screen
 * locker, a game), under which XTEST keys would go to the grabber. Probed by grabbing the keyboard on
 * the window that holds the input focus (so that the focus does not move), else the root:
 * {@code AlreadyGrabbed} or {@code GrabFrozen} means held; a probe that succeeds is released and synced
 * before the answer, so no other client can find Deckhand's grab.
 */
final class KeyboardGrab {

    private final XConnection c;
    /** Grab requests this probe sent so far ({@link GrabRecord} sees each in the server's order). */
    private long sent;

    KeyboardGrab(XConnection c) {
        this.c = c;
    }

    /** How many grab requests the probe has sent: the last probe's answer is the {@code sent()}-th in the record. */
    long sent() {
        return sent;
    }

    boolean heldByOther() {
        long on = grabWindow();
        int errors = c.errors();
        int r = grab(on);
        // a focus window that is not viewable, or gone since (Xlib answers GrabSuccess on an error reply)
        if (on != c.root && (r == Xlib.GrabNotViewable || c.errors() != errors)) r = grab(c.root);
        if (r == Xlib.GrabSuccess) {
            Xlib.X.XUngrabKeyboard(c.dpy, Xlib.CurrentTime);
            c.sync(); // released before this returns, so no other client can find our probe's grab
            passOnSwallowedPresses();
            return false;
        }
        return r == Xlib.AlreadyGrabbed || r == Xlib.GrabFrozen;
    }

    private int grab(long window) {
        sent++;
        return Xlib.X.XGrabKeyboard(
                c.dpy, window, Xlib.False, Xlib.GrabModeAsync, Xlib.GrabModeAsync, Xlib.CurrentTime);
    }

    /**
     * The window the probe grabs on: the one holding the input focus, so that the focus does not move. A grab
     * on another window sends the focused app FocusOut and FocusIn (mode NotifyGrab), which GTK turns into
     * five accessibility events (measured: FactsBench) — every probe would wake every settle and every reader
     * of the app's events — and LibreOffice moves its accessibility focus from the cell being edited to its
     * root pane. The root when the focus is None or PointerRoot.
     */
    private long grabWindow() {
        LongByReference focus = new LongByReference();
        Xlib.X.XGetInputFocus(c.dpy, focus, new IntByReference());
        long w = focus.getValue();
        return w == 0 || w == 1 ? c.root : w; // None, PointerRoot
    }

    /**
     * A key pressed during the probe's grab (a millisecond or two) was reported to the probe, not to the
     * passive grab of the Stop shortcut: a Stop chord pressed then would be lost. Every key press the probe
     * received is handed to {@link StopKeyGrab#swallowed}, which fires Stop when it is the chord; other keys
     * pressed in that instant are dropped (a person's keystroke, as under any grab).
     */
    private void passOnSwallowedPresses() {
        if (Xlib.X.XPending(c.dpy) == 0) return;
        Memory event = new Memory(Xlib.EV_SIZE);
        while (Xlib.X.XCheckTypedEvent(c.dpy, Xlib.KeyPress, event) != 0) {
            StopKeyGrab.swallowed(event.getInt(Xlib.EV_KEYCODE), event.getInt(Xlib.EV_STATE));
        }
        while (Xlib.X.XCheckTypedEvent(c.dpy, Xlib.KeyRelease, event) != 0) {
            // dropped: the press is what counts
        }
    }
}

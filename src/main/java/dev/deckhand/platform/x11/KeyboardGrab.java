package dev.deckhand.platform.x11;

import com.sun.jna.Memory;

/**
 * Whether another client holds a keyboard grab: X11's secure input (a password prompt, a screen
 * locker, a game), under which XTEST keys would go to the grabber. Probed by grabbing the keyboard on
 * the root: {@code AlreadyGrabbed} or {@code GrabFrozen} means held; a probe that succeeds is released
 * and synced before the answer, so no other client can find Deckhand's grab.
 */
final class KeyboardGrab {

    private final XConnection c;

    KeyboardGrab(XConnection c) {
        this.c = c;
    }

    boolean heldByOther() {
        int r = Xlib.X.XGrabKeyboard(c.dpy, c.root, Xlib.False, Xlib.GrabModeAsync, Xlib.GrabModeAsync,
                Xlib.CurrentTime);
        if (r == Xlib.GrabSuccess) {
            Xlib.X.XUngrabKeyboard(c.dpy, Xlib.CurrentTime);
            c.sync(); // released before this returns, so no other client can find our probe's grab
            passOnSwallowedPresses();
            return false;
        }
        return r == Xlib.AlreadyGrabbed || r == Xlib.GrabFrozen;
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

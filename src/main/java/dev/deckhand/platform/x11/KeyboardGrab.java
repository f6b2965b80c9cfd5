package dev.deckhand.platform.x11;

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
            return false;
        }
        return r == Xlib.AlreadyGrabbed || r == Xlib.GrabFrozen;
    }
}

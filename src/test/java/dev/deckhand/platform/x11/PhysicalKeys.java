package dev.deckhand.platform.x11;

/**
 * Presses keys as a person's keyboard does, for tests outside this package: keycodes through XTEST, pressed in order
 * and released in reverse, whatever the keyboard map says they mean (the reviewer's {@code physkeys.py}).
 */
public final class PhysicalKeys {

    /** Control_L, Alt_L, Shift_L, Escape on the pc105 "us" map Xvfb starts with: the Stop chord's physical keys. */
    private static final int[] STOP = {37, 64, 50, 9};

    private PhysicalKeys() {}

    /** Presses the Stop chord's physical keys ({@link #STOP}). */
    public static void pressStop() {
        press(STOP);
    }

    /** Presses {@code keycodes} on the display of this process's {@code DISPLAY}, 30 ms apart. */
    public static void press(int... keycodes) {
        XConnection c = XConnection.open(System.getenv());
        try {
            for (int k : keycodes) {
                Xtst.X.XTestFakeKeyEvent(c.dpy, k, 1, 0);
                c.sync();
                sleep();
            }
            for (int i = keycodes.length - 1; i >= 0; i--) {
                Xtst.X.XTestFakeKeyEvent(c.dpy, keycodes[i], 0, 0);
                c.sync();
                sleep();
            }
        } finally {
            c.close();
        }
    }

    /** The modifier and lock bits the server holds now (XQueryPointer's mask): LockMask 2, Mod2 (NumLock) 16. */
    public static int modifierState() {
        XConnection c = XConnection.open(System.getenv());
        try {
            com.sun.jna.ptr.LongByReference root = new com.sun.jna.ptr.LongByReference();
            com.sun.jna.ptr.LongByReference child = new com.sun.jna.ptr.LongByReference();
            com.sun.jna.ptr.IntByReference i = new com.sun.jna.ptr.IntByReference();
            com.sun.jna.ptr.IntByReference mask = new com.sun.jna.ptr.IntByReference();
            Xlib.X.XQueryPointer(c.dpy, c.root, root, child, i, i, i, i, mask);
            return mask.getValue();
        } finally {
            c.close();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(30);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

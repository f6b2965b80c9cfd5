package dev.deckhand.platform.x11;

import com.sun.jna.ptr.IntByReference;

/**
 * What the X server offers the driver, probed once when the display opens: XTEST (server-generated
 * input), XComposite (full window content; the redirect it needs is made here and ends with the
 * connection), MIT-SHM (fast image reads) and whether the server is Xwayland. A library that cannot be
 * loaded counts as an extension that is absent.
 *
 * @param xtest XTEST is present (the XTEST key path and the pointer click)
 * @param composite top-levels are redirected for capture (without it, captures crop the screen)
 * @param shm MIT-SHM is present (the capture may still fall back when a segment cannot be attached)
 * @param xwayland the {@code XWAYLAND} extension is present
 */
record Extensions(boolean xtest, boolean composite, boolean shm, boolean xwayland) {

    static Extensions probe(XConnection c) {
        IntByReference a = new IntByReference(), b = new IntByReference(), d = new IntByReference();
        boolean xwayland = Xlib.X.XQueryExtension(c.dpy, "XWAYLAND", a, b, d) != 0;
        boolean xtest = queryXtest(c);
        int before = c.errors();
        boolean redirected = redirectForCapture(c);
        boolean composite = redirected && c.errors() == before; // e.g. BadAccess: then the screen-crop path
        return new Extensions(xtest, composite, queryShm(c), xwayland);
    }

    private static boolean queryXtest(XConnection c) {
        try {
            IntByReference a = new IntByReference(),
                    b = new IntByReference(),
                    d = new IntByReference(),
                    e = new IntByReference();
            return Xtst.X.XTestQueryExtension(c.dpy, a, b, d, e) != 0;
        } catch (LinkageError missing) { // UnsatisfiedLinkError or the library holder's failed initialiser
            return false;
        }
    }

    private static boolean redirectForCapture(XConnection c) {
        try {
            IntByReference a = new IntByReference(), b = new IntByReference();
            if (Xcomposite.X.XCompositeQueryExtension(c.dpy, a, b) == 0) return false;
            // Automatic redirection: the server keeps every top-level's full content off-screen and
            // still paints the screen itself; it ends when this connection closes.
            Xcomposite.X.XCompositeRedirectSubwindows(c.dpy, c.root, Xcomposite.CompositeRedirectAutomatic);
            Xlib.X.XSync(c.dpy, Xlib.False);
            return true;
        } catch (LinkageError missing) { // UnsatisfiedLinkError or the library holder's failed initialiser
            return false;
        }
    }

    private static boolean queryShm(XConnection c) {
        try {
            return XShm.X.XShmQueryExtension(c.dpy) != 0;
        } catch (LinkageError missing) { // UnsatisfiedLinkError or the library holder's failed initialiser
            return false;
        }
    }
}

package dev.deckhand.platform.x11;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;

/**
 * The Xlib calls the presence parts need beyond {@link Xlib} (the drawn cursor's ARGB window and the
 * Stop shortcut's key grab), kept in a file of their own so the driver's binding stays as it is.
 * Same conventions as {@link Xlib}: XIDs are {@code long} (LP64 only), X {@code Bool} is {@code int},
 * structures are read and written at fixed offsets (x86_64 headers).
 */
interface PresenceXlib extends Library {

    PresenceXlib X = Native.load("X11", PresenceXlib.class);

    int TrueColor = 4;
    int InputOutput = 1;
    int AllocNone = 0;
    int XYBitmap = 0;

    long CWBackPixel = 1L << 1;
    long CWBorderPixel = 1L << 3;
    long CWOverrideRedirect = 1L << 9;
    long CWSaveUnder = 1L << 10;
    long CWColormap = 1L << 13;

    int LockMask = 1 << 1;
    long KeyPressMask = 1L;
    int PropModeReplace = 0;

    /** {@code XVisualInfo}: visual@0, visualid@8, screen@16, depth@20, class@24. */
    int VI_SIZE = 64, VI_VISUAL = 0;

    /** {@code XSetWindowAttributes}: size 112. */
    int SWA_SIZE = 112, SWA_BACK_PIXEL = 8, SWA_BORDER_PIXEL = 24, SWA_SAVE_UNDER = 64,
            SWA_OVERRIDE_REDIRECT = 88, SWA_COLORMAP = 96;

    /** {@code XModifierKeymap}: int max_keypermod@0, KeyCode* modifiermap@8. */
    int MODMAP_MAX = 0, MODMAP_MAP = 8;

    int XMatchVisualInfo(Pointer display, int screen, int depth, int visualClass, Pointer visualInfo);

    long XCreateColormap(Pointer display, long window, Pointer visual, int alloc);

    int XFreeColormap(Pointer display, long colormap);

    long XCreateWindow(Pointer display, long parent, int x, int y, int width, int height, int borderWidth,
            int depth, int windowClass, Pointer visual, long valueMask, Pointer attributes);

    int XDestroyWindow(Pointer display, long window);

    int XMapRaised(Pointer display, long window);

    int XUnmapWindow(Pointer display, long window);

    int XMoveWindow(Pointer display, long window, int x, int y);

    int XRaiseWindow(Pointer display, long window);

    int XStoreName(Pointer display, long window, String name);

    long XInternAtom(Pointer display, String name, int onlyIfExists);

    int XChangeProperty(Pointer display, long window, long property, long type, int format, int mode, Pointer data,
            int nelements);

    long XCreatePixmap(Pointer display, long drawable, int width, int height, int depth);

    int XFreePixmap(Pointer display, long pixmap);

    Pointer XCreateGC(Pointer display, long drawable, long valueMask, Pointer values);

    int XFreeGC(Pointer display, Pointer gc);

    Pointer XCreateImage(Pointer display, Pointer visual, int depth, int format, int offset, Pointer data,
            int width, int height, int bitmapPad, int bytesPerLine);

    int XPutImage(Pointer display, long drawable, Pointer gc, Pointer image, int srcX, int srcY, int destX,
            int destY, int width, int height);

    int XFree(Pointer data);

    int XSetWindowBackgroundPixmap(Pointer display, long window, long pixmap);

    int XClearWindow(Pointer display, long window);

    int XFlush(Pointer display);

    int XSync(Pointer display, int discard);

    int XConnectionNumber(Pointer display);

    int XPending(Pointer display);

    int XNextEvent(Pointer display, Pointer event);

    int XGrabKey(Pointer display, int keycode, int modifiers, long grabWindow, int ownerEvents, int pointerMode,
            int keyboardMode);

    int XUngrabKey(Pointer display, int keycode, int modifiers, long grabWindow);

    int XKeysymToKeycode(Pointer display, long keysym);

    Pointer XGetModifierMapping(Pointer display);

    int XFreeModifiermap(Pointer modmap);

    long XStringToKeysym(String name);

    int XQueryPointer(Pointer display, long window, LongByReference root, LongByReference child,
            IntByReference rootX, IntByReference rootY, IntByReference winX, IntByReference winY,
            IntByReference mask);

    void XSetIOErrorExitHandler(Pointer display, Xlib.IOErrorExitHandler handler, Pointer userData);

    /** libXext's SHAPE calls. {@code XRectangle} is {short x, y; unsigned short width, height} (8 bytes). */
    interface Shape extends Library {
        Shape X = Native.load("Xext", Shape.class);
        int ShapeBounding = 0, ShapeInput = 2, ShapeSet = 0, Unsorted = 0;

        int XShapeQueryExtension(Pointer display, IntByReference eventBase, IntByReference errorBase);

        void XShapeCombineRectangles(Pointer display, long window, int destKind, int xOff, int yOff,
                Pointer rectangles, int count, int op, int ordering);
    }

    /** libc {@code poll(2)}: {@code struct pollfd} is {int fd; short events; short revents;}. */
    interface Poll extends Library {
        Poll C = Native.load("c", Poll.class);
        short POLLIN = 1;

        int poll(Pointer fds, long nfds, int timeoutMillis);
    }
}

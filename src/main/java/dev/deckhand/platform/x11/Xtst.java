package dev.deckhand.platform.x11;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/** libXtst, the XTEST extension: key, button and motion events the server generates as if real. */
interface Xtst extends Library {

    Xtst X = Native.load("Xtst", Xtst.class);

    int XTestQueryExtension(Pointer display, IntByReference eventBase, IntByReference errorBase,
            IntByReference major, IntByReference minor);

    int XTestFakeKeyEvent(Pointer display, int keycode, int isPress, long delay);

    int XTestFakeButtonEvent(Pointer display, int button, int isPress, long delay);

    int XTestFakeMotionEvent(Pointer display, int screen, int x, int y, long delay);
}

package dev.deckhand.platform.x11;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/** libXcomposite: the off-screen content of every top-level, for captures of covered windows. */
interface Xcomposite extends Library {

    Xcomposite X = Native.load("Xcomposite", Xcomposite.class);

    int CompositeRedirectAutomatic = 0;

    int XCompositeQueryExtension(Pointer display, IntByReference eventBase, IntByReference errorBase);

    void XCompositeRedirectSubwindows(Pointer display, long window, int update);

    long XCompositeNameWindowPixmap(Pointer display, long window);
}

package dev.deckhand.platform.x11;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/**
 * libXext's SHAPE calls: the drawn cursor's outline and its empty input shape.
 * {@code XRectangle} is {short x, y; unsigned short width, height} (8 bytes).
 */
interface XShape extends Library {

    XShape X = Native.load("Xext", XShape.class);

    int ShapeBounding = 0, ShapeInput = 2, ShapeSet = 0, Unsorted = 0;

    int XShapeQueryExtension(Pointer display, IntByReference eventBase, IntByReference errorBase);

    void XShapeCombineRectangles(
            Pointer display,
            long window,
            int destKind,
            int xOff,
            int yOff,
            Pointer rectangles,
            int count,
            int op,
            int ordering);
}

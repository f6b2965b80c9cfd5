package dev.deckhand.platform.x11;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import java.nio.ByteOrder;

/**
 * A test's own X client that reads what the screen shows (the root window, as a person sees it) and
 * where the real pointer is; it never moves anything.
 */
final class ScreenReader implements AutoCloseable {

    private static final Xlib X = Xlib.X;
    private final Pointer dpy;
    private final long root;
    final int width;
    final int height;

    ScreenReader(String display) {
        XConnection.installErrorHandler();
        dpy = X.XOpenDisplay(display);
        if (dpy == null) throw new IllegalStateException("cannot open display " + display);
        root = X.XDefaultRootWindow(dpy);
        width = X.XDisplayWidth(dpy, X.XDefaultScreen(dpy));
        height = X.XDisplayHeight(dpy, X.XDefaultScreen(dpy));
    }

    /** The whole screen as 0xRRGGBB pixels. */
    RgbImage screen() {
        Pointer image = X.XGetImage(dpy, root, 0, 0, width, height, Xlib.AllPlanes, Xlib.ZPixmap);
        if (image == null) throw new IllegalStateException("XGetImage of the root failed");
        try {
            int bpl = image.getInt(Xlib.IMG_BPL);
            java.nio.IntBuffer src = image.getPointer(Xlib.IMG_DATA)
                    .getByteBuffer(0, (long) bpl * height)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .asIntBuffer();
            int[] px = new int[width * height];
            for (int y = 0; y < height; y++) {
                src.position(y * (bpl / 4));
                src.get(px, y * width, width);
            }
            for (int i = 0; i < px.length; i++) px[i] &= 0xffffff;
            return new RgbImage(width, height, px);
        } finally {
            X.XDestroyImage(image);
        }
    }

    /** The real pointer's position on the screen, {x, y}. */
    int[] pointer() {
        LongByReference r = new LongByReference(), child = new LongByReference();
        IntByReference rx = new IntByReference(),
                ry = new IntByReference(),
                wx = new IntByReference(),
                wy = new IntByReference(),
                mask = new IntByReference();
        X.XQueryPointer(dpy, root, r, child, rx, ry, wx, wy, mask);
        return new int[] {rx.getValue(), ry.getValue()};
    }

    @Override
    public void close() {
        X.XCloseDisplay(dpy);
    }
}

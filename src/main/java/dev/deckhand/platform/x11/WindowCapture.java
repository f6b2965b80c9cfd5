package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Geometry;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The pixels of one window's client area, encoded, with the basis they were read against. With
 * XComposite the window's own off-screen content is read (correct where other windows cover it or it
 * extends past the screen) and its own open popups are painted over it, nothing of any other app;
 * without it the screen is cropped to the window. Reads go through one reused MIT-SHM segment when the
 * server allows it ({@link ShmSegment}), else plain {@code XGetImage}. One thread at a time
 * ({@link X11Display}'s lock).
 */
final class WindowCapture implements AutoCloseable {

    private static final Xlib X = Xlib.X;

    private final XConnection c;
    private final Windows windows;
    private final WindowProperties props;
    private final boolean composite;
    private final boolean shm;
    private ShmSegment segment;
    private final Memory attrs = new Memory(Xlib.WA_SIZE);
    private final IntByReference ix = new IntByReference();
    private final IntByReference iy = new IntByReference();
    private final LongByReference childRef = new LongByReference();

    WindowCapture(XConnection c, Windows windows, WindowProperties props, boolean composite, boolean shm) {
        this.c = c;
        this.windows = windows;
        this.props = props;
        this.composite = composite;
        this.shm = shm;
    }

    /** True when captures read through MIT-SHM (fast); false means plain XGetImage. */
    boolean shmInUse() {
        return shm && segment != null;
    }

    /** See {@link X11Display#capture(long, long, int, String)}. */
    Capture capture(long window, long grantRevision, int longEdge, String format) {
        String fmt = Objects.requireNonNull(format, "format").toLowerCase(Locale.ROOT);
        if (!fmt.equals("png") && !fmt.equals("jpeg") && !fmt.equals("jpg")) {
            throw new IllegalArgumentException("format must be png or jpeg, was '" + format + "'");
        }
        if (longEdge <= 0) throw new IllegalArgumentException("longEdge must be > 0, was " + longEdge);
        Grab grab = grab(window);
        RgbImage img = grab.pixels();
        Geometry g = grab.geometry();
        int[] size = RgbImage.scaledSize(img.width, img.height, longEdge);
        RgbImage out = img.downscale(size[0], size[1]);
        double scale = size[0] == img.width && size[1] == img.height
                ? 1.0
                : (double) Math.max(size[0], size[1]) / Math.max(img.width, img.height);
        byte[] bytes = fmt.equals("png") ? out.png() : out.jpeg(0.85f);
        Basis basis = new Basis(grantRevision, window, g, scale);
        return new Capture(bytes, fmt.equals("png") ? "image/png" : "image/jpeg", out.width, out.height, basis);
    }

    /** Pixels and the geometry measured right before reading them (the basis of a capture). */
    record Grab(RgbImage pixels, Geometry geometry) {}

    /**
     * The raw client-area pixels of {@code window} and the geometry they were read at.
     *
     * @throws RefusedException {@code PREFLIGHT_FAILED} when the window is gone, unmapped, has no area,
     *     or could not be read
     */
    Grab grab(long window) {
        Geometry g = windows.measure(window, true);
        if (g.width() == 0 || g.height() == 0) {
            throw new RefusedException(
                    Refusal.preflightFailed("window 0x" + Long.toHexString(window) + " has no area"));
        }
        int before = c.errors();
        Pointer visual;
        int depth;
        int[] pixels = new int[g.width() * g.height()];
        if (composite) {
            long top = windows.topLevel(window);
            if (top == 0) throw Windows.gone(window);
            if (X.XGetWindowAttributes(c.dpy, top, attrs) == 0) throw Windows.gone(window);
            int border = attrs.getInt(Xlib.WA_BORDER);
            depth = attrs.getInt(Xlib.WA_DEPTH);
            visual = attrs.getPointer(Xlib.WA_VISUAL);
            if (X.XTranslateCoordinates(c.dpy, window, top, 0, 0, ix, iy, childRef) == 0) throw Windows.gone(window);
            int sx = ix.getValue() + border;
            int sy = iy.getValue() + border;
            long pixmap = Xcomposite.X.XCompositeNameWindowPixmap(c.dpy, top);
            read(pixmap, visual, depth, sx, sy, g.width(), g.height(), pixels, g.width(), 0, 0);
            X.XFreePixmap(c.dpy, pixmap);
            c.sync();
            int ownRead = c.errors();
            for (long popup : popupsOver(window, top)) paintPopup(popup, g, pixels);
            c.sync();
            // Errors after the window's own read concern other windows: a root child or a popup that closed
            // while the popups were looked for (a vanished tooltip failed a Swing capture in CI) is not ours.
            c.forgetErrorsAfter(ownRead);
        } else {
            // Screen crop: only the on-screen part can be read; the rest stays black.
            if (X.XGetWindowAttributes(c.dpy, c.root, attrs) == 0) throw Windows.gone(c.root);
            depth = attrs.getInt(Xlib.WA_DEPTH);
            visual = attrs.getPointer(Xlib.WA_VISUAL);
            int x0 = Math.max(0, g.x()), y0 = Math.max(0, g.y());
            int x1 = Math.min(c.width, g.x() + g.width()), y1 = Math.min(c.height, g.y() + g.height());
            if (x1 > x0 && y1 > y0) {
                read(c.root, visual, depth, x0, y0, x1 - x0, y1 - y0, pixels, g.width(), x0 - g.x(), y0 - g.y());
            }
        }
        c.sync();
        if (c.errors() != before) {
            throw new RefusedException(Refusal.preflightFailed("window 0x" + Long.toHexString(window)
                    + " could not be read (" + c.lastError() + "); it may have vanished or changed"));
        }
        return new Grab(new RgbImage(g.width(), g.height(), pixels), g);
    }

    /**
     * The window's own popups (menus, tooltips, combo lists) that sit above its top-level: viewable
     * override-redirect children of the root, higher in stacking order, whose {@code WM_TRANSIENT_FOR}
     * is the window or whose {@code _NET_WM_PID} is the window's. Bottom to top.
     */
    List<Long> popupsOver(long window, long top) {
        long[] children = windows.rootChildren();
        long[] pidv = props.cardinals(window, "_NET_WM_PID", "CARDINAL");
        long pid = pidv.length > 0 ? pidv[0] : -1;
        List<Long> out = new ArrayList<>();
        boolean above = false;
        for (long child : children) {
            if (child == top) {
                above = true;
                continue;
            }
            if (!above) continue;
            Windows.Placement p = windows.placement(child);
            if (p == null || !p.overrideRedirect() || !p.viewable()) continue;
            long[] transientFor = props.cardinals(child, "WM_TRANSIENT_FOR", "WINDOW");
            long[] childPid = props.cardinals(child, "_NET_WM_PID", "CARDINAL");
            boolean ours = (transientFor.length > 0 && transientFor[0] == window)
                    || (pid > 0 && childPid.length > 0 && childPid[0] == pid);
            if (ours) out.add(child);
        }
        return out;
    }

    /** Paints the part of {@code popup} that overlaps {@code g} into {@code pixels} (g's client area). */
    private void paintPopup(long popup, Geometry g, int[] pixels) {
        int before = c.errors();
        if (X.XGetWindowAttributes(c.dpy, popup, attrs) == 0 || c.errors() != before) return;
        int border = attrs.getInt(Xlib.WA_BORDER);
        int depth = attrs.getInt(Xlib.WA_DEPTH);
        Pointer visual = attrs.getPointer(Xlib.WA_VISUAL);
        int px = attrs.getInt(Xlib.WA_X) + border, py = attrs.getInt(Xlib.WA_Y) + border;
        int pw = attrs.getInt(Xlib.WA_WIDTH), ph = attrs.getInt(Xlib.WA_HEIGHT);
        int x0 = Math.max(px, g.x()), y0 = Math.max(py, g.y());
        int x1 = Math.min(px + pw, g.x() + g.width()), y1 = Math.min(py + ph, g.y() + g.height());
        if (x1 <= x0 || y1 <= y0) return;
        long pixmap = Xcomposite.X.XCompositeNameWindowPixmap(c.dpy, popup);
        read(
                pixmap,
                visual,
                depth,
                x0 - px + border,
                y0 - py + border,
                x1 - x0,
                y1 - y0,
                pixels,
                g.width(),
                x0 - g.x(),
                y0 - g.y());
        X.XFreePixmap(c.dpy, pixmap);
        c.sync();
        c.forgetErrorsAfter(before); // a popup that closed meanwhile is simply not painted
    }

    /** Reads a {@code w×h} area of {@code drawable} at (sx, sy) into {@code dst} at (dx, dy). */
    private void read(
            long drawable,
            Pointer visual,
            int depth,
            int sx,
            int sy,
            int w,
            int h,
            int[] dst,
            int dstStride,
            int dx,
            int dy) {
        if (shm) {
            ShmSegment seg = segment(4L * w * h);
            if (seg != null) {
                Pointer image = XShm.X.XShmCreateImage(c.dpy, visual, depth, Xlib.ZPixmap, seg.addr, seg.info, w, h);
                if (image != null) {
                    try {
                        image.setPointer(Xlib.IMG_DATA, seg.addr);
                        int before = c.errors();
                        if (XShm.X.XShmGetImage(c.dpy, drawable, image, sx, sy, Xlib.AllPlanes) != 0) {
                            c.sync();
                            if (c.errors() == before) {
                                copyOut(image, visual, seg.addr, w, h, dst, dstStride, dx, dy);
                                return;
                            }
                        }
                    } finally {
                        image.setPointer(Xlib.IMG_DATA, null);
                        X.XFree(image);
                    }
                }
            }
        }
        Pointer image = X.XGetImage(c.dpy, drawable, sx, sy, w, h, Xlib.AllPlanes, Xlib.ZPixmap);
        if (image == null) return; // the caller sees the recorded X error
        try {
            copyOut(image, visual, image.getPointer(Xlib.IMG_DATA), w, h, dst, dstStride, dx, dy);
        } finally {
            X.XDestroyImage(image);
        }
    }

    private static void copyOut(
            Pointer image, Pointer visual, Pointer data, int w, int h, int[] dst, int dstStride, int dx, int dy) {
        int bpp = image.getInt(Xlib.IMG_BPP);
        int bpl = image.getInt(Xlib.IMG_BPL);
        // An image of a pixmap carries no visual, so its masks are 0: take them from the window's visual.
        long red = visual.getLong(Xlib.VIS_RED_MASK),
                green = visual.getLong(Xlib.VIS_GREEN_MASK),
                blue = visual.getLong(Xlib.VIS_BLUE_MASK);
        int byteOrder = image.getInt(Xlib.IMG_BYTE_ORDER);
        if (bpp != 32 || red != 0xff0000L || green != 0xff00L || blue != 0xffL || byteOrder != 0 /* LSBFirst */) {
            throw new RefusedException(Refusal.platformUnsupported("pixel format " + bpp + " bpp, masks "
                    + Long.toHexString(red) + "/" + Long.toHexString(green) + "/" + Long.toHexString(blue)
                    + ", byte order " + byteOrder + " is not read by this driver (needs 32 bpp xRGB)"));
        }
        java.nio.IntBuffer src = data.getByteBuffer(0, (long) bpl * h)
                .order(ByteOrder.LITTLE_ENDIAN)
                .asIntBuffer();
        int rowInts = bpl / 4;
        for (int y = 0; y < h; y++) {
            src.position(y * rowInts);
            src.get(dst, (dy + y) * dstStride + dx, w);
        }
    }

    private ShmSegment segment(long bytes) {
        if (segment != null && segment.size >= bytes) return segment;
        if (segment != null) {
            segment.release(c);
            segment = null;
        }
        long size = Math.max(bytes, (long) c.width * c.height * 4);
        segment = ShmSegment.attach(c, size);
        return segment;
    }

    /** Detaches the shared-memory segment (the connection is about to close). */
    @Override
    public void close() {
        if (segment != null) segment.release(c);
    }
}

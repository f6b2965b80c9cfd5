package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.deckhand.platform.DrawnCursor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * The drawn cursor on X11: an override-redirect window with a 32-bit ARGB visual, an empty input shape
 * (XShape {@code ShapeInput} with no rectangles, so every click passes through to the window below),
 * a bounding shape cut to the arrow (so it looks right without a compositing manager), raised on top
 * each time it moves, titled {@value X11Display#OWN_WINDOW_MARKER}{@code  cursor} and carrying this
 * JVM's {@code _NET_WM_PID}, so it is Deckhand's own window. Being override-redirect it is in no
 * window manager's client list, so it can never be granted.
 *
 * <p>It runs on an X connection and a thread of its own. Callers only queue requests and wait at most
 * a bound; the first failure to draw is logged once and turns the overlay into a no-op. It never
 * touches the real pointer (no XTEST, no warp, no grab).
 */
public final class CursorOverlay implements DrawnCursor {

    private static final Logger LOG = Logger.getLogger(CursorOverlay.class);
    private static final int FRAME_MILLIS = 16;
    private static final long WAIT_SLACK_MILLIS = 150;

    /**
     * @param travel how long a move takes (ease in and out)
     * @param press how long the press ring shows
     * @param linger how long the cursor stays after it stopped before it hides by itself
     */
    public record Timing(Duration travel, Duration press, Duration linger) {
        public Timing {
            Objects.requireNonNull(travel, "travel");
            Objects.requireNonNull(press, "press");
            Objects.requireNonNull(linger, "linger");
            if (travel.isNegative() || travel.toMillis() > 5000)
                throw new IllegalArgumentException("travel must be 0..5 s, was " + travel);
            if (press.isNegative() || press.toMillis() > 5000)
                throw new IllegalArgumentException("press must be 0..5 s, was " + press);
            if (linger.isNegative()) throw new IllegalArgumentException("linger must be >= 0, was " + linger);
        }
    }

    private sealed interface Request permits Go, Hide, Close {}

    private record Go(int x, int y, boolean press, CompletableFuture<Void> arrived) implements Request {}

    private record Hide(CompletableFuture<Void> done) implements Request {}

    private record Close() implements Request {}

    private final Timing timing;
    private final BlockingQueue<Request> queue = new LinkedBlockingQueue<>();
    private final CompletableFuture<Long> created = new CompletableFuture<>();
    private volatile boolean broken;
    private final Thread thread;

    // Owned by the overlay thread.
    private XConnection c;
    private long window;
    private long normalPixmap;
    private long pressedPixmap;
    private Memory normalShape;
    private int normalSpans;
    private Memory pressedShape;
    private int pressedSpans;
    private boolean mapped;
    private int atX = Integer.MIN_VALUE;
    private int atY;
    private long hideAtNanos = Long.MAX_VALUE;

    private CursorOverlay(Timing timing, Map<String, String> env) {
        this.timing = timing;
        this.thread = new Thread(() -> run(Map.copyOf(env)), "deckhand-cursor");
        thread.setDaemon(true);
    }

    /** Starts the overlay on the display named by {@code env}; never throws for the world. */
    public static CursorOverlay start(Map<String, String> env, Timing timing) {
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(timing, "timing");
        CursorOverlay o = new CursorOverlay(timing, env);
        o.thread.start();
        return o;
    }

    /**
     * The overlay's window id once created (waits at most {@code bound}); empty when drawing failed.
     * For tests and the doctor.
     */
    public java.util.Optional<Long> window(Duration bound) {
        try {
            return java.util.Optional.ofNullable(created.get(bound.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        } catch (ExecutionException | TimeoutException e) {
            return java.util.Optional.empty();
        }
    }

    /** True once drawing failed (then every call is a no-op). */
    public boolean broken() {
        return broken;
    }

    @Override
    public Arrival moveTo(int x, int y, boolean press) {
        if (broken) return Arrival.NOW;
        Go go = new Go(x, y, press, new CompletableFuture<>());
        queue.add(go);
        return () -> await(go.arrived(), timing.travel().toMillis() + WAIT_SLACK_MILLIS);
    }

    @Override
    public void hide() {
        if (broken) return;
        Hide h = new Hide(new CompletableFuture<>());
        queue.add(h);
        await(h.done(), timing.press().toMillis() + WAIT_SLACK_MILLIS);
    }

    @Override
    public void close() {
        queue.add(new Close());
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CompletableFuture<Void> f, long millis) {
        try {
            f.get(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException late) {
            // drawing is late or failed: the action goes on regardless
        }
    }

    // ------------------------------------------------------------------------------------------
    // The overlay thread

    private void run(Map<String, String> env) {
        try {
            create(env);
            created.complete(window);
            loop();
        } catch (RuntimeException | LinkageError e) {
            broken = true;
            created.complete(null);
            LOG.warnf("the drawn cursor is off: %s", e.getMessage() == null ? e.toString() : e.getMessage());
        } finally {
            broken = true;
            for (Request r; (r = queue.poll()) != null; ) release(r);
            if (c != null) {
                try {
                    if (!c.dead() && window != 0) {
                        Xlib.X.XDestroyWindow(c.dpy, window);
                        if (normalPixmap != 0) Xlib.X.XFreePixmap(c.dpy, normalPixmap);
                        if (pressedPixmap != 0) Xlib.X.XFreePixmap(c.dpy, pressedPixmap);
                    }
                } catch (RuntimeException ignored) {
                    // closing never fails
                }
                c.close();
            }
        }
    }

    private static void release(Request r) {
        if (r instanceof Go g) g.arrived().complete(null);
        else if (r instanceof Hide h) h.done().complete(null);
    }

    private void create(Map<String, String> env) {
        c = XConnection.open(env);
        Xlib x = Xlib.X;
        com.sun.jna.ptr.IntByReference a = new com.sun.jna.ptr.IntByReference(),
                b = new com.sun.jna.ptr.IntByReference();
        if (XShape.X.XShapeQueryExtension(c.dpy, a, b) == 0) {
            throw new IllegalStateException("the X server has no SHAPE extension (clicks could not pass through)");
        }
        Memory vinfo = new Memory(Xlib.VI_SIZE);
        vinfo.clear();
        if (x.XMatchVisualInfo(c.dpy, c.screen, 32, Xlib.TrueColor, vinfo) == 0) {
            throw new IllegalStateException("the X server offers no 32-bit TrueColor (ARGB) visual");
        }
        Pointer visual = vinfo.getPointer(Xlib.VI_VISUAL);
        int before = c.errors();
        long colormap = x.XCreateColormap(c.dpy, c.root, visual, Xlib.AllocNone);
        Memory swa = new Memory(Xlib.SWA_SIZE);
        swa.clear();
        swa.setLong(Xlib.SWA_BACK_PIXEL, 0);
        swa.setLong(Xlib.SWA_BORDER_PIXEL, 0);
        swa.setInt(Xlib.SWA_SAVE_UNDER, Xlib.True);
        swa.setInt(Xlib.SWA_OVERRIDE_REDIRECT, Xlib.True);
        swa.setLong(Xlib.SWA_COLORMAP, colormap);
        int s = CursorArt.SIZE;
        window = x.XCreateWindow(
                c.dpy,
                c.root,
                -s,
                -s,
                s,
                s,
                0,
                32,
                Xlib.InputOutput,
                visual,
                Xlib.CWBackPixel | Xlib.CWBorderPixel | Xlib.CWSaveUnder | Xlib.CWOverrideRedirect | Xlib.CWColormap,
                swa);
        x.XStoreName(c.dpy, window, X11Display.OWN_WINDOW_MARKER + " cursor");
        Memory pid = new Memory(8);
        pid.setLong(0, ProcessHandle.current().pid());
        x.XChangeProperty(
                c.dpy,
                window,
                x.XInternAtom(c.dpy, "_NET_WM_PID", Xlib.False),
                x.XInternAtom(c.dpy, "CARDINAL", Xlib.False),
                32,
                Xlib.PropModeReplace,
                pid,
                1);
        byte[] cls = "deckhand-cursor\0Deckhand\0".getBytes(StandardCharsets.ISO_8859_1);
        Memory clsMem = new Memory(cls.length);
        clsMem.write(0, cls, 0, cls.length);
        x.XChangeProperty(
                c.dpy,
                window,
                x.XInternAtom(c.dpy, "WM_CLASS", Xlib.False),
                x.XInternAtom(c.dpy, "STRING", Xlib.False),
                8,
                Xlib.PropModeReplace,
                clsMem,
                cls.length);
        // Empty input shape: the window takes no pointer input at all.
        XShape.X.XShapeCombineRectangles(
                c.dpy, window, XShape.ShapeInput, 0, 0, null, 0, XShape.ShapeSet, XShape.Unsorted);
        normalPixmap = x.XCreatePixmap(c.dpy, window, s, s, 32);
        pressedPixmap = x.XCreatePixmap(c.dpy, window, s, s, 32);
        Pointer gc = x.XCreateGC(c.dpy, normalPixmap, 0, null);
        int[] normal = CursorArt.pixels(false), pressed = CursorArt.pixels(true);
        put(visual, gc, normalPixmap, normal);
        put(visual, gc, pressedPixmap, pressed);
        x.XFreeGC(c.dpy, gc);
        List<int[]> ns = CursorArt.spans(normal), ps = CursorArt.spans(pressed);
        normalShape = rectangles(ns);
        normalSpans = ns.size();
        pressedShape = rectangles(ps);
        pressedSpans = ps.size();
        look(false);
        c.sync();
        if (c.errors() != before)
            throw new IllegalStateException("creating the overlay window failed: " + c.lastError());
    }

    private void put(Pointer visual, Pointer gc, long pixmap, int[] pixels) {
        int s = CursorArt.SIZE;
        Memory data = new Memory((long) s * s * 4);
        data.write(0, pixels, 0, pixels.length);
        Pointer image = Xlib.X.XCreateImage(c.dpy, visual, 32, Xlib.ZPixmap, 0, data, s, s, 32, s * 4);
        if (image == null) throw new IllegalStateException("XCreateImage failed");
        try {
            Xlib.X.XPutImage(c.dpy, pixmap, gc, image, 0, 0, 0, 0, s, s);
            c.sync();
        } finally {
            image.setPointer(Xlib.IMG_DATA, null); // the Memory is Java's: XFree the struct only
            Xlib.X.XFree(image);
        }
    }

    private static Memory rectangles(List<int[]> spans) {
        Memory m = new Memory(Math.max(1, spans.size()) * 8L);
        for (int i = 0; i < spans.size(); i++) {
            int[] r = spans.get(i);
            m.setShort(i * 8L, (short) r[0]);
            m.setShort(i * 8L + 2, (short) r[1]);
            m.setShort(i * 8L + 4, (short) r[2]);
            m.setShort(i * 8L + 6, (short) 1);
        }
        return m;
    }

    private void look(boolean pressed) {
        Xlib x = Xlib.X;
        x.XSetWindowBackgroundPixmap(c.dpy, window, pressed ? pressedPixmap : normalPixmap);
        XShape.X.XShapeCombineRectangles(
                c.dpy,
                window,
                XShape.ShapeBounding,
                0,
                0,
                pressed ? pressedShape : normalShape,
                pressed ? pressedSpans : normalSpans,
                XShape.ShapeSet,
                XShape.Unsorted);
        x.XClearWindow(c.dpy, window);
    }

    private void loop() throws RuntimeException {
        while (true) {
            Request r;
            try {
                long wait = hideAtNanos == Long.MAX_VALUE
                        ? 1000
                        : Math.max(0, (hideAtNanos - System.nanoTime()) / 1_000_000);
                r = queue.poll(wait, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (c.dead()) throw new IllegalStateException("the connection to the X display was lost");
            if (r == null) {
                if (mapped && System.nanoTime() >= hideAtNanos) unmap();
                continue;
            }
            if (r instanceof Close) return;
            if (r instanceof Hide h) {
                unmap();
                h.done().complete(null);
            } else if (r instanceof Go g) {
                travel(g);
            } else {
                throw new AssertionError(r);
            }
        }
    }

    private void travel(Go g) {
        Xlib x = Xlib.X;
        int tx = g.x() - CursorArt.HOT, ty = g.y() - CursorArt.HOT;
        if (atX == Integer.MIN_VALUE) {
            atX = tx - 120;
            atY = ty - 80;
        }
        int fromX = atX, fromY = atY;
        if (!mapped) {
            x.XMoveWindow(c.dpy, window, fromX, fromY);
            x.XMapRaised(c.dpy, window);
            mapped = true;
        } else {
            x.XRaiseWindow(c.dpy, window);
        }
        int frames = (int) Math.max(1, timing.travel().toMillis() / FRAME_MILLIS);
        for (int i = 1; i <= frames; i++) {
            double t = (double) i / frames;
            double e = t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
            atX = (int) Math.round(fromX + (tx - fromX) * e);
            atY = (int) Math.round(fromY + (ty - fromY) * e);
            x.XMoveWindow(c.dpy, window, atX, atY);
            x.XFlush(c.dpy);
            if (i < frames && !queue.isEmpty()) { // a newer request: jump there
                atX = tx;
                atY = ty;
                x.XMoveWindow(c.dpy, window, atX, atY);
                break;
            }
            if (i < frames) sleep(FRAME_MILLIS);
        }
        c.sync();
        g.arrived().complete(null);
        if (g.press() && queue.isEmpty()) {
            look(true);
            c.sync();
            long until = System.nanoTime() + timing.press().toNanos();
            while (System.nanoTime() < until && queue.isEmpty()) sleep(10);
            look(false);
            c.sync();
        }
        hideAtNanos = System.nanoTime() + timing.linger().toNanos();
    }

    private void unmap() {
        if (mapped) {
            Xlib.X.XUnmapWindow(c.dpy, window);
            mapped = false;
        }
        c.sync();
        hideAtNanos = Long.MAX_VALUE;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import dev.deckhand.loop.desktop.Basis;

/**
 * A button-1 click at a capture pixel as pointer events sent to the window ({@code XSendEvent}, event mask 0, so
 * only the client that made the window gets them): the real pointer does not move, no grab of the server or the
 * window manager is touched, and nothing asks for focus. Whether the window's toolkit takes such events, and
 * whether it then activates its window, is the caller's to know ({@code platform.linux.PointerToolkit}).
 *
 * <p>The events, all stamped with the server's time read just before: an {@code EnterNotify} (GTK 2 and 3 drop a
 * press in a window the pointer is not in) unless the real pointer is already in the target, a
 * {@code MotionNotify}, {@code ButtonPress}, {@code ButtonRelease}, and a {@code LeaveNotify} that gives back
 * the toolkit's view of where the real pointer is. They go to the deepest window of the granted window's client
 * under the point (Xt has a window per widget), or of its own popup when one is on top there (a menu, a combo
 * list). One thread at a time ({@link X11Display}'s lock).
 */
final class SentClick implements AutoCloseable {

    private static final Xlib X = Xlib.X;

    private final XConnection c;
    private final Windows windows;
    private final Memory event = new Memory(Xlib.EV_SIZE);
    private final IntByReference ix = new IntByReference();
    private final IntByReference iy = new IntByReference();
    private final LongByReference child = new LongByReference();
    /** An unmapped window of Deckhand's own whose property changes tell the server's time; 0 until first used. */
    private long clock;

    private long clockAtom;

    SentClick(XConnection c, Windows windows) {
        this.c = c;
        this.windows = windows;
    }

    /** Where the events went: the window, the point in it and on the screen. */
    record Target(long window, int x, int y, int rootX, int rootY) {}

    /** See {@link X11Display#sendClick(int, int, Basis)}. */
    Target click(int x, int y, Basis basis) {
        int[] screen = PointerClick.screenPoint(windows, x, y, basis);
        int sx = screen[0];
        int sy = screen[1];
        long client = windows.clientOf(basis.windowId());
        // the window's own popup on top at the point (same client, override-redirect) takes the click, as it
        // would a real one; anything else on top does not matter: the events go to the granted window itself
        X.XTranslateCoordinates(c.dpy, c.root, c.root, sx, sy, ix, iy, child);
        long top = child.getValue();
        long start = basis.windowId();
        if (top != 0 && top != windows.topLevel(start) && windows.clientOf(top) == client) {
            Windows.Placement p = windows.placement(top);
            if (p != null && p.overrideRedirect()) start = top;
        }
        Target t = deepest(start, client, sx, sy);
        boolean inside = pointerIn(t.window());
        long time = serverTime();
        int before = c.errors();
        if (!inside) crossing(Xlib.EnterNotify, t, time);
        pointer(Xlib.MotionNotify, t, time, 0, 0);
        pointer(Xlib.ButtonPress, t, time, 0, 1);
        pointer(Xlib.ButtonRelease, t, time + 1, Xlib.Button1Mask, 1);
        if (!inside) crossing(Xlib.LeaveNotify, t, time + 1);
        c.sync();
        if (c.errors() != before) throw Windows.gone(basis.windowId());
        return t;
    }

    /** The deepest mapped window of {@code client} under screen point {@code (sx, sy)}, from {@code start} down. */
    private Target deepest(long start, long client, int sx, int sy) {
        long target = start;
        X.XTranslateCoordinates(c.dpy, c.root, target, sx, sy, ix, iy, child);
        int tx = ix.getValue(), ty = iy.getValue();
        for (int depth = 0; depth < 64; depth++) {
            long below = child.getValue();
            if (below == 0 || windows.clientOf(below) != client) break;
            int before = c.errors();
            X.XTranslateCoordinates(c.dpy, target, below, tx, ty, ix, iy, child);
            if (c.errors() != before) break;
            target = below;
            tx = ix.getValue();
            ty = iy.getValue();
        }
        return new Target(target, tx, ty, sx, sy);
    }

    /** Whether the real pointer is over {@code window} now: the deepest window under it is {@code window} or inside it. */
    private boolean pointerIn(long window) {
        LongByReference root = new LongByReference(), under = new LongByReference();
        IntByReference rx = new IntByReference(),
                ry = new IntByReference(),
                wx = new IntByReference(),
                wy = new IntByReference(),
                mask = new IntByReference();
        if (X.XQueryPointer(c.dpy, c.root, root, under, rx, ry, wx, wy, mask) == 0) return false;
        long w = c.root;
        for (int depth = 0; depth < 64; depth++) {
            X.XTranslateCoordinates(c.dpy, c.root, w, rx.getValue(), ry.getValue(), ix, iy, child);
            if (child.getValue() == 0) break;
            w = child.getValue();
        }
        return isAncestor(window, w);
    }

    /** Whether {@code ancestor} is {@code window} or one of its ancestors. */
    private boolean isAncestor(long ancestor, long window) {
        LongByReference r = new LongByReference(), parent = new LongByReference();
        com.sun.jna.ptr.PointerByReference kids = new com.sun.jna.ptr.PointerByReference();
        IntByReference n = new IntByReference();
        long w = window;
        for (int depth = 0; depth < 64 && w != 0 && w != c.root; depth++) {
            if (w == ancestor) return true;
            if (X.XQueryTree(c.dpy, w, r, parent, kids, n) == 0) return false;
            if (kids.getValue() != null) X.XFree(kids.getValue());
            w = parent.getValue();
        }
        return false;
    }

    /**
     * The server's time now: a property change on Deckhand's own unmapped window, and the time its
     * {@code PropertyNotify} carries. Toolkits compare button times (double clicks) and grab with them, so
     * {@code CurrentTime} (0) on every event would make each click after the first a double click.
     */
    private long serverTime() {
        if (clock == 0) {
            clock = X.XCreateSimpleWindow(c.dpy, c.root, -10, -10, 1, 1, 0, 0, 0);
            X.XSelectInput(c.dpy, clock, Xlib.PropertyChangeMask);
            clockAtom = X.XInternAtom(c.dpy, "_DECKHAND_TIME", Xlib.False);
        }
        X.XChangeProperty(c.dpy, clock, clockAtom, clockAtom, 8, Xlib.PropModeReplace, null, 0);
        c.sync();
        long time = Xlib.CurrentTime;
        while (X.XCheckTypedWindowEvent(c.dpy, clock, Xlib.PropertyNotify, event) != 0) {
            time = event.getLong(Xlib.EV_PROPERTY_TIME);
        }
        return time;
    }

    private void common(int type, Target t, long time) {
        event.clear();
        event.setInt(Xlib.EV_TYPE, type);
        event.setLong(Xlib.EV_SEND_EVENT, 1);
        event.setPointer(Xlib.EV_DISPLAY, c.dpy);
        event.setLong(Xlib.EV_WINDOW, t.window());
        event.setLong(Xlib.EV_ROOT, c.root);
        event.setLong(Xlib.EV_SUBWINDOW, Xlib.None);
        event.setLong(Xlib.EV_TIME, time);
        event.setInt(Xlib.EV_X, t.x());
        event.setInt(Xlib.EV_Y, t.y());
        event.setInt(Xlib.EV_X_ROOT, t.rootX());
        event.setInt(Xlib.EV_Y_ROOT, t.rootY());
        event.setInt(Xlib.EV_SAME_SCREEN, Xlib.True);
    }

    private void crossing(int type, Target t, long time) {
        common(type, t, time);
        event.setInt(Xlib.EV_CROSSING_MODE, Xlib.NotifyNormal);
        event.setInt(Xlib.EV_CROSSING_DETAIL, Xlib.NotifyNonlinear);
        event.setInt(Xlib.EV_CROSSING_FOCUS, Xlib.False);
        event.setInt(Xlib.EV_CROSSING_STATE, 0);
        X.XSendEvent(c.dpy, t.window(), Xlib.False, 0L, event);
    }

    private void pointer(int type, Target t, long time, int state, int button) {
        common(type, t, time);
        event.setInt(Xlib.EV_STATE, state);
        if (type != Xlib.MotionNotify) event.setInt(Xlib.EV_BUTTON, button);
        X.XSendEvent(c.dpy, t.window(), Xlib.False, 0L, event);
    }

    @Override
    public void close() {
        if (clock != 0) {
            X.XDestroyWindow(c.dpy, clock);
            clock = 0;
        }
    }
}

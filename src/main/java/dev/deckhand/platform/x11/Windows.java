package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The windows of the display: the window manager's client list with each window's title, class, pid,
 * geometry and state; fresh geometry measures (a capture's basis); each window's top-level (the root
 * child holding it: the window manager's frame or an unmanaged window) and the input focus. One thread
 * at a time ({@link X11Display}'s lock); a window that vanishes mid-read is left out or refused
 * {@code PREFLIGHT_FAILED}, never an error that ends anything.
 */
final class Windows {

    private static final Xlib X = Xlib.X;

    private final XConnection c;
    private final WindowProperties props;
    /** The client bits of an XID (every client has the same resource mask), 0 when not known. */
    private final long clientBits;

    private final long ownPid = ProcessHandle.current().pid();

    // Reused native buffers (Memory is freed only by GC, so keep a few and reuse them).
    private final Memory attrs = new Memory(Xlib.WA_SIZE);
    private final IntByReference ix = new IntByReference();
    private final IntByReference iy = new IntByReference();
    private final LongByReference childRef = new LongByReference();

    /** Whether the X-Resource extension answers here (probed once); without it such a window keeps pid -1. */
    private Boolean xres;

    private int xresPid(long window) {
        if (xres == null) {
            try {
                xres = XRes.X.XResQueryExtension(c.dpy, new IntByReference(), new IntByReference()) != 0;
            } catch (UnsatisfiedLinkError | NoClassDefFoundError missing) {
                xres = false; // libXRes is not installed (scripts/deps.sh DESKTOP lists it)
            }
        }
        return xres ? XRes.clientPid(c.dpy, window) : -1;
    }

    Windows(XConnection c, WindowProperties props) {
        this.c = c;
        this.props = props;
        // Display.private4 is this connection's resource_mask (x86_64 offset 48); the server gives every
        // client the same one, so the bits above it name the client that created a window.
        long mask = c.dpy.getLong(48);
        this.clientBits = mask > 0 && (mask & (mask + 1)) == 0 ? ~mask : 0;
    }

    /** See {@link X11Display#windows()}. */
    List<WindowInfo> list() {
        long[] ids = props.cardinals(c.root, "_NET_CLIENT_LIST_STACKING", "WINDOW");
        if (ids.length == 0) ids = props.cardinals(c.root, "_NET_CLIENT_LIST", "WINDOW");
        List<WindowInfo> out = new ArrayList<>(ids.length);
        for (long id : ids) {
            WindowInfo info = read(id, out.size());
            if (info != null) out.add(info);
        }
        return List.copyOf(out);
    }

    /**
     * See {@link X11Display#window(long)}: {@code id} as {@code listed} (a {@link #list()} answer) has it;
     * a window that is not listed is read now.
     */
    Optional<WindowInfo> window(List<WindowInfo> listed, long id) {
        for (WindowInfo w : listed) if (w.id() == id) return Optional.of(w);
        WindowInfo unlisted = read(id, -1);
        return Optional.ofNullable(unlisted)
                .map(w -> new WindowInfo(
                        w.id(), w.title(), w.app(), w.pid(), w.geometry(), 0, w.visible(), w.minimised(), w.own()));
    }

    private WindowInfo read(long id, int stacking) {
        int before = c.errors();
        if (X.XGetWindowAttributes(c.dpy, id, attrs) == 0) return null;
        int w = attrs.getInt(Xlib.WA_WIDTH);
        int h = attrs.getInt(Xlib.WA_HEIGHT);
        boolean viewable = attrs.getInt(Xlib.WA_MAP_STATE) == Xlib.IsViewable;
        if (X.XTranslateCoordinates(c.dpy, id, c.root, 0, 0, ix, iy, childRef) == 0) return null;
        Geometry g = new Geometry(ix.getValue(), iy.getValue(), w, h);
        String title = props.utf8(id, "_NET_WM_NAME");
        if (title == null || title.isEmpty()) title = props.latin1Name(id);
        String app = props.wmClass(id);
        long[] pidv = props.cardinals(id, "_NET_WM_PID", "CARDINAL");
        // No _NET_WM_PID (Athena apps): the X server says which process the window's client is.
        int pid = pidv.length > 0 ? (int) pidv[0] : xresPid(id);
        long[] state = props.cardinals(id, "_NET_WM_STATE", "ATOM");
        boolean hidden = contains(state, props.atom("_NET_WM_STATE_HIDDEN"));
        boolean modal = contains(state, props.atom("_NET_WM_STATE_MODAL"));
        long[] transientFor = props.cardinals(id, "WM_TRANSIENT_FOR", "WINDOW");
        long[] wmState = props.cardinals(id, "WM_STATE", "WM_STATE");
        boolean iconic = wmState.length > 0 && wmState[0] == 3;
        c.sync();
        if (c.errors() != before) return null; // vanished mid-read
        boolean onScreen = g.x() < c.width && g.y() < c.height && g.x() + w > 0 && g.y() + h > 0;
        String t = title == null ? "" : title;
        boolean own = t.contains(X11Display.OWN_WINDOW_MARKER) || (pid > 0 && pid == ownPid);
        return new WindowInfo(
                id,
                t,
                app,
                pid,
                g,
                Math.max(stacking, 0),
                viewable && !hidden && onScreen,
                hidden || iconic,
                own,
                id & clientBits,
                transientFor.length > 0 ? transientFor[0] : 0,
                modal,
                -1);
    }

    private static boolean contains(long[] values, long v) {
        for (long x : values) if (x == v) return true;
        return false;
    }

    /**
     * The window's client area in screen coordinates (root-relative origin, inner size).
     *
     * @throws RefusedException {@code PREFLIGHT_FAILED} when the window does not exist, or (with
     *     {@code requireViewable}) is not mapped
     */
    Geometry measure(long window, boolean requireViewable) {
        int before = c.errors();
        if (X.XGetWindowAttributes(c.dpy, window, attrs) == 0 || c.errors() != before) {
            throw gone(window);
        }
        if (requireViewable && attrs.getInt(Xlib.WA_MAP_STATE) != Xlib.IsViewable) {
            throw new RefusedException(Refusal.preflightFailed(
                    "window 0x" + Long.toHexString(window) + " is not mapped (minimised or on another desktop)"));
        }
        int w = attrs.getInt(Xlib.WA_WIDTH), h = attrs.getInt(Xlib.WA_HEIGHT);
        if (X.XTranslateCoordinates(c.dpy, window, c.root, 0, 0, ix, iy, childRef) == 0 || c.errors() != before) {
            throw gone(window);
        }
        return new Geometry(ix.getValue(), iy.getValue(), w, h);
    }

    static RefusedException gone(long window) {
        return new RefusedException(
                Refusal.preflightFailed("window 0x" + Long.toHexString(window) + " no longer exists"));
    }

    /** See {@link X11Display#basisValid(Basis)}. */
    boolean basisValid(Basis basis) {
        try {
            return measure(basis.windowId(), true).equals(basis.windowGeometry());
        } catch (RefusedException gone) {
            return false;
        }
    }

    /** The ancestor of {@code window} that is a direct child of the root (0 when it vanished). */
    long topLevel(long window) {
        long w = window;
        LongByReference r = new LongByReference(), parent = new LongByReference();
        PointerByReference kids = new PointerByReference();
        IntByReference n = new IntByReference();
        for (int depth = 0; depth < 64 && w != c.root; depth++) {
            int before = c.errors();
            if (X.XQueryTree(c.dpy, w, r, parent, kids, n) == 0 || c.errors() != before) return 0;
            if (kids.getValue() != null) X.XFree(kids.getValue());
            if (parent.getValue() == c.root) return w;
            w = parent.getValue();
        }
        return w == c.root ? c.root : 0;
    }

    /** The raw input focus window (0 for None, 1 for PointerRoot). */
    long inputFocus() {
        LongByReference focus = new LongByReference();
        X.XGetInputFocus(c.dpy, focus, new IntByReference());
        return focus.getValue();
    }

    /** See {@link X11Display#focusedTopLevel()}. */
    long focusedTopLevel() {
        long f = inputFocus();
        if (f == Xlib.None || f == 1 /* PointerRoot */) return 0;
        return topLevel(f);
    }

    /**
     * See {@link X11Display#activeWindow()}: the window manager's {@code _NET_ACTIVE_WINDOW} (a client window,
     * 0 for none); without an EWMH window manager, the client whose top-level holds the input focus.
     */
    long activeWindow() {
        long[] active = props.cardinals(c.root, "_NET_ACTIVE_WINDOW", "WINDOW");
        if (active.length > 0) return active[0];
        long top = focusedTopLevel();
        if (top == 0) return 0;
        long[] ids = props.cardinals(c.root, "_NET_CLIENT_LIST", "WINDOW");
        for (long id : ids) if (topLevel(id) == top) return id;
        return top;
    }

    /** The root's children bottom to top (top-levels: frames, unmanaged and override-redirect windows). */
    long[] rootChildren() {
        LongByReference r = new LongByReference(), parent = new LongByReference();
        PointerByReference kids = new PointerByReference();
        IntByReference n = new IntByReference();
        if (X.XQueryTree(c.dpy, c.root, r, parent, kids, n) == 0 || kids.getValue() == null) return new long[0];
        try {
            return kids.getValue().getLongArray(0, n.getValue());
        } finally {
            X.XFree(kids.getValue());
        }
    }

    /** Where a root child is and how it is mapped, as {@link #placement} reads it. */
    record Placement(Geometry geometry, boolean overrideRedirect, boolean viewable) {}

    /** A window's position relative to its parent, size and map state; null when it is gone. */
    Placement placement(long window) {
        int before = c.errors();
        if (X.XGetWindowAttributes(c.dpy, window, attrs) == 0 || c.errors() != before) return null;
        return new Placement(
                new Geometry(
                        attrs.getInt(Xlib.WA_X),
                        attrs.getInt(Xlib.WA_Y),
                        attrs.getInt(Xlib.WA_WIDTH),
                        attrs.getInt(Xlib.WA_HEIGHT)),
                attrs.getInt(Xlib.WA_OVERRIDE_REDIRECT) != 0,
                attrs.getInt(Xlib.WA_MAP_STATE) == Xlib.IsViewable);
    }

    /** The client part of an XID: equal for every window one client created; 0 when not known. */
    long clientOf(long window) {
        return window & clientBits;
    }

    long ownPid() {
        return ownPid;
    }

    Geometry screen() {
        return new Geometry(0, 0, c.width, c.height);
    }
}

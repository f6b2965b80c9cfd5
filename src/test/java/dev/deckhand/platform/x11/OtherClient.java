package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A second, independent X client for tests (its own {@code XOpenDisplay} connection, so the server
 * treats it as another application): it creates solid-colour windows, holds keyboard grabs, moves
 * windows and records the button presses its windows receive.
 */
public final class OtherClient implements AutoCloseable {

    /** {@link #grabKeyboard()}'s status when the grab was taken. */
    public static final int GRAB_SUCCESS = Xlib.GrabSuccess;

    private static final Xlib X = Xlib.X;
    private final Pointer dpy;
    private final long root;
    private final List<Long> windows = new ArrayList<>();

    public OtherClient(String display) {
        XConnection.installErrorHandler(); // never let a test's X error exit() the JVM
        this.dpy = X.XOpenDisplay(display);
        if (dpy == null) throw new IllegalStateException("cannot open display " + display);
        this.root = X.XDefaultRootWindow(dpy);
    }

    /** A mapped top-level window filled with {@code rgb}, titled {@code title}. */
    public long solidWindow(String title, int x, int y, int w, int h, int rgb) {
        long win = X.XCreateSimpleWindow(dpy, root, x, y, w, h, 0, 0, rgb);
        X.XStoreName(dpy, win, title);
        // WM_NORMAL_HINTS with USPosition|USSize: the window manager keeps the position we ask for.
        Memory hints = new Memory(18 * 8);
        hints.clear();
        hints.setLong(0, 1 | 2);
        hints.setLong(8, x);
        hints.setLong(16, y);
        hints.setLong(24, w);
        hints.setLong(32, h);
        long normalHints = X.XInternAtom(dpy, "WM_NORMAL_HINTS", Xlib.False);
        long sizeHints = X.XInternAtom(dpy, "WM_SIZE_HINTS", Xlib.False);
        X.XChangeProperty(dpy, win, normalHints, sizeHints, 32, 0 /* PropModeReplace */, hints, 18);
        X.XSelectInput(dpy, win, Xlib.ButtonPressMask | Xlib.ButtonReleaseMask);
        X.XMapRaised(dpy, win);
        X.XSync(dpy, Xlib.False);
        windows.add(win);
        return win;
    }

    public void raise(long window) {
        X.XRaiseWindow(dpy, window);
        X.XSync(dpy, Xlib.False);
    }

    /**
     * A mapped override-redirect window (the window manager leaves it alone) with no content of its own,
     * to hold other windows; destroyed on {@link #close()}.
     */
    public long holder(int x, int y, int w, int h) {
        Memory attrs = new Memory(Xlib.SWA_SIZE);
        attrs.clear();
        attrs.setInt(Xlib.SWA_OVERRIDE_REDIRECT, Xlib.True);
        long win = X.XCreateWindow(
                dpy,
                root,
                x,
                y,
                w,
                h,
                0,
                0 /* CopyFromParent */,
                Xlib.InputOutput,
                null,
                Xlib.CWOverrideRedirect,
                attrs);
        X.XMapRaised(dpy, win);
        X.XSync(dpy, Xlib.False);
        windows.add(win);
        return win;
    }

    /** A mapped plain child window of {@code parent} (no redirect: the server moves it at once). */
    public long child(long parent, int x, int y, int w, int h) {
        long win = X.XCreateSimpleWindow(dpy, parent, x, y, w, h, 0, 0, 0x404040);
        X.XMapRaised(dpy, win);
        X.XSync(dpy, Xlib.False);
        return win;
    }

    /** Reparents any window (e.g. a window manager's frame) into {@code parent}; synced. */
    public void reparent(long window, long parent, int x, int y) {
        X.XReparentWindow(dpy, window, parent, x, y);
        X.XSync(dpy, Xlib.False);
    }

    /** Moves any window (e.g. a window manager's frame) as this client; synced. */
    public void move(long window, int x, int y) {
        X.XMoveWindow(dpy, window, x, y);
        X.XSync(dpy, Xlib.False);
    }

    /** The window's position in its parent as the server has it now, or null when it is gone. */
    public int[] position(long window) {
        Memory attrs = new Memory(Xlib.WA_SIZE);
        if (X.XGetWindowAttributes(dpy, window, attrs) == 0) return null;
        return new int[] {attrs.getInt(Xlib.WA_X), attrs.getInt(Xlib.WA_Y)};
    }

    public void destroy(long window) {
        X.XDestroyWindow(dpy, window);
        X.XSync(dpy, Xlib.False);
        windows.remove(window);
    }

    /** This client's resource base: the client bits of every XID it creates ({@code Display.private3}). */
    public long clientBase() {
        return dpy.getLong(40);
    }

    /** Grabs the keyboard on the root; returns the grab status (0 = GrabSuccess). */
    public int grabKeyboard() {
        int r = X.XGrabKeyboard(dpy, root, Xlib.False, Xlib.GrabModeAsync, Xlib.GrabModeAsync, Xlib.CurrentTime);
        X.XSync(dpy, Xlib.False);
        return r;
    }

    public void ungrabKeyboard() {
        X.XUngrabKeyboard(dpy, Xlib.CurrentTime);
        X.XSync(dpy, Xlib.False);
    }

    /** The first ButtonPress received by one of this client's windows, as {window, x, y, button}. */
    public Optional<long[]> nextButtonPress() {
        X.XSync(dpy, Xlib.False);
        Memory ev = new Memory(Xlib.EV_SIZE);
        while (X.XPending(dpy) > 0) {
            X.XNextEvent(dpy, ev);
            if (ev.getInt(Xlib.EV_TYPE) == Xlib.ButtonPress) {
                return Optional.of(new long[] {
                    ev.getLong(Xlib.EV_WINDOW), ev.getInt(Xlib.EV_X), ev.getInt(Xlib.EV_Y), ev.getInt(Xlib.EV_BUTTON)
                });
            }
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        for (long w : List.copyOf(windows)) destroy(w);
        X.XCloseDisplay(dpy);
    }
}

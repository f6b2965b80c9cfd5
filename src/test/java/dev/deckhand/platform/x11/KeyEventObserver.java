package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An independent X client that counts the key events the server delivers to one app window (it selects
 * {@code KeyPressMask} on that window from its own connection, which X allows many clients to do). It
 * sees real input (XTEST, a keyboard) delivered to the window or any window inside it; it does not see {@code XSendEvent}s with an empty mask, which go
 * to the window's creator only.
 */
public final class KeyEventObserver implements AutoCloseable {

    private static final int GENERIC_EVENT = 35, XI_KEY_PRESS = 2;

    /** libXi: XInput 2 selection ({@code XIEventMask} is {int deviceid; int mask_len; unsigned char* mask}). */
    interface Xi extends com.sun.jna.Library {
        Xi X = com.sun.jna.Native.load("Xi", Xi.class);

        int XIQueryVersion(Pointer display, com.sun.jna.ptr.IntByReference major, com.sun.jna.ptr.IntByReference minor);

        int XISelectEvents(Pointer display, long window, Pointer masks, int count);
    }

    /** The resource-id part of an XID; the bits above name the client that created it. */
    private static final long CLIENT_MASK = 0x1fffffL;

    private static final long KEY_MASK = 1L | 2L; // KeyPressMask | KeyReleaseMask
    private final Pointer dpy;
    private final AtomicInteger presses = new AtomicInteger();
    private final Thread thread;
    private volatile boolean running = true;

    public KeyEventObserver(String display, long window) {
        XConnection.installErrorHandler();
        dpy = Xlib.X.XOpenDisplay(display);
        if (dpy == null) throw new IllegalStateException("cannot open display " + display);
        com.sun.jna.ptr.IntByReference major = new com.sun.jna.ptr.IntByReference(2),
                minor = new com.sun.jna.ptr.IntByReference(0);
        if (Xi.X.XIQueryVersion(dpy, major, minor) != 0) throw new IllegalStateException("no XInput 2 on " + display);
        selectTree(window, 0);
        // GTK 3 gives the keyboard focus to a window of its own beside the top-level (same client, so the
        // same XID base): watch the focus window too when it belongs to the app.
        com.sun.jna.ptr.LongByReference focus = new com.sun.jna.ptr.LongByReference();
        Xlib.X.XGetInputFocus(dpy, focus, new com.sun.jna.ptr.IntByReference());
        if ((focus.getValue() & ~CLIENT_MASK) == (window & ~CLIENT_MASK)) selectTree(focus.getValue(), 0);
        Xlib.X.XSync(dpy, Xlib.False);
        thread = new Thread(this::count, "key-observer");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The window and all its descendants: a key event is delivered to the focus window (or the window
     * under the pointer inside it) and reaches an ancestor only when no client selected it below.
     */
    private void selectTree(long window, int depth) {
        Xlib.X.XSelectInput(dpy, window, KEY_MASK);
        // GTK 3 takes keys as XInput 2 events, and a window that delivers a key as XI2 does not deliver
        // it as a core event too: select XI_KeyPress from the master devices as well.
        Memory mask = new Memory(1);
        mask.setByte(0, (byte) (1 << XI_KEY_PRESS));
        Memory em = new Memory(16);
        em.setInt(0, 1); // XIAllMasterDevices
        em.setInt(4, 1);
        em.setPointer(8, mask);
        Xi.X.XISelectEvents(dpy, window, em, 1);
        com.sun.jna.ptr.LongByReference r = new com.sun.jna.ptr.LongByReference(),
                p = new com.sun.jna.ptr.LongByReference();
        com.sun.jna.ptr.PointerByReference kids = new com.sun.jna.ptr.PointerByReference();
        com.sun.jna.ptr.IntByReference n = new com.sun.jna.ptr.IntByReference();
        if (depth > 8 || Xlib.X.XQueryTree(dpy, window, r, p, kids, n) == 0 || kids.getValue() == null) return;
        long[] children = kids.getValue().getLongArray(0, n.getValue());
        Xlib.X.XFree(kids.getValue());
        for (long c : children) selectTree(c, depth + 1);
    }

    private void count() {
        Memory ev = new Memory(Xlib.EV_SIZE);
        while (running) {
            if (Xlib.X.XPending(dpy) == 0) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
                continue;
            }
            Xlib.X.XNextEvent(dpy, ev);
            int type = ev.getInt(Xlib.EV_TYPE);
            if (type == Xlib.KeyPress || (type == GENERIC_EVENT && ev.getInt(36) == XI_KEY_PRESS))
                presses.incrementAndGet();
        }
    }

    /** Key presses delivered to the window so far (core or XInput 2, whichever the server delivered). */
    public int presses() {
        return presses.get();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(2000);
        Xlib.X.XCloseDisplay(dpy);
    }
}

package dev.deckhand.platform.x11;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An Xlib connection of its own for a presence part (the drawn cursor, the Stop shortcut), used by
 * one thread only. Protocol errors on it are counted (the process-wide handler of {@link X11Display}
 * routes them here) and a lost server marks it dead instead of ending the process.
 */
final class SideConnection implements AutoCloseable {

    static final Map<Long, SideConnection> OPEN = new ConcurrentHashMap<>();
    /** Strong reference: a collected callback would crash the JVM when the server goes away. */
    private static final Xlib.IOErrorExitHandler IO_EXIT = SideConnection::onIoExit;

    final Pointer dpy;
    final long root;
    final int screen;
    final int width;
    final int height;
    private final long address;
    private volatile boolean dead;
    private volatile int errors;
    private volatile int lastErrorCode;
    private volatile int lastErrorRequest;
    private boolean closed;

    private SideConnection(Pointer dpy) {
        this.dpy = dpy;
        this.address = Pointer.nativeValue(dpy);
        OPEN.put(address, this);
        try {
            Xlib.X.XSetIOErrorExitHandler(dpy, IO_EXIT, null);
        } catch (UnsatisfiedLinkError old) {
            // libX11 < 1.7: a lost server still ends the process; nothing more can be done from Java.
        }
        this.root = Xlib.X.XDefaultRootWindow(dpy);
        this.screen = Xlib.X.XDefaultScreen(dpy);
        this.width = Xlib.X.XDisplayWidth(dpy, screen);
        this.height = Xlib.X.XDisplayHeight(dpy, screen);
    }

    /**
     * Opens the display named by {@code env.get("DISPLAY")}.
     *
     * @throws RefusedException {@code HEADLESS} without a display or libX11, {@code PLATFORM_UNSUPPORTED}
     *     off Linux or off LP64
     */
    static SideConnection open(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        X11Display.requireLinux(System.getProperty("os.name"));
        if (Native.LONG_SIZE != 8) {
            throw new RefusedException(RefusalCode.PLATFORM_UNSUPPORTED, "the X11 presence parts need LP64");
        }
        String name = env.get("DISPLAY");
        if (name == null || name.isBlank()) {
            throw new RefusedException(RefusalCode.HEADLESS, "DISPLAY is not set");
        }
        try {
            X11Display.installErrorHandler();
        } catch (LinkageError | NullPointerException noXlib) {
            throw new RefusedException(RefusalCode.HEADLESS, "libX11 cannot be loaded");
        }
        Pointer dpy = Xlib.X.XOpenDisplay(name);
        if (dpy == null) throw new RefusedException(RefusalCode.HEADLESS, "cannot open X display '" + name + "'");
        return new SideConnection(dpy);
    }

    private static void onIoExit(Pointer display, Pointer userData) {
        SideConnection c = OPEN.get(Pointer.nativeValue(display));
        if (c != null) c.dead = true;
    }

    void onError(int code, int request) {
        errors++;
        lastErrorCode = code;
        lastErrorRequest = request;
    }

    /** Protocol errors seen so far (compare before and after a request, after {@link #sync()}). */
    int errors() {
        return errors;
    }

    /** The last error's code (e.g. 10 = BadAccess) and request, as words. */
    String lastError() {
        return "X error " + lastErrorCode + " on request " + lastErrorRequest;
    }

    int lastErrorCode() {
        return lastErrorCode;
    }

    boolean dead() {
        return dead;
    }

    void sync() {
        Xlib.X.XSync(dpy, Xlib.False);
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        if (!dead) Xlib.X.XCloseDisplay(dpy);
        OPEN.remove(address);
    }
}

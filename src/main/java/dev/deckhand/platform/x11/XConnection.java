package dev.deckhand.platform.x11;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One Xlib connection ({@code Display*}) that nothing on it can end the JVM through: the connection of
 * {@link X11Display} and those of the presence parts (the drawn cursor, the Stop shortcut) are all of
 * this kind. The owner uses it from one thread at a time.
 *
 * <p>A process-wide {@code XSetErrorHandler} (held in a static field so the callback is never collected)
 * counts protocol errors per connection (BadWindow when a window vanishes, BadMatch, BadAccess, ...)
 * instead of Xlib's default {@code exit()}: callers compare {@link #errors()} around a request after a
 * {@link #sync()}. A process-wide {@code XSetIOErrorHandler} plus a per-connection
 * {@code XSetIOErrorExitHandler} (libX11 ≥ 1.7; both are needed, checked on libX11 1.8.4) mark the
 * connection {@linkplain #dead() dead} instead of exiting when the X server goes away.
 */
final class XConnection implements AutoCloseable {

    private static final Map<Long, XConnection> OPEN = new ConcurrentHashMap<>();
    /** Why libX11 could not be loaded, or null when it loaded. */
    private static final String XLIB_MISSING = xlibMissing();
    /** Strong references: a collected callback would crash the JVM on the next X error. */
    private static final Xlib.ErrorHandler ERROR_HANDLER = XConnection::onXError;

    private static final Xlib.IOErrorHandler IO_ERROR_HANDLER = XConnection::onIoErrorReport;
    private static final Xlib.IOErrorExitHandler IO_EXIT_HANDLER = XConnection::onIoError;
    private static boolean handlerInstalled;

    final Pointer dpy;
    final long root;
    final int screen;
    final int width;
    final int height;
    private final long address;
    private volatile boolean dead;
    private volatile int errors;
    private volatile String lastError = "";
    private volatile int lastErrorCode;
    private boolean closed;

    private XConnection(Pointer dpy) {
        this.dpy = dpy;
        this.address = Pointer.nativeValue(dpy);
        OPEN.put(address, this);
        try {
            Xlib.X.XSetIOErrorExitHandler(dpy, IO_EXIT_HANDLER, null);
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
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} off Linux or off LP64; {@code HEADLESS}
     *     when {@code DISPLAY} is unset, libX11 cannot be loaded or the display does not answer
     */
    static XConnection open(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        X11Display.requireLinux(System.getProperty("os.name"));
        if (Native.LONG_SIZE != 8) {
            throw new RefusedException(Refusal.platformUnsupported(
                    "the X11 driver needs a 64-bit C long (LP64); this JVM has " + Native.LONG_SIZE * 8 + "-bit"));
        }
        String name = env.get("DISPLAY");
        if (name == null || name.isBlank()) {
            throw new RefusedException(Refusal.headless("DISPLAY is not set: no X display to drive"));
        }
        if (XLIB_MISSING != null) {
            throw new RefusedException(Refusal.headless("libX11 cannot be loaded (" + XLIB_MISSING + ")"));
        }
        installErrorHandler();
        Pointer dpy = Xlib.X.XOpenDisplay(name);
        if (dpy == null) {
            throw new RefusedException(Refusal.headless("cannot open X display '" + name + "'"));
        }
        return new XConnection(dpy);
    }

    private static String xlibMissing() {
        try {
            Objects.requireNonNull(Xlib.X);
            return null;
        } catch (LinkageError missing) { // UnsatisfiedLinkError, or the interface's failed initialiser
            return String.valueOf(missing.getMessage());
        }
    }

    /**
     * Installs the process-wide error handlers once (tests that open connections of their own call it
     * too, so that no X error of theirs can {@code exit()} the JVM).
     */
    static synchronized void installErrorHandler() {
        if (handlerInstalled) return;
        Xlib.X.XInitThreads(); // libX11 ≥ 1.8 already does this at load; harmless otherwise
        Xlib.X.XSetErrorHandler(ERROR_HANDLER);
        // Xlib's default I/O error handler prints and exit()s itself; ours returns, and the
        // per-display exit handler (libX11 >= 1.7) then returns too instead of exit(1).
        Xlib.X.XSetIOErrorHandler(IO_ERROR_HANDLER);
        handlerInstalled = true;
    }

    @SuppressWarnings("NonAtomicVolatileUpdate") // Xlib calls it with the display locked (XInitThreads): one at a time
    private static int onXError(Pointer display, Pointer ev) {
        XConnection c = OPEN.get(Pointer.nativeValue(display));
        if (c != null) {
            c.lastErrorCode = ev.getByte(Xlib.ERR_CODE) & 0xff;
            c.lastError = "X error " + c.lastErrorCode + " on request " + (ev.getByte(Xlib.ERR_REQUEST) & 0xff) + "."
                    + (ev.getByte(Xlib.ERR_MINOR) & 0xff) + " for resource 0x"
                    + Long.toHexString(ev.getLong(Xlib.ERR_RESOURCE));
            c.errors++;
        }
        return 0; // never exit()
    }

    private static int onIoErrorReport(Pointer display) {
        XConnection c = OPEN.get(Pointer.nativeValue(display));
        if (c != null) c.dead = true;
        return 0;
    }

    private static void onIoError(Pointer display, Pointer userData) {
        XConnection c = OPEN.get(Pointer.nativeValue(display));
        if (c != null) c.dead = true;
        // Returning (instead of Xlib's default exit(1)) leaves the connection unusable; callers see dead.
    }

    /** Protocol errors seen so far on this connection (compare before and after a request, after {@link #sync()}). */
    int errors() {
        return errors;
    }

    /** Forgets the errors after the first {@code count}: ones the caller expected (a popup that closed meanwhile). */
    void forgetErrorsAfter(int count) {
        errors = count;
    }

    /** The last protocol error, in words (code, request, resource). */
    String lastError() {
        return lastError;
    }

    /** The last protocol error's code (10 = BadAccess). */
    int lastErrorCode() {
        return lastErrorCode;
    }

    /** True once the X server went away; every later request is pointless. */
    boolean dead() {
        return dead;
    }

    /**
     * {@code XSync}: every request so far has reached the server and its errors are counted.
     *
     * @throws RefusedException {@code HEADLESS} when the connection was lost
     */
    void sync() {
        Xlib.X.XSync(dpy, Xlib.False);
        if (dead) throw new RefusedException(Refusal.headless("the connection to the X display was lost"));
    }

    /**
     * Hands each event of this connection to {@code onEvent} until {@code stop} says so or the connection is lost;
     * while none is queued, waits for one at most {@code pollMillis} and runs {@code onIdle} (with nothing queued,
     * so it may send requests of its own).
     */
    void eachEvent(
            java.util.function.BooleanSupplier stop,
            int pollMillis,
            java.util.function.Consumer<com.sun.jna.Memory> onEvent,
            Runnable onIdle) {
        Xlib x = Xlib.X;
        com.sun.jna.Memory pfd = new com.sun.jna.Memory(8);
        com.sun.jna.Memory event = new com.sun.jna.Memory(Xlib.EV_SIZE);
        int fd = x.XConnectionNumber(dpy);
        while (!stop.getAsBoolean() && !dead) {
            if (x.XPending(dpy) == 0) {
                onIdle.run();
                if (x.XPending(dpy) != 0) continue;
                pfd.setInt(0, fd);
                pfd.setShort(4, LibC.POLLIN);
                pfd.setShort(6, (short) 0);
                LibC.C.poll(pfd, 1, pollMillis);
                continue;
            }
            x.XNextEvent(dpy, event);
            onEvent.accept(event);
        }
    }

    /**
     * Selects XKB's new-keyboard, map and (when {@code controls}) enabled-controls notifications of the core
     * keyboard on this connection; the event code they come with, or -1 when the server has no XKB.
     */
    int selectKeyboardChanges(boolean controls) {
        IntByReference opcode = new IntByReference(), event = new IntByReference(), error = new IntByReference();
        IntByReference major = new IntByReference(1), minor = new IntByReference(0);
        try {
            if (Xlib.X.XkbQueryExtension(dpy, opcode, event, error, major, minor) == 0) return -1;
        } catch (UnsatisfiedLinkError old) {
            return -1;
        }
        long mask = Xlib.XkbNewKeyboardNotifyMask | Xlib.XkbMapNotifyMask | (controls ? Xlib.XkbControlsNotifyMask : 0);
        Xlib.X.XkbSelectEvents(dpy, Xlib.XkbUseCoreKbd, mask, mask);
        sync();
        return event.getValue();
    }

    /** Whether {@link #close} has run. */
    synchronized boolean closed() {
        return closed;
    }

    /** Closes the connection (unless the server is gone already). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        if (!dead) Xlib.X.XCloseDisplay(dpy);
        OPEN.remove(address);
    }
}

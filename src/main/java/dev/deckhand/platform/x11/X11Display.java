package dev.deckhand.platform.x11;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.WindowInfo;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The X11 half of the Linux desktop driver: one Xlib connection ({@code Display*}) that lists windows,
 * measures geometry, captures window pixels, sends keys to one window and (on a private virtual
 * desktop only) clicks. Every public method is {@code synchronized}: the connection is used by one
 * thread at a time. Close it when done ({@link #close()}).
 *
 * <h2>Failure model</h2>
 * Nothing here may end the JVM. A process-wide {@code XSetErrorHandler} (held in a static field so
 * the callback is never collected) records protocol errors (BadWindow when a window vanishes,
 * BadMatch, ...) instead of Xlib's default {@code exit()}; a process-wide {@code XSetIOErrorHandler}
 * plus a per-connection {@code XSetIOErrorExitHandler} (libX11 ≥ 1.7; both are needed, checked on
 * libX11 1.8.4) mark the connection dead instead of exiting when the X server goes away. Calls then throw
 * {@link RefusedException}:
 * <ul>
 *   <li>{@code HEADLESS} — no {@code DISPLAY}, the display cannot be opened, or the connection was lost;
 *   <li>{@code PLATFORM_UNSUPPORTED} — not Linux (the OS is named), not a 64-bit C ABI, a pixel format
 *       this code does not read, or a text needing more unmapped characters than spare keycodes;
 *   <li>{@code WAYLAND_INPUT_UNSUPPORTED} — any input while the display is Xwayland (see
 *       {@link #waylandInputReason()});
 *   <li>{@code PREFLIGHT_FAILED} — the target window no longer exists or is not mapped (named by id);
 *   <li>{@code OUT_OF_SCOPE} — XTEST keys while another window has input focus, or a click at a point
 *       where another window is on top: the input would land outside the granted window;
 *   <li>{@code SECURE_INPUT} — XTEST input while another client holds a keyboard grab;
 *   <li>{@code POINTER_WARP_REFUSED} — a pointer click outside a private virtual desktop;
 *   <li>{@code BASIS_STALE} — a click against a basis that no longer holds.
 * </ul>
 * Argument errors (an unknown key name, an unsupported format) are {@link IllegalArgumentException}s
 * naming the argument.
 *
 * <h2>Own windows</h2>
 * A window is {@linkplain WindowInfo#own() Deckhand's own} when its title contains
 * {@link #OWN_WINDOW_MARKER} (the settings/approval page puts it in its {@code <title>}, so the
 * browser window carrying it is recognised) or its {@code _NET_WM_PID} is this JVM's PID (the overlay).
 */
public final class X11Display implements AutoCloseable {

    /** Title marker of Deckhand's own windows (its web page's {@code <title>} contains it). */
    public static final String OWN_WINDOW_MARKER = "[Deckhand]";

    /** Environment variable set by {@code scripts/desktop.sh} on the private virtual desktop it starts. */
    public static final String PRIVATE_DESKTOP_ENV = "DECKHAND_PRIVATE_DESKTOP";

    /** Why libX11 could not be loaded; set by {@link #loadXlib()} (no initialiser, so it is not reset). */
    private static String xlibLoadError;
    /** libX11, or null when it cannot be loaded (then {@link #open} refuses {@code HEADLESS}). */
    private static final Xlib X = loadXlib();
    private static final Map<Long, X11Display> OPEN = new ConcurrentHashMap<>();
    /** Strong references: a collected callback would crash the JVM on the next X error. */
    private static final Xlib.ErrorHandler ERROR_HANDLER = X11Display::onXError;
    private static final Xlib.IOErrorHandler IO_ERROR_HANDLER = X11Display::onIoErrorReport;
    private static final Xlib.IOErrorExitHandler IO_EXIT_HANDLER = X11Display::onIoError;
    private static boolean handlerInstalled;

    private final Pointer dpy;
    private final long dpyAddress;
    private final long root;
    private final int screen;
    private final int screenWidth;
    private final int screenHeight;
    private final Map<String, String> env;
    private final Optional<String> waylandReason;
    private final boolean composite;
    private final boolean xtest;
    private final boolean shm;
    /** The client bits of an XID (every client has the same resource mask), 0 when not known. */
    private final long clientBits;
    private final long ownPid = ProcessHandle.current().pid();
    private final Map<String, Long> atoms = new HashMap<>();

    // Reused native buffers (Memory is freed only by GC, so keep a few and reuse them).
    private final Memory attrs = new Memory(Xlib.WA_SIZE);
    private final Memory event = new Memory(Xlib.EV_SIZE);
    private final LongByReference typeRef = new LongByReference();
    private final IntByReference formatRef = new IntByReference();
    private final LongByReference nitemsRef = new LongByReference();
    private final LongByReference afterRef = new LongByReference();
    private final PointerByReference propRef = new PointerByReference();
    private final IntByReference ix = new IntByReference();
    private final IntByReference iy = new IntByReference();
    private final LongByReference childRef = new LongByReference();

    /** Keycodes we mapped to characters the layout lacks, by keysym; restored on close. */
    private final Map<Long, Integer> remapped = new LinkedHashMap<>();
    private ShmSegment segment;

    private volatile boolean dead;
    private boolean closed;
    private int errorCount;
    private String lastError = "";

    private X11Display(Pointer dpy, Map<String, String> env) {
        this.dpy = dpy;
        this.dpyAddress = Pointer.nativeValue(dpy);
        this.env = Map.copyOf(env);
        OPEN.put(dpyAddress, this);
        installIoExitHandler(dpy);
        this.root = X.XDefaultRootWindow(dpy);
        this.screen = X.XDefaultScreen(dpy);
        this.screenWidth = X.XDisplayWidth(dpy, screen);
        this.screenHeight = X.XDisplayHeight(dpy, screen);
        IntByReference a = new IntByReference(), b = new IntByReference(), c = new IntByReference();
        boolean xwayland = X.XQueryExtension(dpy, "XWAYLAND", a, b, c) != 0;
        this.waylandReason = waylandReason(this.env, xwayland);
        this.xtest = queryXtest(dpy);
        int before = errorCount;
        boolean redirected = redirectForCapture(dpy, root);
        this.composite = redirected && errorCount == before; // e.g. BadAccess: then the screen-crop path
        this.shm = queryShm(dpy);
        // Display.private4 is this connection's resource_mask (x86_64 offset 48); the server gives every
        // client the same one, so the bits above it name the client that created a window.
        long mask = dpy.getLong(48);
        this.clientBits = mask > 0 && (mask & (mask + 1)) == 0 ? ~mask : 0;
    }

    // ------------------------------------------------------------------------------------------
    // Opening

    /**
     * Refuses with {@code PLATFORM_UNSUPPORTED}, naming the OS, unless {@code osName} (the
     * {@code os.name} property) is Linux.
     */
    public static void requireLinux(String osName) {
        String os = osName == null ? "" : osName;
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            String named = os.toLowerCase(Locale.ROOT).startsWith("mac") ? "macOS (" + os + ")"
                    : os.toLowerCase(Locale.ROOT).startsWith("windows") ? "Windows (" + os + ")"
                    : os.isBlank() ? "an unknown OS" : os;
            throw new RefusedException(RefusalCode.PLATFORM_UNSUPPORTED,
                    "no desktop backend for " + named + " yet; only Linux with X11 is supported");
        }
    }

    /** Opens the display named by the process environment's {@code DISPLAY}. */
    public static X11Display open() {
        return open(System.getenv());
    }

    /**
     * Opens the display named by {@code env.get("DISPLAY")}; {@code env} also decides the Wayland hint
     * and whether this is a private virtual desktop ({@value #PRIVATE_DESKTOP_ENV}{@code =1}).
     *
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} off Linux or off LP64; {@code HEADLESS}
     *     when {@code DISPLAY} is unset or the display does not answer
     */
    public static X11Display open(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        requireLinux(System.getProperty("os.name"));
        if (Native.LONG_SIZE != 8) {
            throw new RefusedException(RefusalCode.PLATFORM_UNSUPPORTED,
                    "the X11 driver needs a 64-bit C long (LP64); this JVM has " + Native.LONG_SIZE * 8 + "-bit");
        }
        String name = env.get("DISPLAY");
        if (name == null || name.isBlank()) {
            throw new RefusedException(RefusalCode.HEADLESS, "DISPLAY is not set: no X display to drive");
        }
        if (X == null) {
            throw new RefusedException(RefusalCode.HEADLESS, "libX11 cannot be loaded (" + xlibLoadError + ")");
        }
        installErrorHandler();
        Pointer dpy = X.XOpenDisplay(name);
        if (dpy == null) {
            throw new RefusedException(RefusalCode.HEADLESS, "cannot open X display '" + name + "'");
        }
        return new X11Display(dpy, env);
    }

    private static Xlib loadXlib() {
        try {
            return Xlib.X;
        } catch (LinkageError missing) { // UnsatisfiedLinkError, or the interface's failed initialiser
            xlibLoadError = String.valueOf(missing.getMessage());
            return null;
        }
    }

    static synchronized void installErrorHandler() {
        if (handlerInstalled) return;
        X.XInitThreads(); // libX11 ≥ 1.8 already does this at load; harmless otherwise
        X.XSetErrorHandler(ERROR_HANDLER);
        // Xlib's default I/O error handler prints and exit()s itself; ours returns, and the
        // per-display exit handler below (libX11 >= 1.7) then returns too instead of exit(1).
        X.XSetIOErrorHandler(IO_ERROR_HANDLER);
        handlerInstalled = true;
    }

    private static void installIoExitHandler(Pointer dpy) {
        try {
            NativeLibrary.getInstance("X11").getFunction("XSetIOErrorExitHandler");
            X.XSetIOErrorExitHandler(dpy, IO_EXIT_HANDLER, null);
        } catch (UnsatisfiedLinkError old) {
            // libX11 < 1.7: a lost server still ends the process; nothing more can be done from Java.
        }
    }

    private static int onXError(Pointer display, Pointer ev) {
        X11Display d = OPEN.get(Pointer.nativeValue(display));
        if (d == null) {
            SideConnection side = SideConnection.OPEN.get(Pointer.nativeValue(display));
            if (side != null) side.onError(ev.getByte(Xlib.ERR_CODE) & 0xff, ev.getByte(Xlib.ERR_REQUEST) & 0xff);
        }
        if (d != null) {
            d.errorCount++;
            d.lastError = "X error " + (ev.getByte(Xlib.ERR_CODE) & 0xff) + " on request "
                    + (ev.getByte(Xlib.ERR_REQUEST) & 0xff) + "." + (ev.getByte(Xlib.ERR_MINOR) & 0xff)
                    + " for resource 0x" + Long.toHexString(ev.getLong(Xlib.ERR_RESOURCE));
        }
        return 0; // never exit()
    }

    private static int onIoErrorReport(Pointer display) {
        X11Display d = OPEN.get(Pointer.nativeValue(display));
        if (d != null) d.dead = true;
        return 0;
    }

    private static void onIoError(Pointer display, Pointer userData) {
        X11Display d = OPEN.get(Pointer.nativeValue(display));
        if (d != null) d.dead = true;
        // Returning (instead of Xlib's default exit(1)) leaves the connection unusable; callers see dead.
    }

    /**
     * Why input must be refused as Wayland, if it must: the display carries the {@code XWAYLAND}
     * extension, or — except on a private virtual desktop Deckhand started, whose Xvfb is not the
     * session's display — {@code WAYLAND_DISPLAY} is set or {@code XDG_SESSION_TYPE=wayland}.
     */
    static Optional<String> waylandReason(Map<String, String> env, boolean xwaylandExtension) {
        if (xwaylandExtension) return Optional.of("the X display is Xwayland (XWAYLAND extension present)");
        if ("1".equals(env.get(PRIVATE_DESKTOP_ENV))) return Optional.empty();
        String wd = env.get("WAYLAND_DISPLAY");
        if (wd != null && !wd.isBlank()) return Optional.of("WAYLAND_DISPLAY is set (" + wd + ")");
        if ("wayland".equalsIgnoreCase(env.getOrDefault("XDG_SESSION_TYPE", ""))) {
            return Optional.of("XDG_SESSION_TYPE is wayland");
        }
        return Optional.empty();
    }

    private static boolean queryXtest(Pointer dpy) {
        try {
            IntByReference a = new IntByReference(), b = new IntByReference(), c = new IntByReference(),
                    d = new IntByReference();
            return Xlib.Xtst.X.XTestQueryExtension(dpy, a, b, c, d) != 0;
        } catch (LinkageError missing) { // UnsatisfiedLinkError or the library holder's failed initialiser
            return false;
        }
    }

    private static boolean redirectForCapture(Pointer dpy, long root) {
        try {
            IntByReference a = new IntByReference(), b = new IntByReference();
            if (Xlib.Xcomposite.X.XCompositeQueryExtension(dpy, a, b) == 0) return false;
            // Automatic redirection: the server keeps every top-level's full content off-screen and
            // still paints the screen itself; it ends when this connection closes.
            Xlib.Xcomposite.X.XCompositeRedirectSubwindows(dpy, root, Xlib.Xcomposite.CompositeRedirectAutomatic);
            X.XSync(dpy, Xlib.False);
            return true;
        } catch (LinkageError missing) { // UnsatisfiedLinkError or the library holder's failed initialiser
            return false;
        }
    }

    private static boolean queryShm(Pointer dpy) {
        try {
            return Xlib.Xext.X.XShmQueryExtension(dpy) != 0;
        } catch (LinkageError missing) { // UnsatisfiedLinkError or the library holder's failed initialiser
            return false;
        }
    }

    // ------------------------------------------------------------------------------------------
    // Facts about this connection

    /** Why input is refused as Wayland on this display, or empty when it is not. */
    public Optional<String> waylandInputReason() {
        return waylandReason;
    }

    /** True when captures read through MIT-SHM (fast); false means plain XGetImage. */
    synchronized boolean shmCapture() {
        return shm && segment != null;
    }

    /** True when captures read full window content through XComposite (covered parts correct). */
    public boolean compositeCapture() {
        return composite;
    }

    /** True when {@code DECKHAND_PRIVATE_DESKTOP=1}: the pointer path is allowed. */
    public boolean privateDesktop() {
        return "1".equals(env.get(PRIVATE_DESKTOP_ENV));
    }

    /** The screen's size in pixels. */
    public Geometry screen() {
        return new Geometry(0, 0, screenWidth, screenHeight);
    }

    // ------------------------------------------------------------------------------------------
    // Windows

    /**
     * All client windows from {@code _NET_CLIENT_LIST_STACKING}, bottom to top. A window that vanishes
     * while it is read is left out. Empty when the window manager publishes no list.
     */
    public synchronized List<WindowInfo> windows() {
        live();
        long[] ids = cardinals(root, atom("_NET_CLIENT_LIST_STACKING"), atom("WINDOW"));
        if (ids.length == 0) ids = cardinals(root, atom("_NET_CLIENT_LIST"), atom("WINDOW"));
        List<WindowInfo> out = new ArrayList<>(ids.length);
        for (long id : ids) {
            WindowInfo info = readWindow(id, out.size());
            if (info != null) out.add(info);
        }
        return List.copyOf(out);
    }

    /** One window as {@link #windows()} would report it, or empty when it does not exist. */
    public synchronized Optional<WindowInfo> window(long id) {
        live();
        List<WindowInfo> all = windows();
        for (WindowInfo w : all) if (w.id() == id) return Optional.of(w);
        WindowInfo unlisted = readWindow(id, -1);
        return Optional.ofNullable(unlisted).map(w -> new WindowInfo(w.id(), w.title(), w.app(), w.pid(),
                w.geometry(), 0, w.visible(), w.minimised(), w.own()));
    }

    private WindowInfo readWindow(long id, int stacking) {
        int before = errorCount;
        if (X.XGetWindowAttributes(dpy, id, attrs) == 0) return null;
        int w = attrs.getInt(Xlib.WA_WIDTH);
        int h = attrs.getInt(Xlib.WA_HEIGHT);
        boolean viewable = attrs.getInt(Xlib.WA_MAP_STATE) == Xlib.IsViewable;
        if (X.XTranslateCoordinates(dpy, id, root, 0, 0, ix, iy, childRef) == 0) return null;
        Geometry g = new Geometry(ix.getValue(), iy.getValue(), w, h);
        String title = utf8(id, "_NET_WM_NAME");
        if (title == null || title.isEmpty()) title = latin1Name(id);
        String app = wmClass(id);
        long[] pidv = cardinals(id, atom("_NET_WM_PID"), atom("CARDINAL"));
        int pid = pidv.length > 0 ? (int) pidv[0] : -1;
        long[] state = cardinals(id, atom("_NET_WM_STATE"), atom("ATOM"));
        boolean hidden = contains(state, atom("_NET_WM_STATE_HIDDEN"));
        boolean modal = contains(state, atom("_NET_WM_STATE_MODAL"));
        long[] transientFor = cardinals(id, atom("WM_TRANSIENT_FOR"), atom("WINDOW"));
        long[] wmState = cardinals(id, atom("WM_STATE"), atom("WM_STATE"));
        boolean iconic = wmState.length > 0 && wmState[0] == 3;
        sync();
        if (errorCount != before) return null; // vanished mid-read
        boolean onScreen = g.x() < screenWidth && g.y() < screenHeight && g.x() + w > 0 && g.y() + h > 0;
        String t = title == null ? "" : title;
        boolean own = t.contains(OWN_WINDOW_MARKER) || (pid > 0 && pid == ownPid);
        return new WindowInfo(id, t, app == null ? "" : app, pid, g, Math.max(stacking, 0),
                viewable && !hidden && onScreen, hidden || iconic, own, id & clientBits,
                transientFor.length > 0 ? transientFor[0] : 0, modal, -1);
    }

    /**
     * The window's client area in screen coordinates (root-relative origin, inner size).
     *
     * @throws RefusedException {@code PREFLIGHT_FAILED} when the window does not exist
     */
    public synchronized Geometry geometry(long window) {
        live();
        return measure(window, false);
    }

    private Geometry measure(long window, boolean requireViewable) {
        int before = errorCount;
        if (X.XGetWindowAttributes(dpy, window, attrs) == 0 || errorCount != before) {
            throw gone(window);
        }
        if (requireViewable && attrs.getInt(Xlib.WA_MAP_STATE) != Xlib.IsViewable) {
            throw new RefusedException(RefusalCode.PREFLIGHT_FAILED,
                    "window 0x" + Long.toHexString(window) + " is not mapped (minimised or on another desktop)");
        }
        int w = attrs.getInt(Xlib.WA_WIDTH), h = attrs.getInt(Xlib.WA_HEIGHT);
        if (X.XTranslateCoordinates(dpy, window, root, 0, 0, ix, iy, childRef) == 0 || errorCount != before) {
            throw gone(window);
        }
        return new Geometry(ix.getValue(), iy.getValue(), w, h);
    }

    private static RefusedException gone(long window) {
        return new RefusedException(RefusalCode.PREFLIGHT_FAILED,
                "window 0x" + Long.toHexString(window) + " no longer exists");
    }

    /**
     * Re-measures {@code basis}: true only when its window still exists, is mapped, and has exactly
     * the geometry the basis was taken against. Never throws for a vanished window (that is false).
     */
    public synchronized boolean basisValid(Basis basis) {
        Objects.requireNonNull(basis, "basis");
        live();
        try {
            return measure(basis.windowId(), true).equals(basis.windowGeometry());
        } catch (RefusedException gone) {
            return false;
        }
    }

    // ------------------------------------------------------------------------------------------
    // Keys: XSendEvent to one window (no focus or pointer change)

    /**
     * Sends the chord ({@code ctrl+s}, {@code Enter}; normalised, {@link dev.deckhand.grant.Chord}) to
     * {@code window} as a synthetic KeyPress/KeyRelease pair with event mask 0 ({@code XSendEvent}).
     * The pointer and the input focus are never touched. Reaches GTK3 (text and shortcuts, focused
     * or not), Qt5 (text always, but Qt fires shortcuts such as {@code ctrl+s} only in the active
     * window, so a chord to an inactive Qt window is sent and silently ignored by the app — the caller
     * must check the effect or use {@link #xtestKey}) and active Swing windows; GTK4 ignores synthetic
     * events — use {@link #xtestKey} there. Success means the events were delivered to the X server
     * without error, not that the app acted on them.
     */
    public synchronized void key(long window, dev.deckhand.grant.Chord chord) {
        live();
        requireInput();
        KeyChord k = KeyChord.of(chord, X::XStringToKeysym);
        measure(window, true);
        Keymap map = keymap();
        int[] kc = ensureKeycodes(map, new long[] {k.keysym()})[0];
        int state = k.modifiers() | (kc[1] == 1 ? Xlib.ShiftMask : 0);
        sendKey(window, kc[0], state);
        syncOrGone(window);
    }

    /**
     * Types printable {@code text} (any Unicode, no control characters) into {@code window}'s focused
     * element with synthetic key events (mask 0), without touching pointer or focus. Characters the
     * keyboard layout lacks are typed through spare keycodes (ones with no symbol) remapped with
     * {@code XChangeKeyboardMapping} before the first event of this call; each such character keeps its
     * own spare for the whole call so a slow app still decodes it right. The spares are reset when a
     * later call needs them or on {@link #close()}.
     *
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} when the text needs more distinct unmapped
     *     characters than there are spare keycodes
     */
    public synchronized void type(long window, String text) {
        live();
        requireInput();
        Objects.requireNonNull(text, "text");
        measure(window, true);
        int[] cps = text.codePoints().toArray();
        long[] syms = new long[cps.length];
        for (int i = 0; i < cps.length; i++) syms[i] = KeyChord.keysymOf(cps[i]);
        int[][] codes = ensureKeycodes(keymap(), syms);
        for (int i = 0; i < syms.length; i++) {
            sendKey(window, codes[i][0], codes[i][1] == 1 ? Xlib.ShiftMask : 0);
        }
        syncOrGone(window);
    }

    private void sendKey(long window, int keycode, int state) {
        event.clear();
        event.setLong(Xlib.EV_SEND_EVENT, 1);
        event.setPointer(Xlib.EV_DISPLAY, dpy);
        event.setLong(Xlib.EV_WINDOW, window);
        event.setLong(Xlib.EV_ROOT, root);
        event.setLong(Xlib.EV_SUBWINDOW, Xlib.None);
        event.setLong(Xlib.EV_TIME, Xlib.CurrentTime);
        event.setInt(Xlib.EV_X, 1);
        event.setInt(Xlib.EV_Y, 1);
        event.setInt(Xlib.EV_X_ROOT, 1);
        event.setInt(Xlib.EV_Y_ROOT, 1);
        event.setInt(Xlib.EV_STATE, state);
        event.setInt(Xlib.EV_KEYCODE, keycode);
        event.setInt(Xlib.EV_SAME_SCREEN, Xlib.True);
        event.setInt(Xlib.EV_TYPE, Xlib.KeyPress);
        X.XSendEvent(dpy, window, Xlib.True, 0L, event);
        event.setInt(Xlib.EV_TYPE, Xlib.KeyRelease);
        X.XSendEvent(dpy, window, Xlib.True, 0L, event);
    }

    private void syncOrGone(long window) {
        int before = errorCount;
        sync();
        if (errorCount != before) throw gone(window);
    }

    // ------------------------------------------------------------------------------------------
    // Keys: XTEST, only into the window that already has focus

    /**
     * The chord through XTEST (real key events from the server, which GTK4 accepts), allowed only
     * while {@code window}'s top-level already has the input focus, so the keys cannot land anywhere
     * else; focus is never moved to make that so.
     *
     * @throws RefusedException {@code OUT_OF_SCOPE} when another window (or none) has focus — the keys
     *     would reach a window outside the grant; {@code SECURE_INPUT} when another client holds a
     *     keyboard grab (the keys would go to it); {@code PLATFORM_UNSUPPORTED} without XTEST
     */
    public synchronized void xtestKey(long window, dev.deckhand.grant.Chord chord) {
        live();
        requireInput();
        KeyChord k = KeyChord.of(chord, X::XStringToKeysym);
        requireFocusFor(window);
        Keymap map = keymap();
        int[] kc = ensureKeycodes(map, new long[] {k.keysym()})[0];
        List<Integer> mods = modifierKeycodes(map, k.modifiers() | (kc[1] == 1 ? Xlib.ShiftMask : 0));
        Xlib.Xtst t = Xlib.Xtst.X;
        for (int m : mods) t.XTestFakeKeyEvent(dpy, m, Xlib.True, 0);
        t.XTestFakeKeyEvent(dpy, kc[0], Xlib.True, 0);
        t.XTestFakeKeyEvent(dpy, kc[0], Xlib.False, 0);
        for (int i = mods.size() - 1; i >= 0; i--) t.XTestFakeKeyEvent(dpy, mods.get(i), Xlib.False, 0);
        sync();
    }

    /** {@link #type} through XTEST, under the same focus rule as {@link #xtestKey}. */
    public synchronized void xtestType(long window, String text) {
        live();
        requireInput();
        Objects.requireNonNull(text, "text");
        requireFocusFor(window);
        int[] cps = text.codePoints().toArray();
        long[] syms = new long[cps.length];
        for (int i = 0; i < cps.length; i++) syms[i] = KeyChord.keysymOf(cps[i]);
        Keymap map = keymap();
        int[][] codes = ensureKeycodes(map, syms);
        int shift = modifierKeycodes(map, Xlib.ShiftMask).get(0);
        Xlib.Xtst t = Xlib.Xtst.X;
        for (int[] c : codes) {
            if (c[1] == 1) t.XTestFakeKeyEvent(dpy, shift, Xlib.True, 0);
            t.XTestFakeKeyEvent(dpy, c[0], Xlib.True, 0);
            t.XTestFakeKeyEvent(dpy, c[0], Xlib.False, 0);
            if (c[1] == 1) t.XTestFakeKeyEvent(dpy, shift, Xlib.False, 0);
        }
        sync();
    }

    private void requireFocusFor(long window) {
        if (!xtest) throw new RefusedException(RefusalCode.PLATFORM_UNSUPPORTED, "the X server has no XTEST extension");
        measure(window, true);
        if (grabbedByOther()) {
            throw new RefusedException(RefusalCode.SECURE_INPUT,
                    "another client holds a keyboard grab; XTEST keys would go to it");
        }
        long focused = focusedTopLevel();
        long target = topLevel(window);
        if (focused == 0 || focused != target) {
            throw new RefusedException(RefusalCode.OUT_OF_SCOPE, "input focus is on "
                    + (focused == 0 ? "no window" : "top-level 0x" + Long.toHexString(focused))
                    + ", not window 0x" + Long.toHexString(window)
                    + "; XTEST keys would land outside the grant and Deckhand never moves focus");
        }
    }

    /**
     * The top-level (child of the root, i.e. the window manager's frame or an unmanaged window) that
     * holds the input focus, or 0 when focus is None or PointerRoot.
     */
    public synchronized long focusedTopLevel() {
        live();
        LongByReference focus = new LongByReference();
        X.XGetInputFocus(dpy, focus, new IntByReference());
        long f = focus.getValue();
        if (f == Xlib.None || f == 1 /* PointerRoot */) return 0;
        return topLevel(f);
    }

    /** The ancestor of {@code window} that is a direct child of the root (0 when it vanished). */
    private long topLevel(long window) {
        long w = window;
        LongByReference r = new LongByReference(), parent = new LongByReference();
        PointerByReference kids = new PointerByReference();
        IntByReference n = new IntByReference();
        for (int depth = 0; depth < 64 && w != root; depth++) {
            int before = errorCount;
            if (X.XQueryTree(dpy, w, r, parent, kids, n) == 0 || errorCount != before) return 0;
            if (kids.getValue() != null) X.XFree(kids.getValue());
            if (parent.getValue() == root) return w;
            w = parent.getValue();
        }
        return w == root ? root : 0;
    }

    // ------------------------------------------------------------------------------------------
    // Keyboard grab probe

    /**
     * True when another client holds a keyboard grab (X11's secure input: a password prompt, a locker,
     * a game). Probes by grabbing the keyboard on the root: {@code AlreadyGrabbed} or {@code GrabFrozen}
     * means held; a successful probe grab is released at once.
     */
    public synchronized boolean keyboardGrabbed() {
        live();
        return grabbedByOther();
    }

    private boolean grabbedByOther() {
        int r = X.XGrabKeyboard(dpy, root, Xlib.False, Xlib.GrabModeAsync, Xlib.GrabModeAsync, Xlib.CurrentTime);
        if (r == Xlib.GrabSuccess) {
            X.XUngrabKeyboard(dpy, Xlib.CurrentTime);
            sync(); // released before this returns, so no other client can find our probe's grab
            return false;
        }
        return r == Xlib.AlreadyGrabbed || r == Xlib.GrabFrozen;
    }

    // ------------------------------------------------------------------------------------------
    // Pointer: private virtual desktop only

    /**
     * Clicks (button 1) at capture pixel {@code (x, y)} of {@code basis} with XTEST motion + button.
     * Moves the real pointer, so it is allowed only on a private virtual desktop Deckhand started
     * ({@value #PRIVATE_DESKTOP_ENV}{@code =1}). The basis is re-measured first, and the point must be
     * inside the window and not covered by another top-level window.
     *
     * @throws RefusedException {@code POINTER_WARP_REFUSED} off a private desktop, {@code BASIS_STALE}
     *     when the window moved, resized, unmapped or vanished, {@code OUT_OF_SCOPE} when the point is
     *     outside the window or another window is on top there
     */
    public synchronized void clickAt(int x, int y, Basis basis) {
        Objects.requireNonNull(basis, "basis");
        live();
        requireInput();
        if (!privateDesktop()) {
            throw new RefusedException(RefusalCode.POINTER_WARP_REFUSED,
                    "click_at would move the real pointer; allowed only on a private virtual desktop Deckhand started");
        }
        if (!xtest) throw new RefusedException(RefusalCode.PLATFORM_UNSUPPORTED, "the X server has no XTEST extension");
        if (!basisValid(basis)) {
            throw new RefusedException(RefusalCode.BASIS_STALE, "window 0x" + Long.toHexString(basis.windowId())
                    + " no longer has geometry " + basis.windowGeometry());
        }
        Geometry g = basis.windowGeometry();
        int sx = g.x() + (int) Math.floor((x + 0.5) / basis.scale());
        int sy = g.y() + (int) Math.floor((y + 0.5) / basis.scale());
        if (x < 0 || y < 0 || !g.contains(sx, sy)) {
            throw new RefusedException(RefusalCode.OUT_OF_SCOPE,
                    "point (" + x + ", " + y + ") at scale " + basis.scale() + " is outside window 0x"
                            + Long.toHexString(basis.windowId()));
        }
        X.XTranslateCoordinates(dpy, root, root, sx, sy, ix, iy, childRef);
        long topAtPoint = childRef.getValue();
        long target = topLevel(basis.windowId());
        // the target's own popup (a menu or combo list of the same client) is part of its scope
        boolean ownPopup = topAtPoint != 0 && clientOf(topAtPoint) != 0 && clientOf(topAtPoint) == clientOf(basis.windowId())
                && X.XGetWindowAttributes(dpy, topAtPoint, attrs) != 0 && attrs.getInt(Xlib.WA_OVERRIDE_REDIRECT) != 0;
        if (topAtPoint != target && !ownPopup) {
            throw new RefusedException(RefusalCode.OUT_OF_SCOPE, "another window (0x" + Long.toHexString(topAtPoint)
                    + ") is on top at screen point (" + sx + ", " + sy + ")");
        }
        Xlib.Xtst t = Xlib.Xtst.X;
        t.XTestFakeMotionEvent(dpy, -1, sx, sy, 0);
        t.XTestFakeButtonEvent(dpy, 1, Xlib.True, 0);
        t.XTestFakeButtonEvent(dpy, 1, Xlib.False, 0);
        sync();
    }

    // ------------------------------------------------------------------------------------------
    // Capture

    /**
     * The window's client area, downscaled (area average) so its longer edge is at most
     * {@code longEdge}, encoded as {@code png} (fast: deflate level 1, no filter) or {@code jpeg}
     * (quality 0.85), with its basis {@code {grantRevision, window, geometry, scale}}.
     *
     * <p>With XComposite (see {@link #compositeCapture()}) the pixels are the window's own content even
     * where other windows cover it or it extends past the screen, with the window's own open popups
     * (menus, combo lists: see {@link #popupsOver}) painted on top, and nothing of any other app.
     * Without XComposite, the screen is cropped to the window: covered parts show the covering window
     * and off-screen parts are black.
     *
     * @throws RefusedException {@code PREFLIGHT_FAILED} when the window is gone or unmapped
     * @throws IllegalArgumentException for an unknown {@code format} or {@code longEdge <= 0}
     */
    public synchronized Capture capture(long window, long grantRevision, int longEdge, String format) {
        live();
        String fmt = Objects.requireNonNull(format, "format").toLowerCase(Locale.ROOT);
        if (!fmt.equals("png") && !fmt.equals("jpeg") && !fmt.equals("jpg")) {
            throw new IllegalArgumentException("format must be png or jpeg, was '" + format + "'");
        }
        if (longEdge <= 0) throw new IllegalArgumentException("longEdge must be > 0, was " + longEdge);
        Grab grab = grabWithGeometry(window);
        RgbImage img = grab.pixels();
        Geometry g = grab.geometry();
        int[] size = RgbImage.scaledSize(img.width, img.height, longEdge);
        RgbImage out = img.downscale(size[0], size[1]);
        double scale = size[0] == img.width && size[1] == img.height ? 1.0
                : (double) Math.max(size[0], size[1]) / Math.max(img.width, img.height);
        byte[] bytes = fmt.equals("png") ? out.png() : out.jpeg(0.85f);
        Basis basis = new Basis(grantRevision, window, g, scale);
        return new Capture(bytes, fmt.equals("png") ? "image/png" : "image/jpeg", out.width, out.height, basis);
    }

    /** Raw client-area pixels of {@code window} (package-private for tests and the bench). */
    synchronized RgbImage grab(long window) {
        return grabWithGeometry(window).pixels();
    }

    /** Pixels and the geometry measured right before reading them (the basis of a capture). */
    private record Grab(RgbImage pixels, Geometry geometry) {
    }

    private Grab grabWithGeometry(long window) {
        live();
        Geometry g = measure(window, true);
        if (g.width() == 0 || g.height() == 0) {
            throw new RefusedException(RefusalCode.PREFLIGHT_FAILED, "window 0x" + Long.toHexString(window) + " has no area");
        }
        int before = errorCount;
        long drawable;
        int sx, sy;
        long pixmap = Xlib.None;
        Pointer visual;
        int depth;
        int[] pixels = new int[g.width() * g.height()];
        if (composite) {
            long top = topLevel(window);
            if (top == 0) throw gone(window);
            if (X.XGetWindowAttributes(dpy, top, attrs) == 0) throw gone(window);
            int border = attrs.getInt(Xlib.WA_BORDER);
            depth = attrs.getInt(Xlib.WA_DEPTH);
            visual = attrs.getPointer(Xlib.WA_VISUAL);
            if (X.XTranslateCoordinates(dpy, window, top, 0, 0, ix, iy, childRef) == 0) throw gone(window);
            sx = ix.getValue() + border;
            sy = iy.getValue() + border;
            pixmap = Xlib.Xcomposite.X.XCompositeNameWindowPixmap(dpy, top);
            drawable = pixmap;
            read(drawable, visual, depth, sx, sy, g.width(), g.height(), pixels, g.width(), 0, 0);
            X.XFreePixmap(dpy, pixmap);
            for (long popup : popupsOver(window, top)) paintPopup(popup, g, pixels);
        } else {
            // Screen crop: only the on-screen part can be read; the rest stays black.
            if (X.XGetWindowAttributes(dpy, root, attrs) == 0) throw gone(root);
            depth = attrs.getInt(Xlib.WA_DEPTH);
            visual = attrs.getPointer(Xlib.WA_VISUAL);
            int x0 = Math.max(0, g.x()), y0 = Math.max(0, g.y());
            int x1 = Math.min(screenWidth, g.x() + g.width()), y1 = Math.min(screenHeight, g.y() + g.height());
            if (x1 > x0 && y1 > y0) {
                read(root, visual, depth, x0, y0, x1 - x0, y1 - y0, pixels, g.width(), x0 - g.x(), y0 - g.y());
            }
        }
        sync();
        if (errorCount != before) {
            throw new RefusedException(RefusalCode.PREFLIGHT_FAILED, "window 0x" + Long.toHexString(window)
                    + " could not be read (" + lastError + "); it may have vanished or changed");
        }
        return new Grab(new RgbImage(g.width(), g.height(), pixels), g);
    }

    /**
     * The window's own popups (menus, tooltips, combo lists) that sit above its top-level: viewable
     * override-redirect children of the root, higher in stacking order, whose {@code WM_TRANSIENT_FOR}
     * is the window or whose {@code _NET_WM_PID} is the window's. Bottom to top.
     */
    synchronized List<Long> popupsOver(long window, long top) {
        LongByReference r = new LongByReference(), parent = new LongByReference();
        PointerByReference kids = new PointerByReference();
        IntByReference n = new IntByReference();
        if (X.XQueryTree(dpy, root, r, parent, kids, n) == 0 || kids.getValue() == null) return List.of();
        long[] children;
        try {
            children = kids.getValue().getLongArray(0, n.getValue());
        } finally {
            X.XFree(kids.getValue());
        }
        long[] pidv = cardinals(window, atom("_NET_WM_PID"), atom("CARDINAL"));
        long pid = pidv.length > 0 ? pidv[0] : -1;
        List<Long> out = new ArrayList<>();
        boolean above = false;
        for (long child : children) {
            if (child == top) {
                above = true;
                continue;
            }
            if (!above) continue;
            int before = errorCount;
            if (X.XGetWindowAttributes(dpy, child, attrs) == 0 || errorCount != before) continue;
            if (attrs.getInt(Xlib.WA_OVERRIDE_REDIRECT) == 0 || attrs.getInt(Xlib.WA_MAP_STATE) != Xlib.IsViewable) continue;
            long[] transientFor = cardinals(child, atom("WM_TRANSIENT_FOR"), atom("WINDOW"));
            long[] childPid = cardinals(child, atom("_NET_WM_PID"), atom("CARDINAL"));
            boolean ours = (transientFor.length > 0 && transientFor[0] == window)
                    || (pid > 0 && childPid.length > 0 && childPid[0] == pid);
            if (ours) out.add(child);
        }
        return out;
    }

    /** Paints the part of {@code popup} that overlaps {@code g} into {@code pixels} (g's client area). */
    private void paintPopup(long popup, Geometry g, int[] pixels) {
        int before = errorCount;
        if (X.XGetWindowAttributes(dpy, popup, attrs) == 0 || errorCount != before) return;
        int border = attrs.getInt(Xlib.WA_BORDER);
        int depth = attrs.getInt(Xlib.WA_DEPTH);
        Pointer visual = attrs.getPointer(Xlib.WA_VISUAL);
        int px = attrs.getInt(Xlib.WA_X) + border, py = attrs.getInt(Xlib.WA_Y) + border;
        int pw = attrs.getInt(Xlib.WA_WIDTH), ph = attrs.getInt(Xlib.WA_HEIGHT);
        int x0 = Math.max(px, g.x()), y0 = Math.max(py, g.y());
        int x1 = Math.min(px + pw, g.x() + g.width()), y1 = Math.min(py + ph, g.y() + g.height());
        if (x1 <= x0 || y1 <= y0) return;
        long pixmap = Xlib.Xcomposite.X.XCompositeNameWindowPixmap(dpy, popup);
        read(pixmap, visual, depth, x0 - px + border, y0 - py + border, x1 - x0, y1 - y0, pixels, g.width(),
                x0 - g.x(), y0 - g.y());
        X.XFreePixmap(dpy, pixmap);
        sync();
        errorCount = before; // a popup that closed meanwhile is simply not painted
    }

    /** Reads a {@code w×h} area of {@code drawable} at (sx, sy) into {@code dst} at (dx, dy). */
    private void read(long drawable, Pointer visual, int depth, int sx, int sy, int w, int h, int[] dst,
            int dstStride, int dx, int dy) {
        if (shm) {
            ShmSegment seg = segment(w * h * 4L);
            if (seg != null) {
                Pointer image = Xlib.Xext.X.XShmCreateImage(dpy, visual, depth, Xlib.ZPixmap, seg.addr, seg.info, w, h);
                if (image != null) {
                    try {
                        image.setPointer(Xlib.IMG_DATA, seg.addr);
                        int before = errorCount;
                        if (Xlib.Xext.X.XShmGetImage(dpy, drawable, image, sx, sy, Xlib.AllPlanes) != 0) {
                            sync();
                            if (errorCount == before) {
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
        Pointer image = X.XGetImage(dpy, drawable, sx, sy, w, h, Xlib.AllPlanes, Xlib.ZPixmap);
        if (image == null) return; // the caller sees the recorded X error
        try {
            copyOut(image, visual, image.getPointer(Xlib.IMG_DATA), w, h, dst, dstStride, dx, dy);
        } finally {
            X.XDestroyImage(image);
        }
    }

    private static void copyOut(Pointer image, Pointer visual, Pointer data, int w, int h, int[] dst, int dstStride,
            int dx, int dy) {
        int bpp = image.getInt(Xlib.IMG_BPP);
        int bpl = image.getInt(Xlib.IMG_BPL);
        // An image of a pixmap carries no visual, so its masks are 0: take them from the window's visual.
        long red = visual.getLong(Xlib.VIS_RED_MASK), green = visual.getLong(Xlib.VIS_GREEN_MASK),
                blue = visual.getLong(Xlib.VIS_BLUE_MASK);
        int byteOrder = image.getInt(Xlib.IMG_BYTE_ORDER);
        if (bpp != 32 || red != 0xff0000L || green != 0xff00L || blue != 0xffL || byteOrder != 0 /* LSBFirst */) {
            throw new RefusedException(RefusalCode.PLATFORM_UNSUPPORTED, "pixel format " + bpp + " bpp, masks "
                    + Long.toHexString(red) + "/" + Long.toHexString(green) + "/" + Long.toHexString(blue)
                    + ", byte order " + byteOrder + " is not read by this driver (needs 32 bpp xRGB)");
        }
        java.nio.IntBuffer src = data.getByteBuffer(0, (long) bpl * h).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        int rowInts = bpl / 4;
        for (int y = 0; y < h; y++) {
            src.position(y * rowInts);
            src.get(dst, (dy + y) * dstStride + dx, w);
        }
    }

    private ShmSegment segment(long bytes) {
        if (segment != null && segment.size >= bytes) return segment;
        if (segment != null) {
            segment.release(dpy);
            segment = null;
        }
        long size = Math.max(bytes, (long) screenWidth * screenHeight * 4);
        segment = ShmSegment.attach(dpy, size, this);
        return segment;
    }

    /** One System V shared-memory segment attached to the X server, reused across captures. */
    private static final class ShmSegment {
        final Memory info = new Memory(Xlib.Xext.SHMINFO_SIZE);
        Pointer addr;
        long size;

        static ShmSegment attach(Pointer dpy, long size, X11Display owner) {
            Xlib.LibC c = Xlib.LibC.C;
            int id = c.shmget(Xlib.LibC.IPC_PRIVATE, size, Xlib.LibC.IPC_CREAT | 0600);
            if (id < 0) return null;
            Pointer addr = c.shmat(id, null, 0);
            if (addr == null || Pointer.nativeValue(addr) == -1L) {
                c.shmctl(id, Xlib.LibC.IPC_RMID, null);
                return null;
            }
            ShmSegment s = new ShmSegment();
            s.info.clear();
            s.info.setInt(Xlib.Xext.SHM_ID, id);
            s.info.setPointer(Xlib.Xext.SHM_ADDR, addr);
            s.info.setInt(Xlib.Xext.SHM_READONLY, Xlib.False);
            s.addr = addr;
            s.size = size;
            int before = owner.errorCount;
            int ok = Xlib.Xext.X.XShmAttach(dpy, s.info);
            X.XSync(dpy, Xlib.False);
            c.shmctl(id, Xlib.LibC.IPC_RMID, null); // freed once both sides detach
            if (ok == 0 || owner.errorCount != before) {
                c.shmdt(addr);
                return null; // e.g. a remote server or another IPC namespace: plain XGetImage then
            }
            return s;
        }

        void release(Pointer dpy) {
            Xlib.Xext.X.XShmDetach(dpy, info);
            X.XSync(dpy, Xlib.False);
            Xlib.LibC.C.shmdt(addr);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Keyboard mapping

    /** Keysym → {keycode, level 0|1}, spare keycodes, keysyms per keycode; read fresh per call. */
    private static final class Keymap {
        final int min;
        final int perCode;
        final long[] syms;
        final Map<Long, int[]> byKeysym = new HashMap<>();
        final List<Integer> spares = new ArrayList<>();

        Keymap(int min, int count, int perCode, long[] syms) {
            this.min = min;
            this.perCode = perCode;
            this.syms = syms;
            for (int level = 0; level < Math.min(2, perCode); level++) {
                for (int i = 0; i < count; i++) {
                    long s = syms[i * perCode + level];
                    if (s != 0) byKeysym.putIfAbsent(s, new int[] {min + i, level});
                }
            }
            for (int i = 0; i < count; i++) {
                boolean empty = true;
                for (int l = 0; l < perCode; l++) empty &= syms[i * perCode + l] == 0;
                if (empty) spares.add(min + i);
            }
        }
    }

    private Keymap keymap() {
        IntByReference min = new IntByReference(), max = new IntByReference(), per = new IntByReference();
        X.XDisplayKeycodes(dpy, min, max);
        int count = max.getValue() - min.getValue() + 1;
        Pointer p = X.XGetKeyboardMapping(dpy, min.getValue(), count, per);
        if (p == null) throw new RefusedException(RefusalCode.PLATFORM_UNSUPPORTED, "cannot read the keyboard mapping");
        try {
            return new Keymap(min.getValue(), count, per.getValue(), p.getLongArray(0, count * per.getValue()));
        } finally {
            X.XFree(p);
        }
    }

    /**
     * {keycode, level} for each keysym, mapping spare keycodes for keysyms the layout lacks. Every
     * keysym this call needs gets its own keycode, mapped before any event is sent.
     */
    private int[][] ensureKeycodes(Keymap map, long[] keysyms) {
        Set<Long> missing = new LinkedHashSet<>();
        for (long s : keysyms) {
            if (!map.byKeysym.containsKey(s)) missing.add(s);
        }
        if (!missing.isEmpty()) {
            // Our earlier remaps that the map still shows are usable as they are.
            List<Integer> free = new ArrayList<>(map.spares);
            int available = free.size() + remapped.size();
            if (missing.size() > available) {
                throw new RefusedException(RefusalCode.PLATFORM_UNSUPPORTED, "text needs " + missing.size()
                        + " characters the keyboard layout lacks; only " + available + " spare keycodes exist");
            }
            if (missing.size() > free.size()) resetRemapped(map);
            free = new ArrayList<>(spareKeycodes(map));
            int i = 0;
            for (long s : missing) {
                int kc = free.get(i++);
                long[] row = new long[map.perCode];
                java.util.Arrays.fill(row, s);
                X.XChangeKeyboardMapping(dpy, kc, map.perCode, row, 1);
                remapped.put(s, kc);
                map.byKeysym.put(s, new int[] {kc, 0});
            }
            sync();
        }
        int[][] out = new int[keysyms.length][];
        for (int i = 0; i < keysyms.length; i++) out[i] = map.byKeysym.get(keysyms[i]);
        return out;
    }

    private List<Integer> spareKeycodes(Keymap map) {
        List<Integer> free = new ArrayList<>(map.spares);
        free.removeAll(remapped.values());
        return free;
    }

    private void resetRemapped(Keymap map) {
        for (Map.Entry<Long, Integer> e : remapped.entrySet()) {
            X.XChangeKeyboardMapping(dpy, e.getValue(), map.perCode, new long[map.perCode], 1);
            map.byKeysym.remove(e.getKey());
            map.spares.add(e.getValue());
        }
        remapped.clear();
        sync();
    }

    private List<Integer> modifierKeycodes(Keymap map, int mask) {
        List<Integer> out = new ArrayList<>();
        long[][] names = {
            {Xlib.ControlMask, 0xffe3L}, // Control_L
            {Xlib.ShiftMask, 0xffe1L}, // Shift_L
            {Xlib.Mod1Mask, 0xffe9L}, // Alt_L
            {Xlib.Mod4Mask, 0xffebL}, // Super_L
        };
        for (long[] n : names) {
            if ((mask & n[0]) != 0) {
                int[] kc = map.byKeysym.get(n[1]);
                if (kc == null) {
                    throw new RefusedException(RefusalCode.PLATFORM_UNSUPPORTED,
                            "the keyboard mapping has no key for modifier keysym 0x" + Long.toHexString(n[1]));
                }
                out.add(kc[0]);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------
    // Properties

    private long atom(String name) {
        return atoms.computeIfAbsent(name, n -> X.XInternAtom(dpy, n, Xlib.False));
    }

    /** Format-32 property items (each a C long on the client side), or empty. */
    private long[] cardinals(long window, long property, long type) {
        Pointer p = property(window, property, type);
        if (p == null) return new long[0];
        try {
            if (formatRef.getValue() != 32) return new long[0];
            int n = (int) nitemsRef.getValue();
            return p.getLongArray(0, n); // LP64: Native.LONG_SIZE == 8, checked in open()
        } finally {
            X.XFree(p);
        }
    }

    private String utf8(long window, String property) {
        Pointer p = property(window, atom(property), atom("UTF8_STRING"));
        if (p == null) return null;
        try {
            return new String(p.getByteArray(0, (int) nitemsRef.getValue()), StandardCharsets.UTF_8);
        } finally {
            X.XFree(p);
        }
    }

    private String latin1Name(long window) {
        Pointer p = property(window, atom("WM_NAME"), Xlib.AnyPropertyType);
        if (p == null) return "";
        try {
            byte[] b = p.getByteArray(0, (int) nitemsRef.getValue());
            boolean utf8 = typeRef.getValue() == atom("UTF8_STRING");
            return new String(b, utf8 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        } finally {
            X.XFree(p);
        }
    }

    /** The class part of WM_CLASS ("instance\0Class\0"). */
    private String wmClass(long window) {
        Pointer p = property(window, atom("WM_CLASS"), atom("STRING"));
        if (p == null) return "";
        try {
            byte[] b = p.getByteArray(0, (int) nitemsRef.getValue());
            String all = new String(b, StandardCharsets.ISO_8859_1);
            String[] parts = all.split("\0");
            return parts.length >= 2 ? parts[1] : parts.length == 1 ? parts[0] : "";
        } finally {
            X.XFree(p);
        }
    }

    /** The property's data (caller frees with XFree), or null when absent, of another type, or on error. */
    private Pointer property(long window, long property, long type) {
        int before = errorCount;
        int status = X.XGetWindowProperty(dpy, window, property, 0, 1 << 16, Xlib.False, type, typeRef,
                formatRef, nitemsRef, afterRef, propRef);
        Pointer p = propRef.getValue();
        if (status != Xlib.Success || errorCount != before || typeRef.getValue() == Xlib.None) {
            if (p != null) X.XFree(p);
            return null;
        }
        if (p == null) return null;
        if (type != Xlib.AnyPropertyType && typeRef.getValue() != type) {
            X.XFree(p);
            return null;
        }
        return p;
    }

    private static boolean contains(long[] values, long v) {
        for (long x : values) if (x == v) return true;
        return false;
    }

    // ------------------------------------------------------------------------------------------
    // Plumbing

    private void sync() {
        X.XSync(dpy, Xlib.False);
        if (dead) throw new RefusedException(RefusalCode.HEADLESS, "the connection to the X display was lost");
    }

    private void live() {
        if (closed) throw new IllegalStateException("X11Display is closed");
        if (dead) throw new RefusedException(RefusalCode.HEADLESS, "the connection to the X display was lost");
    }

    private void requireInput() {
        waylandReason.ifPresent(why -> {
            throw new RefusedException(RefusalCode.WAYLAND_INPUT_UNSUPPORTED, "input is refused under Wayland: " + why);
        });
    }

    /** Restores remapped keycodes, detaches shared memory and closes the connection. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        if (!dead) {
            try {
                if (!remapped.isEmpty()) resetRemapped(keymap());
                if (segment != null) segment.release(dpy);
            } catch (RuntimeException ignored) {
                // closing must not fail; the server drops everything of this client anyway
            }
            X.XCloseDisplay(dpy);
        }
        OPEN.remove(dpyAddress);
    }

    /** The top-level (child of the root) holding {@code window}; 0 when it vanished. */
    public synchronized long topLevelOf(long window) {
        live();
        return topLevel(window);
    }

    // ------------------------------------------------------------------------------------------
    // Primitives for WindowRelations (called with this display's lock held)

    /** The root's children bottom to top (top-levels: frames, unmanaged and override-redirect windows). */
    long[] rootChildren() {
        live();
        LongByReference r = new LongByReference(), parent = new LongByReference();
        PointerByReference kids = new PointerByReference();
        IntByReference n = new IntByReference();
        if (X.XQueryTree(dpy, root, r, parent, kids, n) == 0 || kids.getValue() == null) return new long[0];
        try {
            return kids.getValue().getLongArray(0, n.getValue());
        } finally {
            X.XFree(kids.getValue());
        }
    }

    /** A root child's placement: {x, y, width, height, override-redirect 0|1, viewable 0|1}, or null when gone. */
    int[] placement(long window) {
        int before = errorCount;
        if (X.XGetWindowAttributes(dpy, window, attrs) == 0 || errorCount != before) return null;
        return new int[] {attrs.getInt(Xlib.WA_X), attrs.getInt(Xlib.WA_Y), attrs.getInt(Xlib.WA_WIDTH),
                attrs.getInt(Xlib.WA_HEIGHT), attrs.getInt(Xlib.WA_OVERRIDE_REDIRECT) != 0 ? 1 : 0,
                attrs.getInt(Xlib.WA_MAP_STATE) == Xlib.IsViewable ? 1 : 0};
    }

    /** Format-32 items of a property by names. */
    long[] property32(long window, String property, String type) {
        return cardinals(window, atom(property), atom(type));
    }

    long atomOf(String name) {
        return atom(name);
    }

    /** The raw input focus window (0 for None, 1 for PointerRoot). */
    long inputFocus() {
        LongByReference focus = new LongByReference();
        X.XGetInputFocus(dpy, focus, new IntByReference());
        return focus.getValue();
    }

    long clientOf(long window) {
        return window & clientBits;
    }

    String classOf(long window) {
        String c = wmClass(window);
        return c == null ? "" : c;
    }

    boolean grabbedNow() {
        return grabbedByOther();
    }

    long topLevelNow(long window) {
        return topLevel(window);
    }

    long ownPid() {
        return ownPid;
    }

    /** The raw connection, for tests acting as this client. */
    Pointer display() {
        return dpy;
    }

    long rootWindow() {
        return root;
    }
}

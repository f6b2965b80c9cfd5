package dev.deckhand.platform.x11;

import dev.deckhand.grant.Chord;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.GrabHolder;
import dev.deckhand.loop.desktop.MenuClosing;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The X11 half of the Linux desktop driver: one Xlib connection ({@code Display*}) that lists windows,
 * measures geometry, captures window pixels, sends keys to one window and (on a private virtual
 * desktop only) clicks. It opens the connection, holds its lock and checks that it is live and that
 * input is allowed; each concern is a class of its own behind it: {@link Windows} (the window list,
 * geometry, top-levels, focus), {@link Keys} with {@link KeyboardMapping} (keys and text),
 * {@link KeyboardGrab} (another client's grab), {@link PointerClick} (the real pointer), {@link SentClick}
 * (pointer events sent to a window),
 * {@link WindowCapture} (pixels) and {@link WindowRelations} (popups, focus, screen lock), all over
 * one {@link XConnection} through the one libX11 binding {@link Xlib}. Every public method is
 * {@code synchronized}: the connection is used by one thread at a time. Close it when done
 * ({@link #close()}).
 *
 * <h2>Failure model</h2>
 * Nothing here may end the JVM ({@link XConnection}: protocol errors are counted, a lost server marks
 * the connection dead). Calls throw {@link RefusedException}:
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

    private final XConnection c;
    private final Map<String, String> env;
    private final Extensions extensions;
    private final Optional<String> waylandReason;
    private final Windows windows;
    private final WatchedWindows watched;
    private final KeyboardGrab grab;
    private final KeyboardMapping mapping;
    private final Keys keys;
    private final PointerClick pointer;
    private final SentClick sent;
    private final WindowCapture capture;
    private final WindowRelations relations;
    /** Who holds a keyboard grab, measured through RECORD; null where the server offers no way. */
    private final GrabRecord record;

    private final KeyboardWatch keyboard;
    private boolean closed;

    private X11Display(XConnection c, Map<String, String> env) {
        this.c = c;
        this.env = Map.copyOf(env);
        this.extensions = Extensions.probe(c);
        this.waylandReason = waylandReason(this.env, extensions.xwayland());
        WindowProperties props = new WindowProperties(c);
        this.windows = new Windows(c, props);
        this.watched = WatchedWindows.open(this.env, windows);
        this.grab = new KeyboardGrab(c);
        // started before the first probe: every probe is then a request the record sees
        this.record = GrabRecord.start(this.env, c.dpy.getLong(RESOURCE_BASE)).orElse(null);
        this.mapping = new KeyboardMapping(c);
        this.keys = new Keys(c, windows, mapping, extensions.xtest(), this::grabHeldByOther);
        this.pointer = new PointerClick(c, windows, privateDesktop(), extensions.xtest());
        this.sent = new SentClick(c, windows);
        this.capture = new WindowCapture(c, windows, props, extensions.composite(), extensions.shm());
        this.relations = new WindowRelations(c, windows, props, grab);
        this.keyboard = KeyboardWatch.start(this.env);
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
            String named = os.toLowerCase(Locale.ROOT).startsWith("mac")
                    ? "macOS (" + os + ")"
                    : os.toLowerCase(Locale.ROOT).startsWith("windows")
                            ? "Windows (" + os + ")"
                            : os.isBlank() ? "an unknown OS" : os;
            throw new RefusedException(Refusal.platformUnsupported(
                    "no desktop backend for " + named + " yet; only Linux with X11 is supported"));
        }
    }

    /** Opens the display named by the process environment's {@code DISPLAY}. */
    public static X11Display open() {
        return open(System.getenv());
    }

    /**
     * Opens the display named by {@code env.get("DISPLAY")}; {@code env} also decides the Wayland hint
     * and whether this is a private virtual desktop ({@value #PRIVATE_DESKTOP_ENV}{@code =1}). Installs
     * the error handlers, redirects top-levels for capture (XComposite), probes XTEST and MIT-SHM.
     *
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} off Linux or off LP64; {@code HEADLESS}
     *     when {@code DISPLAY} is unset or the display does not answer
     */
    public static X11Display open(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        return new X11Display(XConnection.open(env), env);
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

    // ------------------------------------------------------------------------------------------
    // Facts about this connection

    /** Why input is refused as Wayland on this display, or empty when it is not. */
    public Optional<String> waylandInputReason() {
        return waylandReason;
    }

    /** True when captures read through MIT-SHM (fast); false means plain XGetImage. */
    synchronized boolean shmCapture() {
        return capture.shmInUse();
    }

    /** True when captures read full window content through XComposite (covered parts correct). */
    public boolean compositeCapture() {
        return extensions.composite();
    }

    /** True when {@code DECKHAND_PRIVATE_DESKTOP=1}: the pointer path is allowed. */
    public boolean privateDesktop() {
        return "1".equals(env.get(PRIVATE_DESKTOP_ENV));
    }

    /**
     * The changes other programs made to the keyboard since this display was opened, counted by a watch on a
     * connection and thread of its own ({@link KeyboardWatch}): keysyms of keys that had some, the modifier map,
     * the enabled XKB controls. Not synchronized: it reads a counter.
     */
    public dev.deckhand.loop.desktop.KeyboardChanges keyboardChanges() {
        long n = keyboard.count();
        return n < 0
                ? dev.deckhand.loop.desktop.KeyboardChanges.UNWATCHED
                : new dev.deckhand.loop.desktop.KeyboardChanges(n, keyboard.last());
    }

    /** The screen's size in pixels. */
    public Geometry screen() {
        return windows.screen();
    }

    // ------------------------------------------------------------------------------------------
    // Windows

    /**
     * All client windows from {@code _NET_CLIENT_LIST_STACKING}, bottom to top. A window that vanishes
     * while it is read is left out. Empty when the window manager publishes no list. The answer is what a
     * read at this moment gives; it is read again only when an X event since the last read can change it
     * ({@link WatchedWindows}).
     */
    public synchronized List<WindowInfo> windows() {
        live();
        return watched.list();
    }

    /**
     * One window as {@link #windows()} would report it, or empty when it does not exist; a window that is
     * not listed is read directly.
     */
    public synchronized Optional<WindowInfo> window(long id) {
        live();
        return watched.window(id);
    }

    /** How many times the window list was really read (tests: an unchanged desktop answers without one). */
    synchronized long windowListReads() {
        return watched.reads();
    }

    /** True while the window list is kept by X events (false: it is read on every answer). */
    synchronized boolean windowListWatched() {
        return watched.watching();
    }

    /**
     * The window's client area in screen coordinates (root-relative origin, inner size).
     *
     * @throws RefusedException {@code PREFLIGHT_FAILED} when the window does not exist
     */
    public synchronized Geometry geometry(long window) {
        live();
        return windows.measure(window, false);
    }

    /**
     * Re-measures {@code basis}: true only when its window still exists, is mapped, and has exactly
     * the geometry the basis was taken against. Never throws for a vanished window (that is false).
     */
    public synchronized boolean basisValid(Basis basis) {
        Objects.requireNonNull(basis, "basis");
        live();
        return windows.basisValid(basis);
    }

    /**
     * The top-level (child of the root, i.e. the window manager's frame or an unmanaged window) that
     * holds the input focus, or 0 when focus is None or PointerRoot.
     */
    public synchronized long focusedTopLevel() {
        live();
        return windows.focusedTopLevel();
    }

    /**
     * The top-level window active on this display: the window manager's {@code _NET_ACTIVE_WINDOW} (a client
     * window id as {@link #windows()} lists it; 0 when none is active), or without an EWMH window manager the
     * client whose top-level holds the input focus. Read only: Deckhand never sets it (docs/security.md).
     */
    public synchronized long activeWindow() {
        live();
        return windows.activeWindow();
    }

    /** The top-level (child of the root) holding {@code window}; 0 when it vanished. */
    public synchronized long topLevelOf(long window) {
        live();
        return windows.topLevel(window);
    }

    /**
     * How the top-level windows relate to {@code clients} (the managed windows as {@link #windows()}
     * lists them): the popups, the client window holding the focus, a screen lock.
     */
    public synchronized WindowRelations.Read relations(List<WindowInfo> clients) {
        live();
        return relations.read(clients);
    }

    // ------------------------------------------------------------------------------------------
    // Keys

    /**
     * Sends the chord ({@code ctrl+s}, {@code Enter}; normalised, {@link Chord}) to {@code window} as a
     * synthetic KeyPress/KeyRelease pair with event mask 0 ({@code XSendEvent}). The pointer and the
     * input focus are never touched. Reaches GTK3 (text and shortcuts, focused or not), Qt5 (text
     * always, but Qt fires shortcuts such as {@code ctrl+s} only in the active window, so a chord to an
     * inactive Qt window is sent and silently ignored by the app — the caller must check the effect or
     * use {@link #xtestKey}) and active Swing windows; GTK4 ignores synthetic events — use
     * {@link #xtestKey} there. Success means the events were delivered to the X server without error,
     * not that the app acted on them.
     *
     * @throws RefusedException {@code SYSTEM_CHORD} for a chord the desktop may take
     */
    public synchronized void key(long window, Chord chord) {
        live();
        requireInput();
        keys.send(window, chord);
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
        keys.type(window, text);
    }

    /**
     * The chord through XTEST (real key events from the server, which GTK4 accepts), allowed only
     * while {@code window}'s top-level already has the input focus, so the keys cannot land anywhere
     * else; focus is never moved to make that so.
     *
     * @throws RefusedException {@code OUT_OF_SCOPE} when another window (or none) has focus — the keys
     *     would reach a window outside the grant; {@code SECURE_INPUT} when another client holds a
     *     keyboard grab (the keys would go to it); {@code PLATFORM_UNSUPPORTED} without XTEST, and while the
     *     keyboard's XKB state would make the keys arrive as others (a latch, a locked modifier but Num Lock, a third
     *     layout group, AccessX SlowKeys, BounceKeys, MouseKeys or an overlay: {@link
     *     KeyboardMapping#readForEffectiveGroup}), or the server's keymap would make a key another keysym or give it
     *     an action ({@link KeyboardMapping.ServerKeys})
     */
    public synchronized void xtestKey(long window, Chord chord) {
        live();
        requireInput();
        keys.xtestSend(window, chord);
    }

    /** {@link #type} through XTEST, under the same focus rule as {@link #xtestKey}. */
    public synchronized void xtestType(long window, String text) {
        live();
        requireInput();
        Objects.requireNonNull(text, "text");
        keys.xtestType(window, text);
    }

    /**
     * True when another client holds a keyboard grab (X11's secure input: a password prompt, a locker,
     * a game); see {@link KeyboardGrab}.
     */
    public synchronized boolean keyboardGrabbed() {
        live();
        return grab.heldByOther();
    }

    /** {@code Display.private3}, the connection's resource base (x86_64 offset 40): its client in every XID. */
    private static final long RESOURCE_BASE = 40;

    /**
     * What one probe found: whether a client holds the keyboard, and who.
     *
     * @param holder who holds it, measured in the server's order of requests ({@link GrabRecord}); null when
     *     {@code grabbed} is false, {@link GrabHolder#UNMEASURED} where the server has no RECORD extension
     */
    public record GrabRead(boolean grabbed, GrabHolder holder) {}

    /**
     * Whether a client holds a keyboard grab ({@link #keyboardGrabbed()}), and which one: the record's answer for
     * this very probe, so a grab the granted app took before mapping its menu is known as the app's at once.
     */
    public synchronized GrabRead keyboardGrab() {
        live();
        boolean grabbed = grab.heldByOther();
        if (!grabbed) return new GrabRead(false, null);
        return new GrabRead(true, holder());
    }

    /** The measured holder after the probe just made (call with the lock held, right after the probe). */
    private GrabHolder holder() {
        if (record == null) return GrabHolder.UNMEASURED;
        GrabHolder h = record.holderAfter(grab.sent());
        return h == null ? new GrabHolder.Unknown("the record saw no grab where the probe found one") : h;
    }

    /** Keys' rule for XTEST: grabbed by a client other than the one that created {@code window}, or not measured so. */
    private boolean grabHeldByOther(long window) {
        if (!grab.heldByOther()) return false;
        GrabHolder h = holder();
        return !(h instanceof GrabHolder.Client cl
                && cl.afterOwnAction()
                && cl.client() == windows.clientOf(window)
                && cl.client() != 0);
    }

    /**
     * Marks the beginning ({@code true}) or end of one of Deckhand's input actions in the server's order of
     * requests (a {@code NoOperation}, synced): a grab the granted app takes after it began, with no press of the
     * person's between, was opened by that action ({@link GrabHolder.Client#afterOwnAction()}). Nothing where
     * the grab holder is not measured.
     */
    public synchronized void markAction(boolean begins) {
        if (record == null || closed || c.dead()) return;
        record.expectMark(begins);
        Xlib.X.XNoOp(c.dpy);
        c.sync();
    }

    /** XK_Escape. */
    private static final long ESCAPE = 0xff1b;

    /** What one round of {@link #closeOwnMenus} found. */
    private enum MenuStep {
        NONE,
        NOT_OWN,
        SENT,
        UNMEASURED,
        NO_XTEST
    }

    /**
     * Closes the menus, combo lists and popovers of {@code window}'s own X client that one of Deckhand's actions
     * opened and that hold the keyboard (a {@link GrabHolder.Client} of the window's client, {@code afterOwnAction}):
     * one Escape press at a time, each delivered while the server is grabbed, right after a probe found that very
     * grab still held — so the Escape can only go to that menu, never to the window the person works in — then
     * waiting up to {@code max} in all for the grab to end before the next (a submenu closes one level per Escape).
     * A grab of any other client, one the person opened, and one no recorded request explains are left alone. Where
     * the holder is not measured (no RECORD) or the server has no XTEST, nothing is sent: {@link MenuClosing.Left}
     * when a grab is held then, since it may be such a menu.
     */
    public MenuClosing closeOwnMenus(long window, java.time.Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        int sent = 0;
        while (true) {
            MenuStep step = closeStep(window);
            switch (step) {
                case NONE, NOT_OWN -> {
                    return sent == 0 ? MenuClosing.NONE : new MenuClosing.Closed(sent);
                }
                case UNMEASURED -> {
                    return new MenuClosing.Left(
                            "a keyboard grab is held and who holds it is not measured (the X server "
                                    + "has no RECORD extension)");
                }
                case NO_XTEST -> {
                    return new MenuClosing.Left("the app's menu holds the keyboard and the X server has no XTEST "
                            + "extension to close it with");
                }
                case SENT -> sent++;
                default -> throw new AssertionError(step);
            }
            // the app closes its menu when it reads the Escape: wait for its grab to end before another one
            while (grabbedNow()) {
                if (System.nanoTime() > deadline) {
                    return new MenuClosing.Left("the app's menu still holds the keyboard after " + sent + " Escape"
                            + (sent == 1 ? "" : "s") + " within " + max.toMillis() + " ms");
                }
                sleep(20);
            }
        }
    }

    private synchronized boolean grabbedNow() {
        live();
        return grab.heldByOther();
    }

    /** One round: probe, and send one Escape to the grab when it is {@code window}'s client's own, under a server grab. */
    private synchronized MenuStep closeStep(long window) {
        live();
        if (!grab.heldByOther()) return MenuStep.NONE;
        if (record == null || !record.running()) return MenuStep.UNMEASURED;
        if (!extensions.xtest()) return MenuStep.NO_XTEST;
        long client = windows.clientOf(window);
        int keycode = Xlib.X.XKeysymToKeycode(c.dpy, ESCAPE);
        Xlib.X.XGrabServer(c.dpy);
        try {
            // the probe and the Escape are atomic for every other client: the grab found is the one the key reaches
            if (!grab.heldByOther()) return MenuStep.NONE;
            GrabHolder h = holder();
            if (!(h instanceof GrabHolder.Client cl && cl.afterOwnAction() && client != 0 && cl.client() == client)) {
                return MenuStep.NOT_OWN;
            }
            // marked as Deckhand's action, as any input is: a grab the menu takes again on its way out is still
            // one Deckhand's input caused, and the Escape press is no press of the person's
            record.expectMark(true);
            Xlib.X.XNoOp(c.dpy);
            Xtst.X.XTestFakeKeyEvent(c.dpy, keycode, Xlib.True, 0);
            Xtst.X.XTestFakeKeyEvent(c.dpy, keycode, Xlib.False, 0);
            record.expectMark(false);
            Xlib.X.XNoOp(c.dpy);
            c.sync();
            return MenuStep.SENT;
        } finally {
            Xlib.X.XUngrabServer(c.dpy);
            c.sync();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RefusedException(Refusal.stopped("interrupted while closing the app's menu"));
        }
    }

    /**
     * How many keyboard grabs clients other than Deckhand's probe took since this display was opened, read after a
     * probe so that every request the server processed before now is counted; -1 where RECORD does not run.
     */
    public synchronized long keyboardGrabsTaken() {
        live();
        if (record == null) return -1;
        grab.heldByOther();
        record.holderAfter(grab.sent());
        return record.grabsTaken();
    }

    /** Whether the holder of a keyboard grab is measured (RECORD runs). */
    public synchronized boolean grabHolderMeasured() {
        return record != null && record.running();
    }

    // ------------------------------------------------------------------------------------------
    // Pointer: private virtual desktop only

    /**
     * Clicks (button 1) at capture pixel {@code (x, y)} of {@code basis} with XTEST motion + button.
     * Moves the real pointer, so it is allowed only on a private virtual desktop Deckhand started
     * ({@value #PRIVATE_DESKTOP_ENV}{@code =1}). The basis is re-measured first, and the point must be
     * inside the window and not covered by another top-level window (the window's own popup may be).
     *
     * @throws RefusedException {@code POINTER_WARP_REFUSED} off a private desktop, {@code BASIS_STALE}
     *     when the window moved, resized, unmapped or vanished, {@code OUT_OF_SCOPE} when the point is
     *     outside the window or another window is on top there
     */
    public synchronized void clickAt(int x, int y, Basis basis) {
        Objects.requireNonNull(basis, "basis");
        live();
        requireInput();
        pointer.click(x, y, basis);
    }

    /**
     * Clicks (button 1) at capture pixel {@code (x, y)} of {@code basis} with pointer events sent to the window
     * ({@code XSendEvent}: EnterNotify, MotionNotify, ButtonPress, ButtonRelease, LeaveNotify, mask 0, the server's
     * time), to the deepest window of its client under the point, or of its own popup on top there. The real
     * pointer does not move and nothing asks for focus, on any display; whether the window's toolkit takes such
     * events, and whether it activates its window on them, is the caller's to know (docs/driver-x11.md). The
     * basis is re-measured first and the point must be inside the window; a cover on top does not matter (the
     * events go to the window itself, as its capture shows it).
     *
     * @return the window the events went to and the point in it
     * @throws RefusedException {@code BASIS_STALE} when the window moved, resized, unmapped or vanished,
     *     {@code OUT_OF_SCOPE} when the point is outside the window, {@code PREFLIGHT_FAILED} when the window
     *     went away under the events, {@code WAYLAND_INPUT_UNSUPPORTED} under Xwayland
     */
    public synchronized SentTarget sendClick(int x, int y, Basis basis) {
        Objects.requireNonNull(basis, "basis");
        live();
        requireInput();
        SentClick.Target t = sent.click(x, y, basis);
        return new SentTarget(t.window(), t.x(), t.y());
    }

    /** Where {@link #sendClick} sent its events: the window and the point in its coordinates. */
    public record SentTarget(long window, int x, int y) {}

    /** The real pointer's position on the root window now ({@code XQueryPointer}; tests and the doctor). */
    public synchronized int[] pointerPosition() {
        live();
        com.sun.jna.ptr.LongByReference root = new com.sun.jna.ptr.LongByReference(),
                child = new com.sun.jna.ptr.LongByReference();
        com.sun.jna.ptr.IntByReference rx = new com.sun.jna.ptr.IntByReference(),
                ry = new com.sun.jna.ptr.IntByReference(),
                wx = new com.sun.jna.ptr.IntByReference(),
                wy = new com.sun.jna.ptr.IntByReference(),
                mask = new com.sun.jna.ptr.IntByReference();
        Xlib.X.XQueryPointer(c.dpy, c.root, root, child, rx, ry, wx, wy, mask);
        return new int[] {rx.getValue(), ry.getValue()};
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
        return capture.capture(window, grantRevision, longEdge, format);
    }

    /** Raw client-area pixels of {@code window} (package-private for tests and the bench). */
    synchronized RgbImage grab(long window) {
        live();
        return capture.grab(window).pixels();
    }

    /** The window's own popups over its top-level {@code top}, bottom to top (see {@link WindowCapture#popupsOver}). */
    synchronized List<Long> popupsOver(long window, long top) {
        return capture.popupsOver(window, top);
    }

    // ------------------------------------------------------------------------------------------
    // Plumbing

    private void live() {
        if (closed) throw new IllegalStateException("X11Display is closed");
        if (c.dead()) throw new RefusedException(Refusal.headless("the connection to the X display was lost"));
    }

    private void requireInput() {
        waylandReason.ifPresent(why -> {
            throw new RefusedException(Refusal.waylandInputUnsupported("input is refused under Wayland: " + why));
        });
    }

    /** Restores remapped keycodes, detaches shared memory and closes the connection. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        watched.close();
        if (record != null) record.close();
        keyboard.close();
        if (!c.dead()) {
            try {
                mapping.close();
                capture.close();
                sent.close();
            } catch (RuntimeException ignored) {
                // closing must not fail; the server drops everything of this client anyway
            }
        }
        c.close();
    }
}

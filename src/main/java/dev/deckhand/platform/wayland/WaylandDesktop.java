package dev.deckhand.platform.wayland;

import dev.deckhand.grant.Chord;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Captures;
import dev.deckhand.loop.desktop.DeliveryGate;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Display;
import dev.deckhand.loop.desktop.Facts;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Input;
import dev.deckhand.loop.desktop.Landing;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.Showing;
import dev.deckhand.loop.desktop.Trees;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.Processes;
import dev.deckhand.platform.atspi.AtspiBridge;
import dev.deckhand.platform.atspi.BusFrame;
import dev.deckhand.platform.x11.X11Display;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The desktop of native Wayland apps, through the accessibility bus alone (docs/wayland.md). There is no
 * global window list: the windows are the top-level accessibles of the apps on the bus, each given an
 * opaque numeric id ({@link FrameIds}) bound to its process and its route, so a retitled frame is the
 * same window. Actions by uid are the app's own AT-SPI calls (click, set_text, focus where the toolkit
 * allows it, select, scroll).
 *
 * <p>There is no synthetic input: {@code key}, {@code type} and {@code click_at} are refused
 * {@code WAYLAND_INPUT_UNSUPPORTED} and pixel capture {@code PLATFORM_UNSUPPORTED}, each as the first
 * statement of its method. libatspi's synthetic-input calls ({@code atspi_generate_*}) crash the calling
 * process when there is no X server (LINUX-DESKTOP.md); Deckhand binds none of them, and nothing here
 * calls the X11 driver's input code.
 *
 * <p>Effects: after an action, {@link #settle} waits for an accessibility event that came after it
 * (GTK 4 applies a click about 255 ms after the call returns), then for quiet, bounded by the caller.
 *
 * <p>It is the display, trees, input and captures parts of the port itself; its facts are {@link #facts()}
 * and {@link #freshFacts()}; it shows nothing ({@link #desktop()}).
 */
public final class WaylandDesktop implements Display, Trees, Input, Captures, AutoCloseable {

    private final AtspiBridge atspi;
    private final boolean ownsBridge;
    private final Supplier<Set<Integer>> x11Processes;
    private final FrameIds ids = new FrameIds();
    /** The frames last listed, by id: what a snapshot's id names (re-checked against the bus). */
    private final Map<Long, BusFrame> listed = new ConcurrentHashMap<>();

    private final int ownPid = (int) ProcessHandle.current().pid();
    private volatile long lastActionNanos = Long.MIN_VALUE;

    /**
     * @param atspi the bridge to the accessibility bus the apps are on
     * @param ownsBridge whether {@link #close()} closes it (false when an X11 driver shares it)
     * @param x11Processes the processes that have X11 windows now: on a session with both, their frames
     *     belong to the X11 driver and are left out here
     */
    public WaylandDesktop(AtspiBridge atspi, boolean ownsBridge, Supplier<Set<Integer>> x11Processes) {
        this.atspi = atspi;
        this.ownsBridge = ownsBridge;
        this.x11Processes = x11Processes;
        this.desktop = new Desktop(this, this, this, this, Facts.of(this::facts, this::freshFacts), Showing.NONE);
    }

    private final Desktop desktop;

    /** This driver as the port: its parts, its facts, no showing. */
    public Desktop desktop() {
        return desktop;
    }

    /** A Wayland session without X: its own bridge, every frame on the bus. */
    public static WaylandDesktop open() {
        return new WaylandDesktop(AtspiBridge.start(), true, Set::of);
    }

    @Override
    public List<WindowInfo> windows() {
        return windows(false);
    }

    /**
     * The frames of the apps without an X window; {@code hiddenToo} also those that do not report the
     * showing state (the facts' deny scan: a comms app counts as seen whenever it has a frame, since Wayland
     * gives no reliable showing state), all of them counted visible.
     */
    public List<WindowInfo> windows(boolean hiddenToo) {
        List<BusFrame> frames = atspi.frames();
        Set<Integer> x11 = x11Processes.get();
        List<WindowInfo> out = new ArrayList<>();
        for (BusFrame f : frames) {
            if ((!hiddenToo && !f.showing()) || x11.contains(f.pid())) continue;
            long id = ids.idOf(new FrameIds.Key(f.pid(), f.busName(), f.path()));
            listed.put(id, f);
            boolean own = f.name().contains(X11Display.OWN_WINDOW_MARKER) || f.pid() == ownPid;
            // No stacking order, no showing state on GTK 4 and no minimised state: every frame counts as
            // visible (comms apps are treated as seen whenever they have a frame).
            out.add(new WindowInfo(
                    id,
                    f.name(),
                    f.app(),
                    f.pid(),
                    new Geometry(0, 0, f.width(), f.height()),
                    out.size(),
                    true,
                    false,
                    own,
                    0,
                    0,
                    "alert".equals(f.role()),
                    Processes.start(f.pid())));
        }
        return List.copyOf(out);
    }

    /** The frame {@code windowId} names as it is on the bus now (its title may have changed). */
    private BusFrame frame(long windowId) {
        BusFrame known = listed.get(windowId);
        if (known == null) windows();
        known = listed.get(windowId);
        if (known == null) throw gone(windowId);
        for (BusFrame f : atspi.frames()) {
            if (f.pid() == known.pid()
                    && f.busName().equals(known.busName())
                    && f.path().equals(known.path())) {
                listed.put(windowId, f);
                return f;
            }
        }
        listed.remove(windowId);
        throw gone(windowId);
    }

    private static RefusedException gone(long windowId) {
        return new RefusedException(Refusal.preflightFailed("Wayland window " + windowId + " no longer exists"));
    }

    @Override
    public ScopedTree snapshot(long windowId, long grantRevision) {
        BusFrame f = frame(windowId);
        return atspi.snapshot(f, new Geometry(0, 0, f.width(), f.height()), windowId, grantRevision);
    }

    /**
     * Always walks: a frame's place on screen is unknown here, so a move without an accessibility event could
     * not be told.
     */
    @Override
    public ScopedTree latestSnapshot(long windowId, long grantRevision) {
        return snapshot(windowId, grantRevision);
    }

    @Override
    public void click(String uid) {
        acted(() -> atspi.click(uid));
    }

    @Override
    public void setText(String uid, String text) {
        acted(() -> atspi.setText(uid, text));
    }

    @Override
    public void focus(String uid) {
        acted(() -> atspi.focus(uid));
    }

    @Override
    public void scroll(String uid, String direction, int amount) {
        acted(() -> atspi.scroll(uid, direction, amount));
    }

    @Override
    public void select(String uid, String option) {
        acted(() -> atspi.select(uid, option));
    }

    private void acted(Runnable action) {
        long before = System.nanoTime();
        action.run();
        lastActionNanos = before;
    }

    @Override
    public dev.deckhand.grant.Accelerators accelerators(long windowId) {
        // no synthetic input reaches a Wayland window: no key action is delivered to judge
        return dev.deckhand.grant.Accelerators.UNKNOWN;
    }

    @Override
    public boolean syntheticInput(long windowId) {
        return false;
    }

    @Override
    public void key(long windowId, Chord chord) {
        throw noInput("key");
    }

    @Override
    public void type(long windowId, String text, DeliveryGate gate) {
        throw noInput("type");
    }

    @Override
    public void clickAt(int x, int y, Basis basis) {
        throw noInput("click_at");
    }

    /** No input is given on Wayland, so no menu of Deckhand's can be open. */
    @Override
    public dev.deckhand.loop.desktop.MenuClosing closeOwnMenus(long windowId) {
        return dev.deckhand.loop.desktop.MenuClosing.NONE;
    }

    /** The refusal of every synthetic input on Wayland; no native call precedes it. */
    static RefusedException noInput(String action) {
        return new RefusedException(Refusal.waylandInputUnsupported(action + " needs synthetic input, which a "
                + "Wayland session gives no client (and libatspi's attempt crashes the caller); act by uid, and reach "
                + "a key through the app's menu items"));
    }

    @Override
    public Capture capture(long windowId, long grantRevision, int longEdge) {
        throw new RefusedException(
                Refusal.platformUnsupported(
                        "pixel capture of a Wayland window needs the "
                                + "compositor's screenshot portal, which Deckhand does not use; the accessibility route has no pixels"));
    }

    /** No capture, so no basis is ever valid. */
    @Override
    public boolean basisValid(Basis basis) {
        return false;
    }

    /** Its {@link Facts#current()}: read now. */
    public DesktopFacts facts() {
        List<WindowInfo> windows = windows(true);
        Set<String> running = new HashSet<>(atspi.applicationNames());
        windows.forEach(w -> running.add(w.app().toLowerCase(Locale.ROOT)));
        running.addAll(Processes.names());
        // No keyboard grab, focus window, popups or screen lock can be read from a Wayland client.
        return new DesktopFacts(
                atspi.passwordFocused(),
                false,
                running,
                windows,
                atspi.focusedBrowserHost(),
                0,
                atspi.focusedElement(),
                List.of(),
                Optional.empty());
    }

    /** Its {@link Facts#fresh()}: nothing is kept on the Wayland route, {@link #facts()} reads everything now. */
    public DesktopFacts freshFacts() {
        return facts();
    }

    /**
     * Wayland tells no client which window is active: 0, so a {@code focus} is refused on the person's own
     * session (the guard cannot show it would not activate a window) and allowed on a private one.
     */
    @Override
    public long activeWindow() {
        return 0;
    }

    @Override
    public boolean privateDesktop() {
        return "1".equals(System.getenv("DECKHAND_PRIVATE_DESKTOP"));
    }

    /** A Wayland compositor tells no client about the keyboard's map: not watched. */
    @Override
    public dev.deckhand.loop.desktop.KeyboardChanges keyboardChanges() {
        return dev.deckhand.loop.desktop.KeyboardChanges.UNWATCHED;
    }

    @Override
    public void settle(Duration max) {
        atspi.settleOnEffect(max, lastActionNanos);
    }

    /** Waits as {@link #settle(Duration)} does: for an event after the last action, then for quiet. */
    @Override
    public void settle(Duration max, Set<Landing> landings) {
        settle(max);
    }

    /** No app is told apart as starting here: a frame is on the bus or it is not a window at all. */
    @Override
    public boolean starting(long windowId) {
        return false;
    }

    /** Never starting ({@link #starting}): registered at once. */
    @Override
    public boolean awaitRegistered(long windowId, Duration max) {
        return true;
    }

    @Override
    public void close() {
        if (ownsBridge) atspi.close();
    }
}

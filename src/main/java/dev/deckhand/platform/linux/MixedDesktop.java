package dev.deckhand.platform.linux;

import dev.deckhand.grant.Chord;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Captures;
import dev.deckhand.loop.desktop.DeliveryGate;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Display;
import dev.deckhand.loop.desktop.Facts;
import dev.deckhand.loop.desktop.Input;
import dev.deckhand.loop.desktop.Landing;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.Showing;
import dev.deckhand.loop.desktop.Trees;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.wayland.FrameIds;
import dev.deckhand.platform.wayland.WaylandDesktop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A session with both X11 (XWayland) and native Wayland apps, as GNOME runs them: X11 clients keep
 * the X11 driver (its windows, keys where docs/design.md#platforms allows them, capture), native Wayland apps get
 * the {@link WaylandDesktop}, and both share one accessibility bridge, so a uid from either tree acts
 * through the same table. A window id names its route: frame ids ({@link FrameIds}) are above every X
 * window id.
 */
public final class MixedDesktop implements Display, Trees, Input, Captures, AutoCloseable {

    private final LinuxDesktop x11;
    private final WaylandDesktop wayland;

    public MixedDesktop(LinuxDesktop x11) {
        this.x11 = x11;
        this.wayland = new WaylandDesktop(x11.atspi(), false, () -> pidsOf(x11.windows()));
        this.desktop = new Desktop(this, this, this, this, Facts.of(this::facts, this::freshFacts), Showing.NONE);
    }

    private final Desktop desktop;

    /** This driver as the port: its parts, its facts, no showing. */
    public Desktop desktop() {
        return desktop;
    }

    /** X11 on {@code DISPLAY} and the Wayland frames of the apps without an X window. */
    public static MixedDesktop open() {
        return new MixedDesktop(LinuxDesktop.open());
    }

    private static Set<Integer> pidsOf(List<WindowInfo> windows) {
        Set<Integer> pids = new HashSet<>();
        windows.forEach(w -> pids.add(w.pid()));
        return pids;
    }

    private Desktop route(long windowId) {
        return FrameIds.isFrameId(windowId) ? wayland.desktop() : x11.desktop();
    }

    @Override
    public List<WindowInfo> windows() {
        List<WindowInfo> x = x11.windows();
        List<WindowInfo> all = new ArrayList<>(x);
        all.addAll(wayland.windows());
        return List.copyOf(all);
    }

    @Override
    public ScopedTree snapshot(long windowId, long grantRevision) {
        return route(windowId).trees().snapshot(windowId, grantRevision);
    }

    /**
     * Always walks: actions by uid go through the Wayland side whatever the window, so the X11 desktop does
     * not see every action this session delivers, which its reuse rests on.
     */
    @Override
    public ScopedTree latestSnapshot(long windowId, long grantRevision) {
        return snapshot(windowId, grantRevision);
    }

    // Actions by uid go through the one shared bridge; the Wayland side also notes when it acted, so
    // settle waits for the effect.

    @Override
    public void click(String uid) {
        wayland.click(uid);
    }

    @Override
    public void setText(String uid, String text) {
        wayland.setText(uid, text);
    }

    @Override
    public void focus(String uid) {
        wayland.focus(uid);
    }

    @Override
    public void scroll(String uid, String direction, int amount) {
        wayland.scroll(uid, direction, amount);
    }

    @Override
    public void select(String uid, String option) {
        wayland.select(uid, option);
    }

    @Override
    public boolean starting(long windowId) {
        return route(windowId).trees().starting(windowId);
    }

    @Override
    public boolean awaitRegistered(long windowId, Duration max) {
        return route(windowId).trees().awaitRegistered(windowId, max);
    }

    @Override
    public dev.deckhand.grant.Accelerators accelerators(long windowId) {
        return route(windowId).trees().accelerators(windowId);
    }

    @Override
    public boolean syntheticInput(long windowId) {
        return route(windowId).display().syntheticInput(windowId);
    }

    @Override
    public void key(long windowId, Chord chord) {
        route(windowId).input().key(windowId, chord);
    }

    @Override
    public void type(long windowId, String text, DeliveryGate gate) {
        route(windowId).input().type(windowId, text, gate);
    }

    @Override
    public void clickAt(int x, int y, Basis basis) {
        route(basis.windowId()).input().clickAt(x, y, basis);
    }

    @Override
    public dev.deckhand.loop.desktop.MenuClosing closeOwnMenus(long windowId) {
        return route(windowId).display().closeOwnMenus(windowId);
    }

    @Override
    public Capture capture(long windowId, long grantRevision, int longEdge) {
        return route(windowId).captures().capture(windowId, grantRevision, longEdge);
    }

    @Override
    public boolean basisValid(Basis basis) {
        return route(basis.windowId()).captures().basisValid(basis);
    }

    /** Its {@link Facts#current()}: the X11 side's, with every Wayland frame among the windows. */
    public DesktopFacts facts() {
        return withFrames(x11.facts());
    }

    /** Its {@link Facts#fresh()}: the X11 side's fresh facts, with every Wayland frame among the windows. */
    public DesktopFacts freshFacts() {
        return withFrames(x11.freshFacts());
    }

    /** The active X11 window; a native Wayland window's activation is not told to clients (0 then). */
    @Override
    public long activeWindow() {
        return x11.activeWindow();
    }

    @Override
    public boolean privateDesktop() {
        return x11.privateDesktop();
    }

    /** The X11 side's keyboard: Wayland apps type through the same keyboard map. */
    @Override
    public dev.deckhand.loop.desktop.KeyboardChanges keyboardChanges() {
        return x11.keyboardChanges();
    }

    private DesktopFacts withFrames(DesktopFacts f) {
        List<WindowInfo> all = new ArrayList<>(f.windows());
        all.addAll(wayland.windows(true)); // every frame: a comms app counts as seen whenever it has one
        return new DesktopFacts(
                f.passwordFocused(),
                f.keyboardGrabbed(),
                f.runningApps(),
                all,
                f.browserHost(),
                f.focusedWindow(),
                f.focusedElement(),
                f.popups(),
                f.screenLock(),
                f.grabHolder());
    }

    @Override
    public void settle(Duration max) {
        wayland.settle(max);
    }

    /** As {@link #settle(Duration)}: the Wayland side noted the last action, whatever the window. */
    @Override
    public void settle(Duration max, Set<Landing> landings) {
        settle(max);
    }

    @Override
    public void close() {
        x11.close();
    }
}

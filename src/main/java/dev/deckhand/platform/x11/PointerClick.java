package dev.deckhand.platform.x11;

import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Geometry;

/**
 * The real pointer: a button-1 click at a capture pixel through XTEST motion and button events, only
 * on a private virtual desktop Deckhand started, only against a basis that still holds, and only where
 * the granted window (or its own popup) is on top. One thread at a time ({@link X11Display}'s lock).
 */
final class PointerClick {

    private final XConnection c;
    private final Windows windows;
    private final boolean privateDesktop;
    private final boolean xtest;
    private final IntByReference ix = new IntByReference();
    private final IntByReference iy = new IntByReference();
    private final LongByReference childRef = new LongByReference();

    PointerClick(XConnection c, Windows windows, boolean privateDesktop, boolean xtest) {
        this.c = c;
        this.windows = windows;
        this.privateDesktop = privateDesktop;
        this.xtest = xtest;
    }

    /** See {@link X11Display#clickAt(int, int, Basis)}. */
    void click(int x, int y, Basis basis) {
        if (!privateDesktop) {
            throw new RefusedException(
                    Refusal.pointerWarpRefused(
                            "click_at would move the real pointer; allowed only on a private virtual desktop Deckhand started"));
        }
        if (!xtest) throw new RefusedException(Refusal.platformUnsupported("the X server has no XTEST extension"));
        int[] screen = screenPoint(windows, x, y, basis);
        int sx = screen[0];
        int sy = screen[1];
        Xlib.X.XTranslateCoordinates(c.dpy, c.root, c.root, sx, sy, ix, iy, childRef);
        long topAtPoint = childRef.getValue();
        long target = windows.topLevel(basis.windowId());
        // the target's own popup (a menu or combo list of the same client) is part of its scope
        long client = windows.clientOf(basis.windowId());
        boolean ownPopup = topAtPoint != 0
                && windows.clientOf(topAtPoint) != 0
                && windows.clientOf(topAtPoint) == client
                && isOverrideRedirect(topAtPoint);
        if (topAtPoint != target && !ownPopup) {
            // names neither the window nor the point's owner: the person's windows are not the agent's to learn
            throw new RefusedException(Refusal.outOfScope("another window is on top at the point"));
        }
        Xtst t = Xtst.X;
        t.XTestFakeMotionEvent(c.dpy, -1, sx, sy, 0);
        t.XTestFakeButtonEvent(c.dpy, 1, Xlib.True, 0);
        t.XTestFakeButtonEvent(c.dpy, 1, Xlib.False, 0);
        c.sync();
    }

    /**
     * The screen point of {@code (x, y)} in a capture's pixels ({@code basis}: the window's geometry and the
     * capture's scale then), the pixel's centre; {@code BASIS_STALE} when the window moved or resized since, and
     * {@code OUT_OF_SCOPE} when the point is outside it. Shared by the XTEST click and the sent one.
     */
    static int[] screenPoint(Windows windows, int x, int y, Basis basis) {
        if (!windows.basisValid(basis)) {
            throw new RefusedException(Refusal.basisStale("window 0x" + Long.toHexString(basis.windowId())
                    + " no longer has geometry " + basis.windowGeometry()));
        }
        Geometry g = basis.windowGeometry();
        int sx = g.x() + (int) Math.floor((x + 0.5) / basis.scale());
        int sy = g.y() + (int) Math.floor((y + 0.5) / basis.scale());
        if (x < 0 || y < 0 || !g.contains(sx, sy)) {
            throw new RefusedException(Refusal.outOfScope("point (" + x + ", " + y + ") at scale " + basis.scale()
                    + " is outside window 0x" + Long.toHexString(basis.windowId())));
        }
        return new int[] {sx, sy};
    }

    private boolean isOverrideRedirect(long window) {
        Windows.Placement p = windows.placement(window);
        return p != null && p.overrideRedirect();
    }
}

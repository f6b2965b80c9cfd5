package dev.deckhand.platform.x11;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the top-level windows relate, read from X in one go: the override-redirect popups (menus, combo
 * lists, tooltips — not in {@code _NET_CLIENT_LIST}) with the client that made them, the client window
 * that holds the input focus, and whether a screen locker holds the screen.
 *
 * <p>A locked screen: xscreensaver's {@code _SCREENSAVER_STATUS} says {@code LOCK}; or the top-most mapped
 * top-level is an override-redirect window of another process covering the whole screen while another
 * client holds the keyboard grab (i3lock, slock, xsecurelock and the like map such a window and grab).
 */
public final class WindowRelations {

    /** What one read found. */
    public record Read(List<WindowInfo> popups, long focusedWindow, Optional<String> screenLock) { }

    private WindowRelations() {
    }

    /** Reads the relations of {@code clients} (the managed windows as {@link X11Display#windows()} lists them). */
    public static Read read(X11Display x, List<WindowInfo> clients) {
        synchronized (x) {
            long[] tops = x.rootChildren();
            List<WindowInfo> popups = new ArrayList<>();
            long topmostViewable = 0;
            int[] topmostPlacement = null;
            for (int i = 0; i < tops.length; i++) {
                int[] p = x.placement(tops[i]);
                if (p == null || p[5] == 0) continue;
                // the top-most mapped window that is not a small override-redirect one (a tooltip, the
                // drawn cursor) is what a locker would be
                if (p[4] == 0 || covers(x, p)) {
                    topmostViewable = tops[i];
                    topmostPlacement = p;
                }
                if (p[4] == 1) {
                    long[] pid = x.property32(tops[i], "_NET_WM_PID", "CARDINAL");
                    popups.add(new WindowInfo(tops[i], "", x.classOf(tops[i]), pid.length > 0 ? (int) pid[0] : -1,
                            new Geometry(p[0], p[1], p[2], p[3]), i, true, false, false, x.clientOf(tops[i]), 0, false, -1));
                }
            }
            return new Read(List.copyOf(popups), focused(x, clients, popups),
                    lock(x, topmostViewable, topmostPlacement));
        }
    }

    /** The client window (or popup) whose top-level holds the input focus; 0 for none. */
    private static long focused(X11Display x, List<WindowInfo> clients, List<WindowInfo> popups) {
        long f = x.inputFocus();
        if (f == 0 || f == 1) return 0;
        long top = x.topLevelNow(f);
        if (top == 0) return 0;
        for (WindowInfo w : clients) {
            if (w.id() == f || x.topLevelNow(w.id()) == top) return w.id();
        }
        for (WindowInfo p : popups) if (p.id() == top) return p.id();
        return top;
    }

    private static boolean covers(X11Display x, int[] p) {
        Geometry screen = x.screen();
        return p[0] <= 0 && p[1] <= 0 && p[0] + p[2] >= screen.width() && p[1] + p[3] >= screen.height();
    }

    private static Optional<String> lock(X11Display x, long topmost, int[] placement) {
        long[] status = x.property32(x.rootWindow(), "_SCREENSAVER_STATUS", "INTEGER");
        if (status.length > 0 && status[0] == x.atomOf("LOCK")) return Optional.of("xscreensaver reports LOCK");
        if (topmost == 0 || placement == null || placement[4] != 1 || !covers(x, placement)) return Optional.empty();
        long[] pid = x.property32(topmost, "_NET_WM_PID", "CARDINAL");
        if (pid.length > 0 && pid[0] == x.ownPid()) return Optional.empty();
        if (!x.grabbedNow()) return Optional.empty();
        String cls = x.classOf(topmost);
        return Optional.of("a full-screen window 0x" + Long.toHexString(topmost) + (cls.isEmpty() ? "" : " (" + cls + ")")
                + " is on top and holds the keyboard: a screen locker");
    }
}

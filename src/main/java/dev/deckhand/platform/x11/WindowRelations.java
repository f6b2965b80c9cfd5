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
    public record Read(List<WindowInfo> popups, long focusedWindow, Optional<String> screenLock) {}

    private final XConnection c;
    private final Windows windows;
    private final WindowProperties props;
    private final KeyboardGrab grab;

    WindowRelations(XConnection c, Windows windows, WindowProperties props, KeyboardGrab grab) {
        this.c = c;
        this.windows = windows;
        this.props = props;
        this.grab = grab;
    }

    /** See {@link X11Display#relations(List)}. */
    Read read(List<WindowInfo> clients) {
        long[] tops = windows.rootChildren();
        List<WindowInfo> popups = new ArrayList<>();
        long topmostViewable = 0;
        Windows.Placement topmostPlacement = null;
        for (int i = 0; i < tops.length; i++) {
            Windows.Placement p = windows.placement(tops[i]);
            if (p == null || !p.viewable()) continue;
            // the top-most mapped window that is not a small override-redirect one (a tooltip, the
            // drawn cursor) is what a locker would be
            if (!p.overrideRedirect() || covers(p)) {
                topmostViewable = tops[i];
                topmostPlacement = p;
            }
            if (p.overrideRedirect()) {
                long[] pid = props.cardinals(tops[i], "_NET_WM_PID", "CARDINAL");
                int popupPid = pid.length > 0 ? (int) pid[0] : -1;
                popups.add(new WindowInfo(
                        tops[i],
                        "",
                        props.wmClass(tops[i]),
                        popupPid,
                        p.geometry(),
                        i,
                        true,
                        false,
                        popupPid > 0 && popupPid == windows.ownPid(),
                        windows.clientOf(tops[i]),
                        0,
                        false,
                        -1));
            }
        }
        return new Read(List.copyOf(popups), focused(clients, popups), lock(topmostViewable, topmostPlacement));
    }

    /** The client window (or popup) whose top-level holds the input focus; 0 for none. */
    private long focused(List<WindowInfo> clients, List<WindowInfo> popups) {
        long f = windows.inputFocus();
        if (f == 0 || f == 1) return 0;
        long top = windows.topLevel(f);
        if (top == 0) return 0;
        for (WindowInfo w : clients) {
            if (w.id() == f || windows.topLevel(w.id()) == top) return w.id();
        }
        for (WindowInfo p : popups) if (p.id() == top) return p.id();
        return top;
    }

    private boolean covers(Windows.Placement p) {
        Geometry g = p.geometry();
        return g.x() <= 0 && g.y() <= 0 && g.x() + g.width() >= c.width && g.y() + g.height() >= c.height;
    }

    private Optional<String> lock(long topmost, Windows.Placement placement) {
        long[] status = props.cardinals(c.root, "_SCREENSAVER_STATUS", "INTEGER");
        if (status.length > 0 && status[0] == props.atom("LOCK")) return Optional.of("xscreensaver reports LOCK");
        if (topmost == 0 || placement == null || !placement.overrideRedirect() || !covers(placement))
            return Optional.empty();
        long[] pid = props.cardinals(topmost, "_NET_WM_PID", "CARDINAL");
        if (pid.length > 0 && pid[0] == windows.ownPid()) return Optional.empty();
        if (!grab.heldByOther()) return Optional.empty();
        String cls = props.wmClass(topmost);
        // the locker's class is said (a person reads it in the audit); its window id is not
        return Optional.of("a full-screen window" + (cls.isEmpty() ? "" : " (" + cls + ")")
                + " is on top and holds the keyboard: a screen locker");
    }
}

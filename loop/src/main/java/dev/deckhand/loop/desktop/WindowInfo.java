package dev.deckhand.loop.desktop;

import java.util.Objects;

/**
 * A top-level window as the platform reports it.
 *
 * @param id platform window id (X11 XID)
 * @param title window title, never null ("" when unnamed)
 * @param app the application's class (X11 WM_CLASS class part), never null
 * @param pid owning process, or -1 when the window does not say
 * @param stacking position bottom (0) to top
 * @param visible mapped and not minimised, and at least partly on screen
 * @param own one of Deckhand's own windows (its page in a browser, its overlay)
 */
public record WindowInfo(long id, String title, String app, int pid, Geometry geometry, int stacking,
        boolean visible, boolean minimised, boolean own) {

    public WindowInfo {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(geometry, "geometry");
    }
}

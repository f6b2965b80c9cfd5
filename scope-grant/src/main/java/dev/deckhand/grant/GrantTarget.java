package dev.deckhand.grant;

import java.util.Objects;

/**
 * The one target a grant names: the window the person picked and its application. For
 * {@link ScopeKind#APP} grants the window is the one picked, and every window of {@code app} is in scope.
 *
 * @param windowId platform window id (X11 XID), positive
 * @param app the application identity (WM_CLASS class part), compared case-insensitively
 * @param title the window title when the grant was made or last revised, never null
 * @param pid the window's process when granted, -1 unknown
 * @param processStart that process's start time ({@code /proc/PID/stat} field 22), -1 unknown
 */
public record GrantTarget(long windowId, String app, String title, int pid, long processStart) {

    /** A target whose process is not known (it binds by window id and WM_CLASS alone). */
    public GrantTarget(long windowId, String app, String title) {
        this(windowId, app, title, -1, -1);
    }

    public GrantTarget {
        if (windowId <= 0) {
            throw new IllegalArgumentException("target.windowId must be > 0, was " + windowId);
        }
        Objects.requireNonNull(app, "target.app");
        if (app.isBlank()) {
            throw new IllegalArgumentException("target.app must not be blank");
        }
        Objects.requireNonNull(title, "target.title");
    }
}

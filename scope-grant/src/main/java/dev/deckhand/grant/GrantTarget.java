package dev.deckhand.grant;

import java.util.Objects;

/**
 * The one target a grant names: the window the person picked and its application. For
 * {@link ScopeKind#APP} grants the window is the one picked, and every window of {@code app} is in scope.
 *
 * @param windowId platform window id (X11 XID), positive
 * @param app the application identity (WM_CLASS class part), compared case-insensitively
 * @param title the window title when the grant was made or last revised, never null
 */
public record GrantTarget(long windowId, String app, String title) {

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

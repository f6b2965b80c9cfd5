package dev.deckhand.loop.desktop;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the policy needs to know right now, read from the platform in one go.
 *
 * @param passwordFocused the focused element is a password field
 * @param keyboardGrabbed another client holds a keyboard grab (X11's secure input)
 * @param runningApps application identities of running processes (WM_CLASS and executable names,
 *     lower case)
 * @param windows all top-level windows, with visibility and ownership
 * @param browserHost the focused browser tab's host, where the browser exposes it
 */
public record DesktopFacts(boolean passwordFocused, boolean keyboardGrabbed, Set<String> runningApps,
        List<WindowInfo> windows, Optional<String> browserHost) {

    public DesktopFacts {
        runningApps = Set.copyOf(Objects.requireNonNull(runningApps, "runningApps"));
        windows = List.copyOf(Objects.requireNonNull(windows, "windows"));
        Objects.requireNonNull(browserHost, "browserHost");
    }
}

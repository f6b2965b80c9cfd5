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
 * @param focusedWindow the client window (or popup) holding the input focus, 0 when none or unknown
 * @param focusedElement the element holding the accessibility focus, when known
 * @param popups mapped override-redirect top-levels (menus, combo lists, tooltips), bottom to top; a popup of
 *     the target's client is part of the target's scope, and a keyboard grab while it is the top-most popup
 *     and the target's client has the focus is the app's own ({@code FactsMapper.ownPopupGrab}); {@code own}
 *     marks Deckhand's own (the drawn cursor)
 * @param screenLock what locks the screen (a locker window or the screensaver's lock state), empty when unlocked
 * @param grabHolder who holds the keyboard grab when {@code keyboardGrabbed}, where the platform measures it
 *     ({@link GrabHolder#UNMEASURED} otherwise; {@code FactsMapper.ownGrab} decides with it)
 */
public record DesktopFacts(
        boolean passwordFocused,
        boolean keyboardGrabbed,
        Set<String> runningApps,
        List<WindowInfo> windows,
        Optional<String> browserHost,
        long focusedWindow,
        Optional<FocusedElement> focusedElement,
        List<WindowInfo> popups,
        Optional<String> screenLock,
        GrabHolder grabHolder) {

    public DesktopFacts {
        runningApps = Set.copyOf(Objects.requireNonNull(runningApps, "runningApps"));
        windows = List.copyOf(Objects.requireNonNull(windows, "windows"));
        Objects.requireNonNull(browserHost, "browserHost");
        Objects.requireNonNull(focusedElement, "focusedElement");
        popups = List.copyOf(Objects.requireNonNull(popups, "popups"));
        Objects.requireNonNull(screenLock, "screenLock");
        Objects.requireNonNull(grabHolder, "grabHolder");
    }

    /** Facts whose grab holder is not measured. */
    public DesktopFacts(
            boolean passwordFocused,
            boolean keyboardGrabbed,
            Set<String> runningApps,
            List<WindowInfo> windows,
            Optional<String> browserHost,
            long focusedWindow,
            Optional<FocusedElement> focusedElement,
            List<WindowInfo> popups,
            Optional<String> screenLock) {
        this(
                passwordFocused,
                keyboardGrabbed,
                runningApps,
                windows,
                browserHost,
                focusedWindow,
                focusedElement,
                popups,
                screenLock,
                GrabHolder.UNMEASURED);
    }

    /** Facts with no focus, popup or lock information. */
    public DesktopFacts(
            boolean passwordFocused,
            boolean keyboardGrabbed,
            Set<String> runningApps,
            List<WindowInfo> windows,
            Optional<String> browserHost) {
        this(
                passwordFocused,
                keyboardGrabbed,
                runningApps,
                windows,
                browserHost,
                0,
                Optional.empty(),
                List.of(),
                Optional.empty(),
                GrabHolder.UNMEASURED);
    }

    /**
     * The element holding the accessibility focus.
     *
     * @param pid its application's process
     * @param bounds screen bounds, null when unknown
     */
    public record FocusedElement(int pid, String role, String name, Geometry bounds) {
        public FocusedElement {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(name, "name");
        }
    }
}

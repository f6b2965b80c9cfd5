package dev.deckhand.grant;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the policy needs to know about the desktop right now, as the driver read it in one go
 * (the app translates {@code dev.deckhand.loop.desktop.DesktopFacts} into this).
 *
 * @param passwordFocused the focused element is a password field
 * @param keyboardGrabbed another client holds a keyboard grab
 * @param runningApps identities of running processes (WM_CLASS and executable names); stored lower case
 * @param windows top-level windows (at least all visible ones and the target)
 * @param browserHost the host of the target browser tab, when the browser exposes it; for a page whose address has
 *     no host, its scheme and a colon ({@link #LOCAL_DOCUMENT} for {@code file://}, {@code chrome:}, {@code about:})
 * @param targetIsBrowser the target window is a web browser (so the host rules apply)
 * @param measuredBasis the basis the driver re-measured right before coordinate input, if it did
 * @param focusedWindow the top-level window holding the input focus (0: none or unknown)
 */
public record Facts(
        boolean passwordFocused,
        boolean keyboardGrabbed,
        Set<String> runningApps,
        List<WindowFact> windows,
        Optional<String> browserHost,
        boolean targetIsBrowser,
        Optional<BasisInfo> measuredBasis,
        long focusedWindow) {

    /** The {@link #browserHost} of a local document ({@code file://}): a scheme, which no host name can be. */
    public static final String LOCAL_DOCUMENT = "file:";

    public Facts(
            boolean passwordFocused,
            boolean keyboardGrabbed,
            Set<String> runningApps,
            List<WindowFact> windows,
            Optional<String> browserHost,
            boolean targetIsBrowser,
            Optional<BasisInfo> measuredBasis) {
        this(passwordFocused, keyboardGrabbed, runningApps, windows, browserHost, targetIsBrowser, measuredBasis, 0);
    }

    public Facts {
        Objects.requireNonNull(runningApps, "runningApps");
        Set<String> apps = new TreeSet<>();
        for (String a : runningApps) {
            Objects.requireNonNull(a, "runningApps entry");
            apps.add(a.toLowerCase(Locale.ROOT));
        }
        runningApps = Set.copyOf(apps);
        windows = List.copyOf(Objects.requireNonNull(windows, "windows"));
        Objects.requireNonNull(browserHost, "browserHost");
        browserHost = browserHost.map(h -> h.toLowerCase(Locale.ROOT));
        Objects.requireNonNull(measuredBasis, "measuredBasis");
    }

    /**
     * A top-level window. {@code own} marks Deckhand's own windows (its page in a browser, its overlay).
     *
     * @param pid the owning process ({@code _NET_WM_PID}), -1 unknown
     * @param processStart the process's start time (clock ticks after boot, {@code /proc/PID/stat} field 22), -1 unknown
     * @param client the X client that created the window (its XID's client bits), 0 unknown
     * @param transientFor the window it is a dialog of ({@code WM_TRANSIENT_FOR}), 0 none
     * @param modal {@code _NET_WM_STATE_MODAL}
     * @param stacking position bottom (0) to top
     */
    public record WindowFact(
            long windowId,
            String app,
            String title,
            boolean own,
            boolean visible,
            int pid,
            long processStart,
            long client,
            long transientFor,
            boolean modal,
            int stacking) {
        public WindowFact {
            Objects.requireNonNull(app, "window.app");
            Objects.requireNonNull(title, "window.title");
        }

        /** A window with no process, client or dialog facts known. */
        public WindowFact(long windowId, String app, String title, boolean own, boolean visible) {
            this(windowId, app, title, own, visible, -1, -1, 0, 0, false, 0);
        }

        /** Whether both windows were created by the same X client (by client bits, else by process). */
        public boolean sameClient(WindowFact other) {
            if (client != 0 && other.client != 0) return client == other.client;
            return pid > 0 && pid == other.pid;
        }
    }

    /** Quiet facts: nothing focused, nothing grabbed, no browser, no measured basis. */
    public static Facts of(Set<String> runningApps, List<WindowFact> windows) {
        return new Facts(false, false, runningApps, windows, Optional.empty(), false, Optional.empty());
    }

    public Optional<WindowFact> window(long windowId) {
        for (WindowFact w : windows) {
            if (w.windowId() == windowId) {
                return Optional.of(w);
            }
        }
        return Optional.empty();
    }

    public Facts withPasswordFocused(boolean v) {
        return new Facts(
                v, keyboardGrabbed, runningApps, windows, browserHost, targetIsBrowser, measuredBasis, focusedWindow);
    }

    public Facts withKeyboardGrabbed(boolean v) {
        return new Facts(
                passwordFocused, v, runningApps, windows, browserHost, targetIsBrowser, measuredBasis, focusedWindow);
    }

    public Facts withRunningApps(Set<String> v) {
        return new Facts(
                passwordFocused,
                keyboardGrabbed,
                v,
                windows,
                browserHost,
                targetIsBrowser,
                measuredBasis,
                focusedWindow);
    }

    public Facts withWindows(List<WindowFact> v) {
        return new Facts(
                passwordFocused,
                keyboardGrabbed,
                runningApps,
                v,
                browserHost,
                targetIsBrowser,
                measuredBasis,
                focusedWindow);
    }

    /** The target is a browser showing {@code host} (empty: the browser did not expose it). */
    public Facts withBrowser(Optional<String> host) {
        return new Facts(
                passwordFocused, keyboardGrabbed, runningApps, windows, host, true, measuredBasis, focusedWindow);
    }

    public Facts withFocusedWindow(long v) {
        return new Facts(
                passwordFocused, keyboardGrabbed, runningApps, windows, browserHost, targetIsBrowser, measuredBasis, v);
    }

    public Facts withMeasuredBasis(Optional<BasisInfo> v) {
        return new Facts(
                passwordFocused, keyboardGrabbed, runningApps, windows, browserHost, targetIsBrowser, v, focusedWindow);
    }
}

package dev.deckhand.loop.guard;

import dev.deckhand.grant.BasisInfo;
import dev.deckhand.grant.Facts;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.GrabHolder;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** Translates what the driver reports into the facts the pure policy decides on. */
public final class FactsMapper {

    /** WM_CLASS values (lower case) of browsers whose tabs the host deny list governs. */
    public static final Set<String> BROWSERS = Set.of(
            "chromium",
            "chromium-browser",
            "google-chrome",
            "firefox",
            "firefox-esr",
            "navigator",
            "brave-browser",
            "microsoft-edge",
            "epiphany",
            "vivaldi-stable",
            "opera");

    private FactsMapper() {}

    public static boolean isBrowser(String app) {
        return BROWSERS.contains(app.toLowerCase(Locale.ROOT));
    }

    /**
     * Facts for a decision about {@code targetWindowId} (0 when there is no target yet). Focus on a popup
     * of the target's client (its menu, its combo list) counts as focus on the target: popups are part of
     * the target's scope.
     */
    public static Facts facts(DesktopFacts d, long targetWindowId) {
        List<Facts.WindowFact> windows = d.windows().stream()
                .map(w -> new Facts.WindowFact(
                        w.id(),
                        w.app().toLowerCase(Locale.ROOT),
                        w.title(),
                        w.own(),
                        w.visible(),
                        w.pid(),
                        w.processStart(),
                        w.client(),
                        w.transientFor(),
                        w.modal(),
                        w.stacking()))
                .toList();
        Optional<WindowInfo> target = window(d, targetWindowId);
        boolean browser = target.isPresent() && isBrowser(target.get().app());
        long focused = d.focusedWindow();
        for (WindowInfo p : d.popups()) {
            if (p.id() == focused && target.isPresent() && p.sameClient(target.get())) focused = targetWindowId;
        }
        Facts facts = Facts.of(d.runningApps(), windows)
                .withPasswordFocused(d.passwordFocused())
                .withKeyboardGrabbed(d.keyboardGrabbed() && !(target.isPresent() && ownGrab(d, target.get())))
                .withFocusedWindow(focused);
        return browser ? facts.withBrowser(d.browserHost()) : facts;
    }

    /**
     * Whether a keyboard grab held now is the target app's own: its menu, combo list or popover, opened by an action
     * Deckhand delivered. Where the platform measures who holds the grab ({@link GrabHolder.Client}: X's RECORD
     * extension shows every grab request in the server's own order), the grab is the app's own exactly when the
     * target's X client took it after an input action of Deckhand's began, with no key or button press of the
     * person's since: no timing, no guess. A grab the measure cannot attribute ({@link GrabHolder.Unknown}) is
     * another client's. Only where nothing can be measured ({@link GrabHolder.Unmeasured}: an X server without
     * RECORD) does the popup rule of {@link #ownPopupGrab} decide.
     */
    static boolean ownGrab(DesktopFacts d, WindowInfo target) {
        GrabHolder h = d.grabHolder();
        if (h instanceof GrabHolder.Client c) {
            return c.afterOwnAction() && target.client() != 0 && c.client() == target.client();
        }
        if (h instanceof GrabHolder.Unknown) return false;
        if (h instanceof GrabHolder.Unmeasured) return ownPopupGrab(d, target);
        throw new AssertionError(h);
    }

    /**
     * Where the grab's holder is not measured: whether a keyboard grab held now is the target app's own, its menu or
     * combo list being open. Without a measure the grab counts as the app's own only when a popup of the target's
     * client is mapped, no other client's popup is above it (Deckhand's own drawn cursor aside), and the
     * input focus is on the target's client. Any other grab (a password prompt, a locker, another app's
     * menu) stays another client's. What remains: another client grabbing while the app's own menu is
     * open and its window focused (docs/security.md).
     */
    static boolean ownPopupGrab(DesktopFacts d, WindowInfo target) {
        boolean ownPopupBelow = false;
        for (WindowInfo p : d.popups()) {
            if (p.own()) continue;
            ownPopupBelow = p.sameClient(target); // the top-most popup decides
        }
        if (!ownPopupBelow) return false;
        long focused = d.focusedWindow();
        if (focused == target.id()) return true;
        Optional<WindowInfo> f = window(d, focused)
                .or(() -> d.popups().stream().filter(p -> p.id() == focused).findFirst());
        return f.isPresent() && f.get().sameClient(target);
    }

    public static BasisInfo basis(Basis b) {
        return new BasisInfo(
                b.grantRevision(),
                b.windowId(),
                b.windowGeometry().x(),
                b.windowGeometry().y(),
                b.windowGeometry().width(),
                b.windowGeometry().height(),
                b.scale());
    }

    public static Optional<WindowInfo> window(DesktopFacts d, long id) {
        return d.windows().stream().filter(w -> w.id() == id).findFirst();
    }
}

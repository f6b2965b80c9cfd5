package dev.deckhand.platform;

import dev.deckhand.grant.BasisInfo;
import dev.deckhand.grant.Facts;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** Translates what the driver reports into the facts the pure policy decides on. */
public final class FactsMapper {

    /** WM_CLASS values (lower case) of browsers whose tabs the host deny list governs. */
    public static final Set<String> BROWSERS = Set.of("chromium", "chromium-browser", "google-chrome", "firefox",
            "firefox-esr", "navigator", "brave-browser", "microsoft-edge", "epiphany", "vivaldi-stable", "opera");

    private FactsMapper() {
    }

    public static boolean isBrowser(String app) {
        return BROWSERS.contains(app.toLowerCase(Locale.ROOT));
    }

    /** Facts for a decision about {@code targetWindowId} (0 when there is no target yet). */
    public static Facts facts(DesktopFacts d, long targetWindowId) {
        var windows = d.windows().stream()
                .map(w -> new Facts.WindowFact(w.id(), w.app().toLowerCase(Locale.ROOT), w.title(), w.own(), w.visible()))
                .toList();
        boolean browser = d.windows().stream().anyMatch(w -> w.id() == targetWindowId && isBrowser(w.app()));
        Facts facts = Facts.of(d.runningApps(), windows)
                .withPasswordFocused(d.passwordFocused())
                .withKeyboardGrabbed(d.keyboardGrabbed());
        return browser ? facts.withBrowser(d.browserHost()) : facts;
    }

    public static BasisInfo basis(Basis b) {
        return new BasisInfo(b.grantRevision(), b.windowId(), b.windowGeometry().x(), b.windowGeometry().y(),
                b.windowGeometry().width(), b.windowGeometry().height(), b.scale());
    }

    public static Optional<WindowInfo> window(DesktopFacts d, long id) {
        return d.windows().stream().filter(w -> w.id() == id).findFirst();
    }
}

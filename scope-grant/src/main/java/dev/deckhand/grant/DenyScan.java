package dev.deckhand.grant;

import java.util.Optional;
import java.util.TreeSet;

/**
 * The deny-list scan (docs/design.md#deny-lists), pure. The app runs it before a run starts, before every capture
 * and action (through {@link Policy#check}), and in a watcher every {@link PolicyConfig#pollInterval()}
 * that aborts the run on a refusal.
 *
 * <p>Order: a running credential-class app ({@code DENY_CREDENTIAL_APP}), a visible communications
 * app ({@code DENY_COMMS_VISIBLE}), then — only when the target is a browser — its host
 * ({@code DENY_HOST}: unknown host, denied host, or not on a non-empty allow-list). A page without a host is a local
 * document ({@code file://}: allowed while {@link PolicyConfig#allowLocalFiles}, the host lists do not apply, and its
 * path is judged by the denied places as an address bar's is) or any other scheme ({@code chrome:}, {@code about:},
 * {@code data:}, {@code view-source:}: a browser's own pages, its password manager among them, refused). Each detail
 * names the app, or the rule and the host's length; when several fire, the alphabetically first is named and the
 * others are counted.
 */
public final class DenyScan {

    private DenyScan() {}

    public static Optional<Refusal> scan(PolicyConfig config, Facts facts) {
        TreeSet<String> cred = new TreeSet<>(facts.runningApps());
        cred.retainAll(config.credentialApps());
        if (!cred.isEmpty()) {
            return Optional.of(
                    Refusal.denyCredentialApp("credential-class app running: " + cred.first() + more(cred.size())));
        }
        TreeSet<String> comms = new TreeSet<>();
        for (Facts.WindowFact w : facts.windows()) {
            String app = w.app().toLowerCase(java.util.Locale.ROOT);
            if (w.visible() && config.commsApps().contains(app)) {
                comms.add(app);
            }
        }
        if (!comms.isEmpty()) {
            return Optional.of(
                    Refusal.denyCommsVisible("communications app visible: " + comms.first() + more(comms.size())));
        }
        if (facts.targetIsBrowser()) {
            if (facts.browserHost().isEmpty() || facts.browserHost().get().isBlank()) {
                return Optional.of(
                        Refusal.denyHost("browser host unknown (the browser did not expose the tab's host)"));
            }
            String host = facts.browserHost().get();
            if (host.endsWith(":")) return hostless(config, host);
            if (config.hostDenied(host)) {
                // the host is read from the browser's window: the detail names the rule, not the host
                return Optional.of(Refusal.denyHost(
                        "browser host denied: the tab's host (" + host.length() + " characters) matches deniedHosts"));
            }
            if (!config.hostAllowed(host)) {
                return Optional.of(Refusal.denyHost("browser host not on allowedHosts: the tab's host (" + host.length()
                        + " characters) matches none of them"));
            }
        }
        return Optional.empty();
    }

    /** Schemes of a browser's own pages, named in the detail; any other scheme is named by its length only. */
    private static final java.util.Set<String> BROWSER_SCHEMES = java.util.Set.of(
            "about:",
            "blob:",
            "chrome:",
            "chrome-extension:",
            "chrome-untrusted:",
            "data:",
            "devtools:",
            "edge:",
            "javascript:",
            "moz-extension:",
            "resource:",
            "view-source:");

    private static Optional<Refusal> hostless(PolicyConfig config, String scheme) {
        if (scheme.equals(Facts.LOCAL_DOCUMENT)) {
            return config.allowLocalFiles()
                    ? Optional.empty()
                    : Optional.of(Refusal.denyHost(
                            "the tab shows a local document (file://) and the policy's allowLocalFiles is false"));
        }
        String named =
                BROWSER_SCHEMES.contains(scheme) ? scheme : "a scheme of " + (scheme.length() - 1) + " characters";
        return Optional.of(Refusal.denyHost(
                "the tab shows a page without a host (" + named + "): a browser's own pages are never in scope"));
    }

    private static String more(int n) {
        return n > 1 ? " (and " + (n - 1) + " more)" : "";
    }
}

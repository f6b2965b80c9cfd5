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
 * ({@code DENY_HOST}: unknown host, denied host, or not on a non-empty allow-list). Each detail names the
 * app or host; when several fire, the alphabetically first is named and the others are counted.
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

    private static String more(int n) {
        return n > 1 ? " (and " + (n - 1) + " more)" : "";
    }
}

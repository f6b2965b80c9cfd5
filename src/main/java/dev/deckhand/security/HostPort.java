package dev.deckhand.security;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** A parsed host and port, compared exactly (no suffix or prefix matching). */
record HostPort(String host, int port) {

    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "localhost", "[::1]");

    boolean isLoopback() {
        return LOOPBACK.contains(host);
    }

    /** {@code host[:port]} as in a Host header; {@code defaultPort} when no port is given. */
    static Optional<HostPort> parseAuthority(String authority, int defaultPort) {
        if (authority == null) return Optional.empty();
        String a = authority.trim().toLowerCase(Locale.ROOT);
        if (a.isEmpty() || a.contains("@") || a.contains("/") || a.contains(" ")) return Optional.empty();
        String host;
        String portPart = null;
        if (a.startsWith("[")) {
            int close = a.indexOf(']');
            if (close < 0) return Optional.empty();
            host = a.substring(0, close + 1);
            String rest = a.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) return Optional.empty();
                portPart = rest.substring(1);
            }
        } else {
            int colon = a.indexOf(':');
            if (colon >= 0) {
                if (a.indexOf(':', colon + 1) >= 0) return Optional.empty();
                host = a.substring(0, colon);
                portPart = a.substring(colon + 1);
            } else {
                host = a;
            }
        }
        if (host.isEmpty()) return Optional.empty();
        int port = defaultPort;
        if (portPart != null) {
            if (portPart.isEmpty() || portPart.length() > 5 || !portPart.chars().allMatch(Character::isDigit)) {
                return Optional.empty();
            }
            port = Integer.parseInt(portPart);
            if (port < 1 || port > 65535) return Optional.empty();
        }
        return Optional.of(new HostPort(host, port));
    }

    /** An Origin header: {@code http://host[:port]} exactly; anything else (incl. "null") is empty. */
    static Optional<HostPort> parseOrigin(String origin) {
        if (origin == null) return Optional.empty();
        String o = origin.trim();
        if (!o.regionMatches(true, 0, "http://", 0, 7)) return Optional.empty();
        String authority = o.substring(7);
        if (authority.endsWith("/")) authority = authority.substring(0, authority.length() - 1);
        return parseAuthority(authority, 80);
    }
}

package dev.deckhand.security;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The origin a port mapping publishes this server at ({@code deckhand.published-origin}, e.g.
 * {@code http://127.0.0.1:18377} for a container run with {@code -p 127.0.0.1:18377:8377}). Requests that
 * arrive through the mapping name it in {@code Host} (and a browser in {@code Origin}), not the port the
 * server listens on inside; {@link HttpGuard#checkHostAndOrigin} accepts exactly this one origin besides
 * its own loopback ones. Never a wildcard: one scheme ({@code http}), one host spelled one way, one port.
 */
record PublishedOrigin(HostPort hostPort) {

    /** The configuration key, named in every refusal of a bad value. */
    static final String KEY = "deckhand.published-origin";

    /** A DNS name or IPv4 address in ASCII (lower case after parsing), or a bracketed IPv6 address. */
    private static final Pattern HOST =
            Pattern.compile("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*" + "|\\[[0-9a-f:.]+]");

    /**
     * Parses the configured value; empty when it is unset or blank.
     *
     * @throws IllegalArgumentException naming {@value #KEY} and what is wrong with the value
     */
    static Optional<PublishedOrigin> parse(Optional<String> configured) {
        if (configured.isEmpty() || configured.get().isBlank()) return Optional.empty();
        String value = configured.get().strip();
        if (value.contains("*"))
            throw invalid(value, "a wildcard is never accepted; name the one origin the port mapping publishes");
        if (!value.toLowerCase(Locale.ROOT).startsWith("http://")) {
            throw invalid(value, "it must start with http:// (Deckhand serves plain HTTP behind the port mapping)");
        }
        String authority = value.substring("http://".length());
        if (authority.endsWith("/")) authority = authority.substring(0, authority.length() - 1);
        if (authority.isEmpty()
                || authority
                        .chars()
                        .anyMatch(c -> c == '/' || c == '?' || c == '#' || c == '@' || c <= ' ' || c > '~')) {
            throw invalid(value, "an origin is http://HOST[:PORT] with no user, path, query or fragment");
        }
        Optional<HostPort> parsed = HostPort.parseAuthority(authority, 80);
        if (parsed.isEmpty() || !HOST.matcher(parsed.get().host()).matches()) {
            throw invalid(
                    value, "HOST must be a DNS name, an IPv4 address or a bracketed IPv6 address, and PORT 1..65535");
        }
        return Optional.of(new PublishedOrigin(parsed.get()));
    }

    /** Whether a {@code Host} header value names exactly this origin (no port means 80, as browsers send it). */
    boolean isHost(String host) {
        return HostPort.parseAuthority(host, 80).filter(hostPort::equals).isPresent();
    }

    /** Whether an {@code Origin} header value is exactly this origin. */
    boolean isOrigin(String origin) {
        return HostPort.parseOrigin(origin).filter(hostPort::equals).isPresent();
    }

    @Override
    public String toString() {
        return "http://" + hostPort.host() + (hostPort.port() == 80 ? "" : ":" + hostPort.port());
    }

    private static IllegalArgumentException invalid(String value, String why) {
        String shown = value.replaceAll("[^\\x20-\\x7e]", "?");
        return new IllegalArgumentException(KEY + " '" + (shown.length() > 100 ? shown.substring(0, 100) + "…" : shown)
                + "' is not an origin: " + why);
    }
}

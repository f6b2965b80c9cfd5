package dev.deckhand.security;

import dev.deckhand.app.Secrets;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;

/**
 * The first handler of every HTTP request (DESIGN.md §7), before any body is read:
 * <ol>
 *   <li>exactly one {@code Host}, naming a loopback host and this server's port;</li>
 *   <li>at most one {@code Origin}; when present it must be {@code http://} a loopback host on this
 *       server's port ({@code null}, look-alike hosts, other schemes or ports are 403);</li>
 *   <li>{@code /mcp} needs the MCP token, {@code /api/} the owner token; neither is accepted for
 *       the other (401). The person's browser may use {@code /api/} with the session cookie from
 *       the sign-in link instead, and then every write needs the session's CSRF token (403).</li>
 * </ol>
 */
@ApplicationScoped
public class HttpGuard {

    /** Runs before the MCP and REST routes. */
    static final int PRIORITY = 10_000;

    private final Secrets secrets;
    private final OwnerSessions sessions;

    @Inject
    public HttpGuard(Secrets secrets, OwnerSessions sessions) {
        this.secrets = secrets;
        this.sessions = sessions;
    }

    void register(@Observes Filters filters) {
        filters.register(this::handle, PRIORITY);
    }

    void handle(RoutingContext rc) {
        HttpServerRequest request = rc.request();
        int port = request.localAddress() == null ? -1 : request.localAddress().port();
        Optional<String> refusal = checkHostAndOrigin(request.headers().getAll("Host"),
                request.headers().getAll("Origin"), port);
        if (refusal.isPresent()) {
            deny(rc, 403, "forbidden", refusal.get());
            return;
        }
        String path = request.path();
        Area area = Area.of(path);
        Optional<String> token = bearer(request.headers().getAll("Authorization"));
        if (area == Area.MCP) {
            if (token.isEmpty() || !secrets.isMcpToken(token.get())) {
                unauthorized(rc, "/mcp needs the MCP token as 'Authorization: Bearer <token>' (file mcp-token in the config directory)");
                return;
            }
        } else if (area == Area.OWNER) {
            if (token.isPresent()) {
                if (!secrets.isOwnerToken(token.get())) {
                    unauthorized(rc, "/api/ needs the owner token as 'Authorization: Bearer <token>' (file owner-token in the config directory)");
                    return;
                }
            } else {
                var cookie = rc.request().getCookie(OwnerSessions.COOKIE);
                var session = sessions.session(cookie == null ? null : cookie.getValue());
                if (session.isEmpty()) {
                    unauthorized(rc, "/api/ needs the owner token, or a browser session from the sign-in link printed at start");
                    return;
                }
                if (isWrite(request) && !OwnerSessions.csrfMatches(session.get(),
                        single(request.headers().getAll(OwnerSessions.CSRF_HEADER)))) {
                    deny(rc, 403, "forbidden", "a write from the browser needs the session's " + OwnerSessions.CSRF_HEADER + " header");
                    return;
                }
            }
        }
        rc.next();
    }

    private static boolean isWrite(HttpServerRequest request) {
        String m = request.method().name();
        return !(m.equals("GET") || m.equals("HEAD") || m.equals("OPTIONS"));
    }

    private static String single(List<String> values) {
        return values.size() == 1 ? values.get(0) : null;
    }

    private static void unauthorized(RoutingContext rc, String detail) {
        rc.response().putHeader("WWW-Authenticate", "Bearer realm=\"deckhand\"");
        deny(rc, 401, "unauthorized", detail);
    }

    /** Which credential a path needs. */
    enum Area {
        MCP, OWNER, PAGE;

        static Area of(String path) {
            if (path == null) return PAGE;
            if (path.equals("/mcp") || path.startsWith("/mcp/")) return MCP;
            if (path.equals("/api") || path.startsWith("/api/")) return OWNER;
            return PAGE;
        }
    }

    /** The reason to refuse, or empty when Host and Origin are both acceptable for {@code port}. */
    static Optional<String> checkHostAndOrigin(List<String> hosts, List<String> origins, int port) {
        if (hosts.size() != 1) {
            return Optional.of("exactly one Host header is required, got " + hosts.size());
        }
        Optional<HostPort> host = HostPort.parseAuthority(hosts.get(0), -1);
        if (host.isEmpty() || !host.get().isLoopback() || host.get().port() != port) {
            return Optional.of("Host '" + clip(hosts.get(0)) + "' is not this server (127.0.0.1, localhost or [::1] on port " + port + ")");
        }
        if (origins.size() > 1) {
            return Optional.of("at most one Origin header is allowed, got " + origins.size());
        }
        if (origins.size() == 1) {
            String origin = origins.get(0);
            Optional<HostPort> parsed = HostPort.parseOrigin(origin);
            if (parsed.isEmpty() || !parsed.get().isLoopback() || parsed.get().port() != port) {
                return Optional.of("Origin '" + clip(origin) + "' is not this server (http://127.0.0.1:" + port + ")");
            }
        }
        return Optional.empty();
    }

    static Optional<String> bearer(List<String> authorization) {
        if (authorization.size() != 1) return Optional.empty();
        String value = authorization.get(0);
        if (value.length() < 8 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) return Optional.empty();
        String token = value.substring(7).trim();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }

    private static void deny(RoutingContext rc, int status, String error, String detail) {
        rc.response().setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .putHeader("Connection", "close")
                .end("{\"error\":\"" + error + "\",\"detail\":\"" + detail.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
    }

    private static String clip(String s) {
        String printable = s.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() > 100 ? printable.substring(0, 100) + "…" : printable;
    }
}

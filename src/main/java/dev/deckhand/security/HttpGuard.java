package dev.deckhand.security;

import dev.deckhand.home.DeckhandConfig;
import dev.deckhand.home.Secrets;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The first handler of every HTTP request (docs/design.md#owner-boundary), before any body is read or any route is
 * matched. In order:
 * <ol>
 *   <li>exactly one {@code Host}, naming a loopback host and this server's port; at most one
 *       {@code Origin}, and when present {@code http://} a loopback host on this port (else 403). When a
 *       {@link PublishedOrigin published origin} is configured (a container's port mapping), a {@code Host}
 *       naming exactly it is accepted too, and then only that origin as {@code Origin};</li>
 *   <li>the credential, by the {@link Area} of the <em>normalised</em> path (the one the router matches):
 *       only the page's files and {@code /signin} ({@link Area#PUBLIC}, GET/HEAD) need none; {@code /mcp}
 *       in any letter case needs the MCP token; everything else — {@code /api/}, {@code /API/}, {@code /q/},
 *       any unknown path — needs the owner token or the person's browser session (401). Neither token is
 *       accepted for the other;</li>
 *   <li>the raw path must be {@link CanonicalPath canonical} and equal to the normalised one (else 400),
 *       so what was decided above is exactly what the router acts on;</li>
 *   <li>a browser session (cookie, no bearer token) needs the session's {@code X-CSRF-Token} on every
 *       request, reads included, except {@code GET /api/session} and the image endpoints, which need
 *       {@code Sec-Fetch-Site: same-origin} instead (403).</li>
 * </ol>
 * Every response — the page, its files, {@code /api/}, {@code /mcp}, errors, this guard's own refusals —
 * carries {@code X-Frame-Options: DENY} and a Content-Security-Policy with {@code frame-ancestors 'none'};
 * everything outside the public area also {@code Cache-Control: no-store}.
 *
 * <p>Vert.x fails some requests before any handler runs (a request target that does not start with
 * {@code /}, such as {@code *} or an absolute-form URI; no {@code Host}); {@link #failedBeforeRouting}
 * puts those through the same checks, so they too get their 403/401/400 and the headers above.
 */
@ApplicationScoped
public class HttpGuard {

    /** Runs before the MCP and REST routes and the static files. */
    static final int PRIORITY = 10_000;

    /** The paths that need no credential (GET/HEAD only): the page, its files, the sign-in link, the liveness probe. */
    static final Set<String> PUBLIC_PATHS =
            Set.of("/", "/index.html", "/app.js", "/app.css", "/eval.js", "/signin", HealthResource.PATH);

    /** The page: its own scripts, styles and images only, never in a frame. */
    static final String PAGE_CSP =
            "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

    /** Everything else is data, never a document that may load anything. */
    static final String DATA_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    /** The header a browser session must carry instead of the CSRF token on the endpoints below. */
    static final String FETCH_SITE = "Sec-Fetch-Site";

    /** Reads a browser makes without a script's headers: the page's first call and {@code <img>} loads. */
    private static final List<Pattern> FETCH_SITE_READS = List.of(
            Pattern.compile("/api/session"),
            Pattern.compile("/api/web/windows/[A-Za-z0-9_-]+/thumbnail"),
            Pattern.compile("/api/web/approvals/[A-Za-z0-9_-]+/crop"));

    /** Marks a request this guard has seen (set first thing in {@link #admit}). */
    private static final String GUARDED = "deckhand.guarded";

    private final Secrets secrets;
    private final OwnerSessions sessions;
    private final Optional<PublishedOrigin> published;

    /** @throws IllegalArgumentException a {@code deckhand.published-origin} that is not one origin (the server does not start) */
    @Inject
    public HttpGuard(Secrets secrets, OwnerSessions sessions, DeckhandConfig config) {
        this.secrets = secrets;
        this.sessions = sessions;
        this.published = PublishedOrigin.parse(config.publishedOrigin());
    }

    void register(@Observes Filters filters) {
        filters.register(this::handle, PRIORITY);
    }

    void registerFailures(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(this::failedBeforeRouting);
    }

    void handle(RoutingContext rc) {
        if (admit(rc)) rc.next();
    }

    /**
     * A failed request: one this guard admitted goes on to the application's error handling; one that
     * Vert.x failed before any handler ran is checked now and always answered here (it has no route).
     */
    void failedBeforeRouting(RoutingContext rc) {
        if (rc.get(GUARDED) != null || rc.response().ended()) {
            rc.next();
            return;
        }
        if (admit(rc)) deny(rc, 400, "bad_request", "the request target must be a path starting with '/'");
    }

    /** Runs the checks; true when the request may go on, false when this guard has answered it. */
    boolean admit(RoutingContext rc) {
        rc.put(GUARDED, Boolean.TRUE);
        HttpServerRequest request = rc.request();
        String method = request.method().name();
        String normalised;
        try {
            normalised = rc.normalizedPath();
        } catch (RuntimeException e) {
            normalised = null;
        }
        Area area = Area.of(method, normalised);
        rc.addHeadersEndHandler(v -> protect(rc.response().headers(), area));
        int port = request.localAddress() == null ? -1 : request.localAddress().port();
        Optional<String> refusal = checkHostAndOrigin(
                request.headers().getAll("Host"), request.headers().getAll("Origin"), port, published);
        if (refusal.isPresent()) {
            deny(rc, 403, "forbidden", refusal.get());
            return false;
        }
        Optional<String> token = bearer(request.headers().getAll("Authorization"));
        OwnerSessions.Session session = null;
        if (area == Area.MCP) {
            if (token.isEmpty() || !secrets.isMcpToken(token.get())) {
                unauthorized(
                        rc,
                        "/mcp needs the MCP token as 'Authorization: Bearer <token>' (file mcp-token in the config directory)");
                return false;
            }
        } else if (area == Area.OWNER) {
            if (token.isPresent()) {
                if (!secrets.isOwnerToken(token.get())) {
                    unauthorized(
                            rc,
                            "this path needs the owner token as 'Authorization: Bearer <token>' (file owner-token in the config directory)");
                    return false;
                }
            } else {
                var cookie = request.getCookie(OwnerSessions.COOKIE);
                session = sessions.session(cookie == null ? null : cookie.getValue())
                        .orElse(null);
                if (session == null) {
                    unauthorized(
                            rc,
                            "this path needs the owner token, or a browser session from a sign-in link ('deckhand signin')");
                    return false;
                }
            }
        }
        Optional<String> notCanonical = notCanonical(request.uri(), request.path(), normalised);
        if (notCanonical.isPresent()) {
            deny(rc, 400, "bad_request", notCanonical.get());
            return false;
        }
        if (session != null) {
            if (isFetchSiteRead(method, normalised)) {
                if (!"same-origin".equals(single(request.headers().getAll(FETCH_SITE)))) {
                    deny(
                            rc,
                            403,
                            "forbidden",
                            "this read from the browser needs 'Sec-Fetch-Site: same-origin' (the page's own request)");
                    return false;
                }
            } else if (!OwnerSessions.csrfMatches(
                    session, single(request.headers().getAll(OwnerSessions.CSRF_HEADER)))) {
                deny(
                        rc,
                        403,
                        "forbidden",
                        "a request from the browser needs the session's " + OwnerSessions.CSRF_HEADER + " header");
                return false;
            }
        }
        return true;
    }

    /** Why the request target is not the one canonical spelling of the path the router will match. */
    static Optional<String> notCanonical(String uri, String rawPath, String normalised) {
        if (uri == null || !uri.startsWith("/"))
            return Optional.of("the request target must be a path starting with '/'");
        Optional<String> refusal = CanonicalPath.refusal(rawPath);
        if (refusal.isPresent()) return refusal;
        if (!rawPath.equals(normalised)) return Optional.of("the path is not in its normal form");
        return Optional.empty();
    }

    private static boolean isFetchSiteRead(String method, String path) {
        if (!method.equals("GET") && !method.equals("HEAD")) return false;
        for (Pattern p : FETCH_SITE_READS) {
            if (p.matcher(path).matches()) return true;
        }
        return false;
    }

    /** The headers every response carries (set just before the headers are written, whoever answers). */
    static void protect(MultiMap headers, Area area) {
        headers.set("X-Frame-Options", "DENY");
        headers.set("Content-Security-Policy", area == Area.PUBLIC ? PAGE_CSP : DATA_CSP);
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("Referrer-Policy", "no-referrer");
        headers.set("Cross-Origin-Resource-Policy", "same-origin");
        if (area != Area.PUBLIC) headers.set("Cache-Control", "no-store");
    }

    private static String single(List<String> values) {
        return values.size() == 1 ? values.get(0) : null;
    }

    private static void unauthorized(RoutingContext rc, String detail) {
        rc.response().putHeader("WWW-Authenticate", "Bearer realm=\"deckhand\"");
        deny(rc, 401, "unauthorized", detail);
    }

    /** Which credential a request needs, decided on the normalised path (fail closed). */
    enum Area {
        /** The page's files and the sign-in link: no credential (GET and HEAD only). */
        PUBLIC,
        /** {@code /mcp} and below, in any letter case: the MCP token. */
        MCP,
        /** Everything else: the owner token or the person's browser session. */
        OWNER;

        static Area of(String method, String normalisedPath) {
            if (normalisedPath == null) return OWNER;
            if ((method.equals("GET") || method.equals("HEAD")) && PUBLIC_PATHS.contains(normalisedPath)) return PUBLIC;
            String lower = normalisedPath.toLowerCase(Locale.ROOT);
            if (lower.equals("/mcp") || lower.startsWith("/mcp/")) return MCP;
            return OWNER;
        }
    }

    /**
     * The reason to refuse, or empty when Host and Origin are both acceptable for {@code port}: a loopback
     * {@code Host} on {@code port} with a loopback {@code Origin} on {@code port}, or — when {@code published}
     * is given — exactly the published origin in {@code Host} and, when present, in {@code Origin}. The two
     * never mix: inside a container {@code port} is not the port the person's browser sees, so a page on the
     * host's own {@code 127.0.0.1:port} must not reach the server through the mapping.
     */
    static Optional<String> checkHostAndOrigin(
            List<String> hosts, List<String> origins, int port, Optional<PublishedOrigin> published) {
        if (hosts.size() != 1) {
            return Optional.of("exactly one Host header is required, got " + hosts.size());
        }
        String host = hosts.get(0);
        Optional<HostPort> parsed = HostPort.parseAuthority(host, -1);
        boolean local =
                parsed.isPresent() && parsed.get().isLoopback() && parsed.get().port() == port;
        boolean viaMapping = !local && published.isPresent() && published.get().isHost(host);
        if (!local && !viaMapping) {
            return Optional.of("Host '" + clip(host) + "' is not this server (127.0.0.1, localhost or [::1] on port "
                    + port + published.map(p -> ", or " + p).orElse("") + ")");
        }
        if (origins.size() > 1) {
            return Optional.of("at most one Origin header is allowed, got " + origins.size());
        }
        if (origins.size() == 1) {
            String origin = origins.get(0);
            boolean ok;
            if (local) {
                Optional<HostPort> o = HostPort.parseOrigin(origin);
                ok = o.isPresent() && o.get().isLoopback() && o.get().port() == port;
            } else {
                ok = published.get().isOrigin(origin);
            }
            if (!ok) {
                return Optional.of("Origin '" + clip(origin) + "' is not this server ("
                        + (local ? "http://127.0.0.1:" + port : published.get().toString()) + ")");
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
        rc.response()
                .setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .putHeader("Connection", "close")
                .end("{\"error\":\"" + error + "\",\"detail\":\""
                        + detail.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
    }

    private static String clip(String s) {
        String printable = s.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() > 100 ? printable.substring(0, 100) + "…" : printable;
    }
}

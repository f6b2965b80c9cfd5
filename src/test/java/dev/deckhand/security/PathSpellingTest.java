package dev.deckhand.security;

import static dev.deckhand.security.RawHttp.bearer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.deckhand.mcp.Mcp;
import dev.deckhand.mcp.ToolCallLedger;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The credential table of docs/security.md#every-request-needs-a-credential-decided-on-the-routed-path over a raw socket: every credential-bearing route (each owner API resource method,
 * found by reflection so a new one cannot be forgotten, and {@code /mcp}) through every spelling of its
 * path — doubled slashes, dot segments, percent-encodings of each letter and of {@code /}, {@code \} and
 * {@code .}, {@code ;} parameters, trailing {@code /} and dots, upper case, backslashes, absolute form.
 * Without a credential each answer is 400, 401 or 404; with the MCP token on an owner route 401 or 403;
 * with the owner token every non-canonical spelling is 400. Throughout, the server's own counters show
 * that no owner resource method and no tool call ran.
 * <p>It stays on a raw socket, not McpAssured: the spellings of the path are the test, and no client sends them;
 * McpAssured only opens the valid session the last case reuses.
 */
@QuarkusTest
@Tag("app")
class PathSpellingTest {

    @Inject
    ToolCallLedger tools;

    @Inject
    OwnerActionLedger owner;

    record Route(String method, String path) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /** A request target; {@code canonical} when it is one the guard must let reach the router (another path). */
    record Spelling(String target, boolean canonical) {}

    private static List<Route> ownerRoutes;

    /** Every JAX-RS resource method of the application except the public ones (the sign-in, the liveness probe). */
    static synchronized List<Route> ownerRoutes() {
        if (ownerRoutes == null) ownerRoutes = reflectRoutes();
        return ownerRoutes;
    }

    private static List<Route> reflectRoutes() {
        List<Route> routes = new ArrayList<>();
        var classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.deckhand");
        for (var c : classes) {
            if (!c.isAnnotatedWith(Path.class)) continue;
            Class<?> type = c.reflect();
            String base = type.getAnnotation(Path.class).value();
            for (Method m : type.getDeclaredMethods()) {
                for (Annotation a : m.getAnnotations()) {
                    HttpMethod http = a.annotationType().getAnnotation(HttpMethod.class);
                    if (http == null) continue;
                    Path sub = m.getAnnotation(Path.class);
                    String path = ("/" + base + "/" + (sub == null ? "" : sub.value()))
                            .replaceAll("/+", "/")
                            .replaceAll("(.)/$", "$1")
                            .replaceAll("\\{[^}]+}", "7");
                    if (!HttpGuard.PUBLIC_PATHS.contains(path)) routes.add(new Route(http.value(), path));
                }
            }
        }
        return List.copyOf(routes);
    }

    static final List<Route> MCP_ROUTES = List.of(
            new Route("POST", "/mcp"),
            new Route("GET", "/mcp"),
            new Route("DELETE", "/mcp"),
            new Route("GET", "/mcp/sse"),
            new Route("POST", "/mcp/messages/7"));

    /** The spellings of {@code path} (absolute, at least two segments or {@code /mcp}). */
    static List<Spelling> spellings(String path, int port) {
        List<Spelling> out = new ArrayList<>();
        int last = path.lastIndexOf('/');
        String head = path.substring(0, last);
        String tail = path.substring(last + 1);
        // non-canonical: the guard must refuse these before routing
        for (String s : List.of(
                "/" + path,
                head + "//" + tail,
                path + "//",
                "/." + path,
                head + "/./" + tail,
                "/x/.." + path,
                head + "/x/../" + tail,
                path + "/.",
                path + "/..",
                path + "/",
                path + "/./",
                path + ";x=1",
                head + ";x=1/" + tail,
                path + ";",
                head + "%2F" + tail,
                head + "%2f" + tail,
                head + "%5C" + tail,
                head + "%5c" + tail,
                head + "\\" + tail,
                path.replace('/', '\\'),
                path + "\\",
                "/%2e" + path,
                "/x/%2e%2e" + path,
                "/x/%2E%2E" + path,
                "/%252e" + path,
                path + "%00",
                path + "%20",
                path + "%2e",
                path + "%C0%AE",
                head + "/%2e/" + tail,
                path + "#x",
                path + "%3Bx=1",
                "http://127.0.0.1:" + port + path,
                "//127.0.0.1:" + port + path,
                "*")) {
            out.add(new Spelling(s, false));
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (!Character.isLetterOrDigit(c)) continue;
            String hex = String.format("%02X", (int) c);
            out.add(new Spelling(path.substring(0, i) + "%" + hex + path.substring(i + 1), false));
            out.add(new Spelling(
                    path.substring(0, i) + "%" + hex.toLowerCase(Locale.ROOT) + path.substring(i + 1), false));
        }
        // canonical, but another path: the guard lets them reach the router, which must not match them
        for (String s : List.of(
                path.toUpperCase(Locale.ROOT),
                head + "/" + Character.toUpperCase(tail.charAt(0)) + tail.substring(1),
                path + ".",
                path + "..",
                path + "...",
                head + "./" + tail,
                head + "../" + tail,
                path + "~")) {
            if (!s.equals(path)) out.add(new Spelling(s, true));
        }
        return out;
    }

    private int port() {
        return RestAssured.port;
    }

    private String host() {
        return RawHttp.host(port());
    }

    /**
     * Sends every spelling of every route with {@code credential} (null: none) and returns each failure
     * against {@code allowed}; the ledgers must not move.
     */
    private List<String> table(
            List<Route> routes,
            String credential,
            IntPredicate allowed,
            boolean nonCanonicalOnly,
            Map<Integer, Integer> tally)
            throws Exception {
        return table(routes, credential, allowed, nonCanonicalOnly, tally, s -> true);
    }

    private List<String> table(
            List<Route> routes,
            String credential,
            IntPredicate allowed,
            boolean nonCanonicalOnly,
            Map<Integer, Integer> tally,
            java.util.function.Predicate<Spelling> which)
            throws Exception {
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long actions = owner.actions();
        long calls = tools.calls();
        List<Callable<Void>> requests = new ArrayList<>();
        for (Route r : routes) {
            for (Spelling s : spellings(r.path(), port())) {
                if (nonCanonicalOnly && s.canonical() || !which.test(s)) continue;
                List<String> headers = new ArrayList<>(List.of(host()));
                if (credential != null) headers.add(credential);
                String body = r.method().equals("GET") || r.method().equals("DELETE") ? null : "{}";
                requests.add(() -> {
                    int status;
                    try {
                        status = RawHttp.status(port(), r.method(), s.target(), headers, body);
                    } catch (java.io.IOException e) {
                        failures.add(r + " as " + s.target() + ": " + e.getMessage());
                        return null;
                    }
                    synchronized (tally) {
                        tally.merge(status, 1, Integer::sum);
                    }
                    if (!allowed.test(status)) failures.add(r + " as " + s.target() + " → " + status);
                    return null;
                });
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (Future<Void> f : pool.invokeAll(requests)) f.get();
        } finally {
            pool.shutdownNow();
        }
        assertEquals(actions, owner.actions(), "no owner resource method ran");
        assertEquals(calls, tools.calls(), "no tool call ran");
        return failures;
    }

    @Test
    void theRouteListIsComplete() {
        Set<String> listed =
                Set.copyOf(ownerRoutes().stream().map(Route::toString).toList());
        for (String r : List.of(
                "POST /api/stop",
                "GET /api/windows",
                "POST /api/grants",
                "DELETE /api/grants/7",
                "PATCH /api/grants/7",
                "POST /api/approvals/7",
                "PUT /api/policy",
                "PUT /api/model",
                "GET /api/session",
                "POST /api/session/link",
                "POST /api/session/logout",
                "GET /api/web/windows/7/thumbnail",
                "GET /api/audit/runs",
                "GET /api/status")) {
            assertTrue(listed.contains(r), () -> r + " is among the reflected routes " + listed);
        }
    }

    @Test
    void withoutACredentialEverySpellingIsRefusedAndNothingRuns() throws Exception {
        List<Route> routes = new ArrayList<>(ownerRoutes());
        routes.addAll(MCP_ROUTES);
        Map<Integer, Integer> tally = new TreeMap<>();
        List<String> failures = table(routes, null, s -> s == 400 || s == 401 || s == 404, false, tally);
        System.out.printf("path spellings without a credential: %d routes, statuses %s%n", routes.size(), tally);
        assertTrue(
                failures.isEmpty(),
                () -> failures.size() + " spellings answered otherwise:\n" + String.join("\n", failures));
        assertControl();
    }

    /**
     * 401 (or 403); a target with a backslash never gets that far: Vert.x's HTTP decoder answers 400 (empty,
     * before any handler), which {@link #decoderRefusesBackslashes} checks on its own.
     */
    @Test
    void theMcpTokenOpensNoSpellingOfAnOwnerRoute() throws Exception {
        Map<Integer, Integer> tally = new TreeMap<>();
        List<Route> routes = ownerRoutes();
        List<String> failures =
                table(routes, bearer("mcp-token"), s -> s == 401 || s == 403, false, tally, s -> !s.target()
                        .contains("\\"));
        System.out.printf("path spellings with the MCP token on owner routes: statuses %s%n", tally);
        assertTrue(
                failures.isEmpty(),
                () -> failures.size() + " spellings answered otherwise:\n" + String.join("\n", failures));
        assertControl();
    }

    @Test
    void decoderRefusesBackslashes() throws Exception {
        long actions = owner.actions();
        for (String target : List.of("/api\\stop", "\\api\\stop", "/api/stop\\", "/mcp\\")) {
            for (String credential : List.of(bearer("mcp-token"), bearer("owner-token"))) {
                RawHttp.Response r = RawHttp.exchange(port(), "POST", target, List.of(host(), credential), "{}");
                assertEquals(400, r.status(), target);
                assertEquals("", r.body(), () -> target + " is refused by the HTTP decoder, before any handler: " + r);
            }
        }
        assertEquals(actions, owner.actions());
    }

    @Test
    void withTheOwnerTokenEveryNonCanonicalSpellingIs400BeforeRouting() throws Exception {
        Map<Integer, Integer> tally = new TreeMap<>();
        List<String> failures = table(ownerRoutes(), bearer("owner-token"), s -> s == 400, true, tally);
        System.out.printf("non-canonical spellings with the owner token: statuses %s%n", tally);
        assertTrue(
                failures.isEmpty(),
                () -> failures.size() + " spellings answered otherwise:\n" + String.join("\n", failures));
    }

    /**
     * 400 where the spelling normalises to the MCP area; 401 where it normalises elsewhere (e.g.
     * {@code /mcp;x=1}), which needs the owner token: refused either way, and the tool never runs.
     */
    @Test
    void withTheMcpTokenNoNonCanonicalSpellingOfMcpReachesTheTool() throws Exception {
        Map<Integer, Integer> tally = new TreeMap<>();
        List<String> failures = table(MCP_ROUTES, bearer("mcp-token"), s -> s == 400 || s == 401, true, tally);
        System.out.printf("non-canonical spellings of /mcp with the MCP token: statuses %s%n", tally);
        assertTrue(
                failures.isEmpty(),
                () -> failures.size() + " spellings answered otherwise:\n" + String.join("\n", failures));
    }

    @Test
    void canonicalSpellingsOfOtherPathsReachNoResource() throws Exception {
        List<Route> routes =
                ownerRoutes().stream().filter(r -> !r.path().contains("/7")).toList();
        List<String> failures = new ArrayList<>();
        long actions = owner.actions();
        for (Route r : routes) {
            for (Spelling s : spellings(r.path(), port())) {
                if (!s.canonical()) continue;
                String body = r.method().equals("GET") || r.method().equals("DELETE") ? null : "{}";
                int status =
                        RawHttp.status(port(), r.method(), s.target(), List.of(host(), bearer("owner-token")), body);
                if (status != 404 && status != 405) failures.add(r + " as " + s.target() + " → " + status);
            }
        }
        assertEquals(actions, owner.actions(), "no owner resource method ran for another path's spelling");
        assertTrue(failures.isEmpty(), () -> String.join("\n", failures));
    }

    @Test
    void unknownPathsAndQuarkusEndpointsNeedTheOwnerCredential() throws Exception {
        for (String path : List.of(
                "/q/health",
                "/q/dev-ui",
                "/q/openapi",
                "/q/metrics",
                "/nothing",
                "/API/stop",
                "/Api/policy",
                "/favicon.ico",
                "/INDEX.HTML",
                "/App.js",
                "/SIGNIN",
                "/api",
                "/mcp.json",
                "/mcpx",
                "/HEALTH",
                "/Health",
                "/healthz",
                "/health.json",
                "/status")) {
            assertEquals(401, RawHttp.status(port(), "GET", path, List.of(host()), null), path);
        }
        for (String path : List.of("/q/health", "/q/dev-ui", "/q/openapi", "/q/metrics", "/q/info", "/q/swagger-ui")) {
            assertEquals(
                    404,
                    RawHttp.status(port(), "GET", path, List.of(host(), bearer("owner-token")), null),
                    path + ": no Quarkus endpoint is served (and each would need the owner token)");
        }
        for (String path : List.of("/MCP", "/Mcp", "/mcP/sse")) {
            assertEquals(
                    401,
                    RawHttp.status(port(), "POST", path, List.of(host(), bearer("owner-token")), "{}"),
                    path + " is the MCP area in any case: the owner token does not open it");
        }
    }

    /**
     * Every file of the page is in the public allow-list, and besides them only the sign-in link and the liveness
     * probe: a new file cannot be forgotten, nor another path slip in.
     */
    @Test
    void thePublicAllowListIsThePagesFilesAndTheSignInLink() throws Exception {
        Set<String> files;
        try (var list = java.nio.file.Files.list(java.nio.file.Path.of("main/resources/META-INF/resources"))) {
            files = list.map(p -> "/" + p.getFileName()).collect(java.util.stream.Collectors.toSet());
        }
        Set<String> expected = new java.util.HashSet<>(files);
        expected.add("/");
        expected.add("/signin");
        expected.add("/health");
        assertEquals(expected, HttpGuard.PUBLIC_PATHS);
    }

    /** The page's files and the liveness probe (a resource: its own spelling counts one action, no other spelling any). */
    @Test
    void thePublicFilesAreServedOnlyUnderTheirOwnSpelling() throws Exception {
        for (String path : List.of("/", "/index.html", "/app.js", "/app.css", "/eval.js", "/health")) {
            long before = owner.actions();
            assertEquals(200, RawHttp.status(port(), "GET", path, List.of(host()), null), path);
            assertEquals(before + (path.equals("/health") ? 1 : 0), owner.actions(), path);
            if (path.equals("/")) continue;
            for (Spelling s : spellings(path, port())) {
                int status = RawHttp.status(port(), "GET", s.target(), List.of(host()), null);
                assertTrue(status == 400 || status == 401 || status == 404, () -> s.target() + " → " + status);
            }
        }
        long actions = owner.actions();
        assertEquals(
                401, RawHttp.status(port(), "POST", "/app.js", List.of(host()), "{}"), "only GET and HEAD are public");
        assertEquals(
                401, RawHttp.status(port(), "POST", "/health", List.of(host()), "{}"), "only GET and HEAD are public");
        assertEquals(401, RawHttp.status(port(), "DELETE", "/health", List.of(host()), null));
        assertEquals(actions, owner.actions());
    }

    /** The ledgers can move: the same request with the right credential runs the resource and the tool. */
    private void assertControl() throws Exception {
        long actions = owner.actions();
        assertEquals(200, RawHttp.status(port(), "GET", "/api/status", List.of(host(), bearer("owner-token")), null));
        assertEquals(actions + 1, owner.actions(), "the control request reached its resource");
        long calls = tools.calls();
        McpStreamableTestClient session = Mcp.connect();
        assertEquals(
                200,
                RawHttp.status(
                        port(),
                        "POST",
                        "/mcp",
                        List.of(host(), bearer("mcp-token"), "Mcp-Session-Id: " + session.mcpSessionId()),
                        "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\","
                                + "\"params\":{\"name\":\"computer\",\"arguments\":{\"instruction\":\"x\"}}}"));
        assertEquals(calls + 1, tools.calls(), "the control call reached the tool");
    }
}

package dev.deckhand.security;

import static dev.deckhand.security.RawHttp.bearer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every class of response carries the frame and content-security headers (docs/security.md#headers-on-every-response): the page, its
 * assets, the sign-in link, {@code /api/} answers and errors, {@code /mcp}, and this guard's own
 * 400/401/403, including requests Vert.x failed before any handler. {@code /api/} and {@code /mcp}
 * answers are never cached.
 * <p>It stays on raw HTTP, not McpAssured: the test reads the headers of the guard's own answers and of requests
 * Vert.x fails before any handler, which no MCP client shows or sends.
 */
@QuarkusTest
@Tag("app")
class ResponseHeadersTest {

    private int port() {
        return RestAssured.port;
    }

    private String host() {
        return RawHttp.host(port());
    }

    record Case(
            String what, String method, String target, List<String> headers, String body, int status, boolean page) {}

    @Test
    void everyResponseClassCarriesTheFrameAndContentHeaders() throws Exception {
        String initialize =
                "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"headers\",\"version\":\"1\"}}}";
        List<Case> cases = List.of(
                new Case("the page", "GET", "/", List.of(host()), null, 200, true),
                new Case("the page by name", "GET", "/index.html", List.of(host()), null, 200, true),
                new Case("a script", "GET", "/app.js", List.of(host()), null, 200, true),
                new Case("a style sheet", "GET", "/app.css", List.of(host()), null, 200, true),
                new Case("a used sign-in link", "GET", "/signin?code=nope", List.of(host()), null, 401, true),
                new Case(
                        "an owner read",
                        "GET",
                        "/api/status",
                        List.of(host(), bearer("owner-token")),
                        null,
                        200,
                        false),
                new Case(
                        "an owner 404",
                        "GET",
                        "/api/nothing",
                        List.of(host(), bearer("owner-token")),
                        null,
                        404,
                        false),
                new Case(
                        "an owner 422",
                        "GET",
                        "/api/web/windows/1/thumbnail",
                        List.of(host(), bearer("owner-token")),
                        null,
                        -1,
                        false),
                new Case(
                        "an owner 405",
                        "DELETE",
                        "/api/status",
                        List.of(host(), bearer("owner-token")),
                        null,
                        405,
                        false),
                new Case(
                        "an owner 400 body",
                        "PUT",
                        "/api/policy",
                        List.of(host(), bearer("owner-token")),
                        "{\"x\":1}",
                        400,
                        false),
                new Case("/mcp", "POST", "/mcp", List.of(host(), bearer("mcp-token")), initialize, 200, false),
                new Case("the guard's 401", "GET", "/api/status", List.of(host()), null, 401, false),
                new Case("the guard's 401 on /mcp", "POST", "/mcp", List.of(host()), initialize, 401, false),
                new Case(
                        "the guard's 403",
                        "GET",
                        "/api/status",
                        List.of("Host: evil.example:" + port()),
                        null,
                        403,
                        false),
                new Case("the guard's 403 on the page", "GET", "/", List.of(host(), "Origin: null"), null, 403, true),
                new Case(
                        "the guard's 400",
                        "GET",
                        "//api/status",
                        List.of(host(), bearer("owner-token")),
                        null,
                        400,
                        false),
                new Case(
                        "a target Vert.x fails before routing",
                        "GET",
                        "*",
                        List.of(host(), bearer("owner-token")),
                        null,
                        400,
                        false),
                new Case("no Host at all", "GET", "/", List.of(), null, 403, true));
        List<String> failures = new ArrayList<>();
        for (Case c : cases) {
            RawHttp.Response r = RawHttp.exchange(port(), c.method(), c.target(), c.headers(), c.body());
            if (c.status() > 0 && r.status() != c.status())
                failures.add(c.what() + ": status " + r.status() + " " + r.body());
            if (!r.header("X-Frame-Options").equals(List.of("DENY")))
                failures.add(c.what() + ": X-Frame-Options " + r.header("X-Frame-Options"));
            List<String> csp = r.header("Content-Security-Policy");
            if (csp.size() != 1 || !csp.get(0).contains("frame-ancestors 'none'"))
                failures.add(c.what() + ": CSP " + csp);
            else if (c.page() && c.status() == 200 && !csp.get(0).startsWith("default-src 'self'"))
                failures.add(c.what() + ": page CSP " + csp);
            else if (!c.page() && !csp.get(0).startsWith("default-src 'none'"))
                failures.add(c.what() + ": data CSP " + csp);
            if (!r.header("X-Content-Type-Options").equals(List.of("nosniff"))) failures.add(c.what() + ": nosniff");
            if (!c.page() && !r.header("Cache-Control").equals(List.of("no-store"))) {
                failures.add(c.what() + ": Cache-Control " + r.header("Cache-Control"));
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void thePageLoadsNothingInlineThatItsPolicyWouldBlock() throws Exception {
        String html =
                RawHttp.exchange(port(), "GET", "/", List.of(host()), null).body();
        assertTrue(!html.matches("(?s).*<script(?![^>]*\\bsrc=)[^>]*>.*"), "no inline script");
        assertTrue(
                !html.contains("<style") && !html.matches("(?s).*\\sstyle=.*") && !html.matches("(?s).*\\son[a-z]+=.*"),
                "no inline style or handler attribute");
        String js = RawHttp.exchange(port(), "GET", "/app.js", List.of(host()), null)
                .body();
        for (String forbidden : List.of("eval(", "new Function", "innerHTML", "setAttribute('style'", "'style'")) {
            assertTrue(!js.contains(forbidden), "app.js uses " + forbidden);
        }
        assertEquals(200, RawHttp.status(port(), "GET", "/app.css", List.of(host()), null));
    }
}

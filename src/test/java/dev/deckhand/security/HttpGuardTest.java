package dev.deckhand.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.home.TestTokens;
import dev.deckhand.mcp.Mcp;
import dev.deckhand.mcp.ToolCallLedger;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every token, Host and Origin case of docs/design.md#owner-boundary through the real HTTP stack. Each case that
 * carries a well-formed {@code tools/call} asserts the tool was not invoked.
 * <p>It stays on raw HTTP (RawHttp), not McpAssured: the test is the guard itself, and it needs requests no MCP
 * client sends (duplicate, missing and look-alike {@code Host}, {@code Origin} and {@code Authorization} headers);
 * McpAssured only opens the valid session each case reuses.
 */
@QuarkusTest
@Tag("app")
class HttpGuardTest {

    private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"computer\",\"arguments\":{\"instruction\":\"x\"}}}";

    @Inject
    ToolCallLedger ledger;

    private int port() {
        return RestAssured.port;
    }

    private String host() {
        return "Host: 127.0.0.1:" + port();
    }

    private int callMcp(List<String> headers) throws Exception {
        McpStreamableTestClient session = Mcp.connect(); // a valid session, so only the checked header differs
        List<String> all = new ArrayList<>(headers);
        all.add("Mcp-Session-Id: " + session.mcpSessionId());
        long before = ledger.calls();
        int status = RawHttp.status(port(), "POST", "/mcp", all, CALL);
        assertEquals(before, ledger.calls(), "the tool must not run for " + headers);
        return status;
    }

    private static String bearer(String file) {
        return "Authorization: Bearer " + TestTokens.read(file);
    }

    @Test
    void mcpWithoutTokenIs401AndTheToolDoesNotRun() throws Exception {
        assertEquals(401, callMcp(List.of(host())));
    }

    @Test
    void mcpWithAWrongTokenIs401() throws Exception {
        assertEquals(401, callMcp(List.of(host(), "Authorization: Bearer not-the-token")));
        assertEquals(401, callMcp(List.of(host(), "Authorization: Basic " + TestTokens.read("mcp-token"))));
        assertEquals(401, callMcp(List.of(host(), "Authorization: Bearer")));
    }

    @Test
    void ownerTokenIsNeverAcceptedOnMcp() throws Exception {
        assertEquals(401, callMcp(List.of(host(), bearer("owner-token"))));
    }

    @Test
    void twoAuthorizationHeadersAre401() throws Exception {
        assertEquals(401, callMcp(List.of(host(), bearer("mcp-token"), bearer("mcp-token"))));
    }

    @Test
    void mcpTokenIsNeverAcceptedOnOwnerEndpoints() throws Exception {
        String[][] endpoints = {
            {"GET", "/api/status"},
            {"GET", "/api/windows"},
            {"POST", "/api/grants"},
            {"GET", "/api/grants/active"},
            {"DELETE", "/api/grants/g1"},
            {"POST", "/api/stop"},
            {"GET", "/api/approvals"},
            {"POST", "/api/approvals/a1"},
            {"GET", "/api/model"},
            {"PUT", "/api/model"},
            {"GET", "/api/doctor"},
            {"GET", "/api/policy"},
            {"PUT", "/api/policy"},
            {"GET", "/api/audit/runs"},
            {"GET", "/api/audit/actions"},
            {"GET", "/api/audit/verify"},
        };
        for (String[] e : endpoints) {
            String body = e[0].equals("GET") || e[0].equals("DELETE") ? null : "{}";
            assertEquals(
                    401,
                    RawHttp.status(port(), e[0], e[1], List.of(host(), bearer("mcp-token")), body),
                    e[0] + " " + e[1] + " with the MCP token");
            assertEquals(
                    401,
                    RawHttp.status(port(), e[0], e[1], List.of(host()), body),
                    e[0] + " " + e[1] + " without a token");
        }
        assertEquals(200, RawHttp.status(port(), "GET", "/api/status", List.of(host(), bearer("owner-token")), null));
    }

    @Test
    void validRequestPasses() throws Exception {
        long before = ledger.calls();
        McpStreamableTestClient session = Mcp.connect();
        int status = RawHttp.status(
                port(),
                "POST",
                "/mcp",
                List.of(
                        host(),
                        bearer("mcp-token"),
                        "Origin: http://127.0.0.1:" + port(),
                        "Mcp-Session-Id: " + session.mcpSessionId()),
                CALL);
        assertEquals(200, status);
        assertEquals(before + 1, ledger.calls(), "the control case must reach the tool");
        assertEquals(
                200,
                RawHttp.status(
                        port(),
                        "POST",
                        "/mcp",
                        List.of(
                                "Host: localhost:" + port(),
                                bearer("mcp-token"),
                                "Origin: http://localhost:" + port(),
                                "Mcp-Session-Id: " + session.mcpSessionId()),
                        CALL));
    }

    @Test
    void foreignOrLookAlikeOriginsAre403() throws Exception {
        List<String> origins = List.of(
                "http://localhost.evil.example",
                "http://localhost.evil.example:" + port(),
                "http://127.0.0.1.evil.example:" + port(),
                "http://evil.example",
                "null",
                "https://127.0.0.1:" + port(),
                "http://127.0.0.1:" + (port() + 1),
                "http://127.0.0.1",
                "http://user@127.0.0.1:" + port(),
                "file://",
                "ws://127.0.0.1:" + port(),
                "");
        for (String origin : origins) {
            assertEquals(403, callMcp(List.of(host(), bearer("mcp-token"), "Origin: " + origin)), "Origin: " + origin);
        }
    }

    @Test
    void duplicateOriginIs403() throws Exception {
        String good = "Origin: http://127.0.0.1:" + port();
        assertEquals(403, callMcp(List.of(host(), bearer("mcp-token"), good, good)));
    }

    @Test
    void badOrDuplicateHostIs403() throws Exception {
        List<List<String>> cases = List.of(
                List.of("Host: evil.example:" + port()),
                List.of("Host: localhost.evil.example:" + port()),
                List.of("Host: 127.0.0.1:" + (port() + 1)),
                List.of("Host: 127.0.0.1"),
                List.of("Host: 127.0.0.1:" + port(), "Host: 127.0.0.1:" + port()));
        for (List<String> hosts : cases) {
            List<String> headers = new ArrayList<>(hosts);
            headers.add(bearer("mcp-token"));
            int status = callMcp(headers);
            // Vert.x itself answers 400 to some malformed requests before any handler; never 2xx.
            if (status != 403 && status != 400) throw new AssertionError(hosts + " gave " + status);
            if (hosts.size() == 1) assertEquals(403, status, hosts.toString());
        }
    }

    @Test
    void thePageIsGuardedByHostAndOriginToo() throws Exception {
        assertEquals(403, RawHttp.status(port(), "GET", "/", List.of("Host: evil.example:" + port()), null));
        assertEquals(403, RawHttp.status(port(), "GET", "/", List.of(host(), "Origin: null"), null));
    }
}

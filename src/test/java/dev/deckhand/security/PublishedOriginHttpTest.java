package dev.deckhand.security;

import static dev.deckhand.security.RawHttp.bearer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.mcp.Mcp;
import dev.deckhand.mcp.ToolCallLedger;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A server behind a port mapping ({@code deckhand.published-origin=http://127.0.0.1:18377}), through the real
 * HTTP stack: requests naming the published origin reach the tool with the MCP token and only with it; the
 * page and the liveness probe answer there too; look-alikes and a mix of the published and the local origin
 * get 403 and the tool does not run.
 * <p>It stays on raw HTTP, not McpAssured: the test is the guard's {@code Host} and {@code Origin} checks, and
 * java.net.http (under McpAssured) never lets a caller set {@code Host}; McpAssured only opens the valid session.
 */
@QuarkusTest
@TestProfile(PublishedOriginHttpTest.Published.class)
@Tag("app")
class PublishedOriginHttpTest {

    static final String PUBLISHED = "127.0.0.1:18377";

    public static class Published implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("deckhand.published-origin", "http://" + PUBLISHED);
        }
    }

    private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"computer\",\"arguments\":{\"instruction\":\"x\"}}}";

    @Inject
    ToolCallLedger ledger;

    private int port() {
        return RestAssured.port;
    }

    /** The status of a tools/call with {@code headers}; {@code reaches} says whether the tool must have run. */
    private int callMcp(List<String> headers, boolean reaches) throws Exception {
        McpStreamableTestClient session = Mcp.connect();
        List<String> all = new ArrayList<>(headers);
        all.add("Mcp-Session-Id: " + session.mcpSessionId());
        long before = ledger.calls();
        int status = RawHttp.status(port(), "POST", "/mcp", all, CALL);
        assertEquals(
                before + (reaches ? 1 : 0),
                ledger.calls(),
                (reaches ? "the tool must run for " : "the tool must not run for ") + headers);
        return status;
    }

    @Test
    void thePublishedOriginReachesTheToolWithTheMcpTokenOnly() throws Exception {
        assertEquals(
                200, callMcp(List.of("Host: " + PUBLISHED, bearer("mcp-token"), "Origin: http://" + PUBLISHED), true));
        assertEquals(200, callMcp(List.of("Host: " + PUBLISHED, bearer("mcp-token")), true));
        assertEquals(401, callMcp(List.of("Host: " + PUBLISHED, "Origin: http://" + PUBLISHED), false));
        assertEquals(401, callMcp(List.of("Host: " + PUBLISHED, bearer("owner-token")), false));
        assertEquals(
                401,
                RawHttp.status(port(), "GET", "/api/status", List.of("Host: " + PUBLISHED), null),
                "the owner API needs its token");
        assertEquals(
                200,
                RawHttp.status(
                        port(), "GET", "/api/status", List.of("Host: " + PUBLISHED, bearer("owner-token")), null));
        assertEquals(
                200,
                callMcp(List.of(RawHttp.host(port()), bearer("mcp-token")), true),
                "the server's own address still works inside");
    }

    @Test
    void theLivenessProbeAndThePageAnswerThereWithoutAToken() throws Exception {
        RawHttp.Response health = RawHttp.exchange(port(), "GET", "/health", List.of("Host: " + PUBLISHED), null);
        assertEquals(200, health.status());
        assertEquals(HealthResource.UP, health.body());
        assertEquals(
                200,
                RawHttp.status(port(), "GET", "/", List.of("Host: " + PUBLISHED, "Origin: http://" + PUBLISHED), null));
        assertEquals(403, RawHttp.status(port(), "GET", "/health", List.of("Host: evil.example:18377"), null));
    }

    @Test
    void lookAlikesAndMixedOriginsAre403() throws Exception {
        for (String host : List.of(
                "127.0.0.1:18378",
                "localhost:18377",
                "127.0.0.1.evil.example:18377",
                "evil.example:18377",
                "127.0.0.1:" + (port() + 1))) {
            assertEquals(403, callMcp(List.of("Host: " + host, bearer("mcp-token")), false), "Host: " + host);
        }
        for (String origin : List.of(
                "http://127.0.0.1:18378",
                "http://localhost:18377",
                "https://" + PUBLISHED,
                "null",
                "http://" + PUBLISHED + ".evil.example",
                "http://evil.example:18377",
                "http://127.0.0.1:" + port())) {
            assertEquals(
                    403,
                    callMcp(List.of("Host: " + PUBLISHED, bearer("mcp-token"), "Origin: " + origin), false),
                    "Origin: " + origin);
        }
        assertEquals(
                403,
                callMcp(List.of(RawHttp.host(port()), bearer("mcp-token"), "Origin: http://" + PUBLISHED), false),
                "the published origin is not the server's own port's");
        int twoHosts = callMcp(List.of("Host: " + PUBLISHED, "Host: " + PUBLISHED, bearer("mcp-token")), false);
        // Vert.x itself answers 400 to some malformed requests before any handler; never 2xx.
        if (twoHosts != 403 && twoHosts != 400) throw new AssertionError("two Host headers gave " + twoHosts);
    }
}

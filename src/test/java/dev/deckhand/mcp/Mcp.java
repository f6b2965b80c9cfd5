package dev.deckhand.mcp;

import static io.restassured.RestAssured.given;

import dev.deckhand.home.TestTokens;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Duration;

/**
 * How tests speak MCP: the extension's test client, {@link McpAssured}'s Streamable HTTP client, with Deckhand's
 * bearer token (docs/contract.md) on every request, on {@code /mcp} of the server under test. McpAssured does the
 * session (initialize, {@code Mcp-Session-Id}, {@code notifications/initialized}), the JSON-RPC envelope and ids,
 * and reads plain JSON and SSE answers alike into its snapshot (responses, notifications). This class adds only
 * what a run of Deckhand needs on top: a wait for the answer as long as a run may take (McpAssured's own waits end
 * after Awaitility's default 10 s), the answer as a {@link JsonPath} of the whole JSON-RPC response (so tests keep
 * asserting on {@code result.structuredContent...} and {@code error.code}), and a notification's HTTP status.
 */
public final class Mcp {

    /** The tool Deckhand publishes. */
    public static final String TOOL = "computer";

    /**
     * How long one request may wait for its answer: the longest run of the suites (the canary's 101 steps) under a
     * loaded machine; before, REST Assured's read timeout ({@code quarkus.http.test-timeout}, 120 s) bounded it.
     */
    public static final Duration CALL_TIMEOUT = Duration.ofMinutes(5);

    /** The protocol version the tests have always spoken (the hand-written client's). */
    static final String PROTOCOL_VERSION = "2025-06-18";

    private Mcp() {}

    /** A connected client with the MCP token of the test config directory, on the server under test. */
    public static McpStreamableTestClient connect() {
        return client(baseUri(), TestTokens.read("mcp-token")).build().connect();
    }

    /** A client (not yet connected) of the server at {@code baseUri} that sends {@code token} as its bearer token. */
    public static McpStreamableTestClient.Builder client(URI baseUri, String token) {
        return McpAssured.newStreamableClient()
                .setBaseUri(baseUri)
                .setMcpPath("/mcp")
                .setName("deckhand-test")
                .setVersion("1")
                .setProtocolVersion(PROTOCOL_VERSION)
                .setAdditionalHeaders(
                        message -> MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + token));
    }

    /**
     * The server under test: the URL the extension's test callback sets before each {@code @QuarkusTest} method, or,
     * before the first (a {@code @BeforeAll}), REST Assured's, which Quarkus sets for the whole class.
     */
    public static URI baseUri() {
        if (McpAssured.baseUri != null) return McpAssured.baseUri;
        return URI.create(RestAssured.baseURI + ":" + RestAssured.port);
    }

    /**
     * Calls the tool with {@code argumentsJson} (a JSON object's text) and waits for the answer: the whole JSON-RPC
     * response.
     */
    public static JsonPath call(McpStreamableTestClient client, String argumentsJson) {
        return json(send(client, toolsCall(client, new JsonObject(argumentsJson), null)));
    }

    /** A {@code tools/call} request of the tool, with its id from the client; a {@code progressToken} when not null. */
    public static JsonObject toolsCall(McpStreamableTestClient client, JsonObject arguments, String progressToken) {
        JsonObject params = new JsonObject().put("name", TOOL).put("arguments", arguments);
        if (progressToken != null) params.put("_meta", new JsonObject().put("progressToken", progressToken));
        return client.newRequest(McpAssured.TOOLS_CALL).put("params", params);
    }

    /** Sends a request of {@code method} ({@code paramsJson} may be null) and waits for the answer. */
    public static JsonPath request(McpStreamableTestClient client, String method, String paramsJson) {
        JsonObject request = client.newRequest(method);
        if (paramsJson != null) request.put("params", new JsonObject(paramsJson));
        return json(send(client, request));
    }

    /** Sends {@code request} and waits up to {@link #CALL_TIMEOUT} for the response with its id. */
    public static JsonObject send(McpStreamableTestClient client, JsonObject request) {
        client.sendAndForget(request);
        return awaitResponse(client, request, CALL_TIMEOUT);
    }

    /** The response to {@code request} once it has come, within {@code timeout}. */
    public static JsonObject awaitResponse(McpStreamableTestClient client, JsonObject request, Duration timeout) {
        Object id = request.getValue("id");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonObject response = response(client, id);
            if (response != null) return response;
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "no answer to request " + id + " within " + timeout + ": " + client.snapshot());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for request " + id, e);
            }
        }
    }

    /** The response to the request with {@code id}, or null while none has come. */
    public static JsonObject response(McpStreamableTestClient client, Object id) {
        for (JsonObject r : client.snapshot().responses()) {
            if (String.valueOf(id).equals(String.valueOf(r.getValue("id")))) return r;
        }
        return null;
    }

    /**
     * Sends a notification built by the client ({@code client.newMessage(...)}) in the client's session and returns
     * the HTTP status. McpAssured sends notifications fire-and-forget and keeps no status (a 202 has no body to read),
     * so the one thing it cannot show, the 202 the protocol promises a notification, is read here.
     */
    public static int notify(McpStreamableTestClient client, JsonObject notification) {
        return given().header("Authorization", "Bearer " + TestTokens.read("mcp-token"))
                .header("Mcp-Session-Id", client.mcpSessionId())
                .contentType("application/json")
                .accept("application/json, text/event-stream")
                .body(notification.encode())
                .post(client.mcpEndpoint())
                .statusCode();
    }

    /** {@code response} as a {@link JsonPath}. */
    public static JsonPath json(JsonObject response) {
        return new JsonPath(response.encode());
    }
}

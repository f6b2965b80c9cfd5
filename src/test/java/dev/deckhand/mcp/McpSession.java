package dev.deckhand.mcp;

import static io.restassured.RestAssured.given;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;

/** A minimal Streamable HTTP MCP client over REST Assured, for tests through the real HTTP stack. */
public final class McpSession {

    private final String token;
    private String sessionId;
    private int nextId = 1;

    private McpSession(String token) {
        this.token = token;
    }

    /**
     * A token of the test config directory, read as Deckhand reads its own secret files ({@code SecretFileReads}):
     * the tests share the server's process, and a harness that reads the token before every request is not the
     * person's script a foreign open stands for (while a grant of an app that runs commands is watched, a foreign
     * open revokes it and replaces the owner token). The tests of foreign opens open the files from real processes.
     */
    public static String token(String file) {
        try {
            return dev.deckhand.home.SecretFileReads.read(Path.of("target/test-home").resolve(file));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Initializes a session with the MCP token from the test config directory. */
    public static McpSession open() {
        McpSession s = new McpSession(token("mcp-token"));
        Response r = s.post("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"deckhand-test\",\"version\":\"1\"}}}");
        r.then().statusCode(200);
        s.sessionId = r.header("Mcp-Session-Id");
        if (s.sessionId == null) throw new AssertionError("initialize returned no Mcp-Session-Id");
        s.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").then().statusCode(202);
        return s;
    }

    public Response post(String body) {
        var spec = given().header("Authorization", "Bearer " + token)
                .contentType("application/json")
                .accept("application/json, text/event-stream")
                .body(body);
        if (sessionId != null) spec = spec.header("Mcp-Session-Id", sessionId);
        return spec.post("/mcp");
    }

    /** Sends a request and returns the JSON-RPC message that answers it (plain JSON or the last SSE event). */
    public JsonPath request(String method, String paramsJson) {
        int id = nextId++;
        Response r = post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\""
                + (paramsJson == null ? "" : ",\"params\":" + paramsJson) + "}");
        r.then().statusCode(200);
        String body = r.asString();
        if (String.valueOf(r.contentType()).startsWith("text/event-stream")) {
            String last = null;
            for (String line : body.split("\n")) {
                if (line.startsWith("data:")) last = line.substring(5).trim();
            }
            body = last;
        }
        JsonPath json = new JsonPath(body);
        if (json.getInt("id") != id) throw new AssertionError("response id " + json.get("id") + " != " + id);
        return json;
    }

    public String sessionId() {
        return sessionId;
    }
}

package dev.deckhand.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * initialize, tools/list and tools/call over stdio against the packaged application in a child process;
 * its standard error (the MCP client's log) never carries a sign-in code.
 */
@Tag("e2e")
class StdioIT {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void stdioServesTheSameToolAndRefusals() throws Exception {
        Path home = Files.createTempDirectory("deckhand-stdio-home");
        ProcessBuilder pb = new ProcessBuilder(PackagedApp.command("stdio"))
                .redirectError(home.resolve("stderr.log").toFile());
        PackagedApp.environment(pb.environment(), home, PackagedApp.freePort());
        Process process = pb.start();
        try (OutputStream in = process.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"stdio-it\",\"version\":\"1\"}}}");
            Map<Integer, JsonNode> replies = new HashMap<>();
            readUntil(out, replies, 1);
            assertEquals("deckhand", replies.get(1).path("result").path("serverInfo").path("name").asText());

            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            readUntil(out, replies, 2);
            JsonNode tool = replies.get(2).path("result").path("tools").get(0);
            assertEquals("computer", tool.path("name").asText());
            assertTrue(tool.path("annotations").path("destructiveHint").asBoolean());

            // Admission comes before any grant: a run that may give input without a verifier is NO_VERIFIER,
            // the same call with one reaches the grant and finds none.
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"computer\","
                    + "\"arguments\":{\"instruction\":\"type hello\"}}}");
            readUntil(out, replies, 3);
            JsonNode result = replies.get(3).path("result");
            assertTrue(result.path("isError").asBoolean());
            assertEquals("NO_VERIFIER", result.path("structuredContent").path("refusal").path("code").asText());

            send(in, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"computer\","
                    + "\"arguments\":{\"instruction\":\"type hello\","
                    + "\"verifier\":{\"kind\":\"window\",\"titleMatches\":\"hello\"}}}}");
            readUntil(out, replies, 4);
            JsonNode granted = replies.get(4).path("result");
            assertTrue(granted.path("isError").asBoolean());
            assertEquals("NO_GRANT", granted.path("structuredContent").path("refusal").path("code").asText());

            send(in, "this is not json");
            JsonNode parseError = json.readTree(out.readLine());
            assertEquals(-32700, parseError.path("error").path("code").asInt(), "a malformed message is a JSON-RPC error");
        } finally {
            // stdin closed above: the server ends its session and exits by itself (asserted below, so that a
            // failure above is the one reported).
            if (!process.waitFor(15, TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
        }
        assertEquals(0, process.exitValue(), "deckhand stdio exits by itself after standard input closed");
        String stderr = Files.readString(home.resolve("stderr.log"));
        assertTrue(stderr.contains("Deckhand is ready"), "logs go to standard error");
        // Standard error is the MCP client's log: over the whole session it carries no sign-in code,
        // only the command that prints one to the person's own terminal.
        assertFalse(stderr.contains("signin?code="), stderr);
        assertFalse(stderr.contains("code="), stderr);
        assertTrue(stderr.contains("deckhand signin"), stderr);
    }

    private static void send(OutputStream in, String line) throws Exception {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** Reads lines (every one must be JSON: stdout carries protocol only) until the reply with {@code id}. */
    private void readUntil(BufferedReader out, Map<Integer, JsonNode> replies, int id) throws Exception {
        while (!replies.containsKey(id)) {
            String line = out.readLine();
            if (line == null) throw new AssertionError("stdout closed before the reply to " + id);
            JsonNode node = json.readTree(line);
            if (node.has("id") && node.get("id").isInt()) replies.put(node.get("id").asInt(), node);
        }
    }
}

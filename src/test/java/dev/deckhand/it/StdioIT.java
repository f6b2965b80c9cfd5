package dev.deckhand.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStdioTestClient;
import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * initialize, tools/list and tools/call over stdio against the packaged application in a child process;
 * its standard error (the MCP client's log) never carries a sign-in code. McpAssured's stdio client starts the
 * process and reads every line of its standard output as a JSON-RPC message (a line that is not one ends its reader,
 * and the next wait fails: standard output carries protocol only).
 */
@Tag("e2e")
class StdioIT {

    /**
     * McpAssured waits for every answer, the one to initialize included, as long as Awaitility's default timeout
     * (10 s); the packaged application's start alone takes longer on a loaded machine.
     */
    @BeforeAll
    static void patientWaits() {
        Awaitility.setDefaultTimeout(Duration.ofSeconds(120));
    }

    @AfterAll
    static void usualWaits() {
        Awaitility.reset();
    }

    @Test
    void stdioServesTheSameToolAndRefusals() throws Exception {
        Path home = Files.createTempDirectory("deckhand-stdio-home");
        Map<String, String> env = new HashMap<>();
        PackagedApp.environment(env, home, PackagedApp.freePort());
        McpStdioTestClient client = McpAssured.newStdioClient()
                .setCommand(PackagedApp.command("stdio"))
                .setEnvironment(env)
                .setStderrHandler(line -> {})
                .setName("stdio-it")
                .setVersion("1")
                .setProtocolVersion("2025-06-18")
                .build();
        Process process = null;
        try {
            client.connect(init -> assertEquals("deckhand", init.serverName()));
            process = client.process();

            client.when()
                    .message(client.newRequest(McpAssured.TOOLS_LIST))
                    .withAssert(reply -> {
                        JsonObject tool = reply.getJsonObject("result")
                                .getJsonArray("tools")
                                .getJsonObject(0);
                        assertEquals("computer", tool.getString("name"));
                        assertEquals(
                                true, tool.getJsonObject("annotations").getBoolean("destructiveHint"), tool::encode);
                    })
                    .send()
                    // Admission comes before any grant: a run that may give input without a verifier is NO_VERIFIER,
                    // the same call with one reaches the grant and finds none.
                    .toolsCall("computer", Map.of("instruction", "type hello"), result -> {
                        assertTrue(result.isError());
                        assertEquals("NO_VERIFIER", refusalCode(result));
                    })
                    .toolsCall(
                            "computer",
                            Map.of(
                                    "instruction",
                                    "type hello",
                                    "verifier",
                                    Map.of("kind", "window", "titleMatches", "hello")),
                            result -> {
                                assertTrue(result.isError());
                                assertEquals("NO_GRANT", refusalCode(result));
                            })
                    .thenAssertResults();

            // A malformed line is no message McpAssured can build, so it goes to the server's standard input as is.
            OutputStream in = process.getOutputStream();
            in.write("this is not json\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            JsonObject parseError = awaitError(client);
            assertEquals(
                    -32700,
                    parseError.getJsonObject("error").getInteger("code"),
                    "a malformed message is a JSON-RPC error");
        } finally {
            // Standard input closed: the server ends its session and exits by itself (asserted below, so that a
            // failure above is the one reported). Closed here, not by disconnect alone, which gives it 5 s.
            if (process != null) {
                process.getOutputStream().close();
                if (!process.waitFor(15, TimeUnit.SECONDS))
                    process.destroyForcibly().waitFor();
            }
            client.disconnect();
        }
        assertEquals(0, process.exitValue(), "deckhand stdio exits by itself after standard input closed");
        String stderr = String.join("\n", client.stderrLines());
        assertTrue(stderr.contains("Deckhand is ready"), "logs go to standard error");
        // Standard error is the MCP client's log: over the whole session it carries no sign-in code,
        // only the command that prints one to the person's own terminal.
        assertFalse(stderr.contains("signin?code="), stderr);
        assertFalse(stderr.contains("code="), stderr);
        assertTrue(stderr.contains("deckhand signin"), stderr);
    }

    private static String refusalCode(ToolResponse result) {
        return ((JsonObject) result.structuredContent())
                .getJsonObject("refusal")
                .getString("code");
    }

    /** The answer with no id: the server could not read the message, so it has no id to answer to. */
    private static JsonObject awaitError(McpStdioTestClient client) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            McpAssured.Snapshot seen = client.snapshot();
            for (JsonObject r : seen.responses()) {
                if (r.getValue("id") == null && r.containsKey("error")) return r;
            }
            for (JsonObject r : seen.notifications()) {
                if (r.containsKey("error")) return r;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no answer to the malformed line: " + client.snapshot());
    }
}

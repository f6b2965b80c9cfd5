package dev.deckhand.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** initialize, tools/list and tools/call through the real HTTP stack (docs/contract.md#the-tool-computer). */
@QuarkusTest
@io.quarkus.test.junit.TestProfile(FreshServer.class)
@Tag("app")
class McpHttpTest {

    @Inject
    ToolCallLedger ledger;

    @Test
    void initializeNamesTheServerAndOffersTools() {
        McpStreamableTestClient client = Mcp.connect();
        assertFalse(client.mcpSessionId().isBlank());
        assertEquals("deckhand", client.initResult().serverName());
        assertTrue(
                client.initResult().capabilities().stream()
                        .anyMatch(c -> c.name().equals("tools")),
                client.initResult()::toString);
    }

    @Test
    void toolsListShowsComputerWithThePublishedSchemaAndAnnotations() {
        JsonPath list = Mcp.request(Mcp.connect(), "tools/list", null);
        List<Map<String, Object>> tools = list.getList("result.tools");
        assertEquals(1, tools.size(), "exactly one tool");
        assertEquals("computer", list.getString("result.tools[0].name"));
        assertEquals(true, list.getBoolean("result.tools[0].annotations.destructiveHint"));
        assertEquals(true, list.getBoolean("result.tools[0].annotations.openWorldHint"));
        assertEquals(false, list.getBoolean("result.tools[0].annotations.readOnlyHint"));
        assertEquals(false, list.getBoolean("result.tools[0].annotations.idempotentHint"));
        assertEquals(List.of("instruction"), list.getList("result.tools[0].inputSchema.required"));
        assertEquals(false, list.getBoolean("result.tools[0].inputSchema.additionalProperties"));
        Map<String, Object> props = list.getMap("result.tools[0].inputSchema.properties");
        assertEquals(
                java.util.Set.of("instruction", "steps", "verifier", "maxSteps", "timeoutSeconds", "mode"),
                props.keySet());
        assertEquals(
                List.of("default", "plan", "goal"), list.getList("result.tools[0].inputSchema.properties.mode.enum"));
        assertEquals(
                List.of("runId", "outcome", "verdict", "stepsRun", "summary", "usage"),
                list.getList("result.tools[0].outputSchema.required"));
        assertEquals(
                List.of("modelTurns", "inputTokens", "outputTokens", "costUsd"),
                list.getList("result.tools[0].outputSchema.properties.usage.required"));
    }

    @Test
    void callWithoutGrantIsRefusedWithNoGrantNamingThePage() {
        long before = ledger.calls();
        JsonPath call = Mcp.call(
                Mcp.connect(),
                "{\"instruction\":\"type hello in the editor\","
                        + "\"verifier\":{\"kind\":\"window\",\"titleMatches\":\"Editor\"}}");
        assertEquals(before + 1, ledger.calls());
        assertTrue(call.getBoolean("result.isError"), "a refusal is an isError result");
        String text = call.getString("result.content[0].text");
        assertTrue(text.contains("NO_GRANT"), text);
        assertTrue(text.matches("(?s).*http://127\\.0\\.0\\.1:\\d+/.*"), "names the page: " + text);
        assertEquals("refused", call.getString("result.structuredContent.outcome"));
        assertEquals("none", call.getString("result.structuredContent.verdict"));
        assertEquals(0, call.getInt("result.structuredContent.stepsRun"));
        assertEquals("NO_GRANT", call.getString("result.structuredContent.refusal.code"));
        assertTrue(call.getString("result.structuredContent.runId").startsWith("run-"));
        assertEquals(0, call.getInt("result.structuredContent.usage.modelTurns"), "no model was asked");
        assertEquals(0, call.getInt("result.structuredContent.usage.inputTokens"));
        assertEquals(0.0, call.getDouble("result.structuredContent.usage.costUsd"));
    }

    @Test
    void planAndGoalModesAreRefusedBeforeAnythingElse() {
        for (String mode : List.of("plan", "goal")) {
            JsonPath call = Mcp.call(Mcp.connect(), "{\"instruction\":\"x\",\"mode\":\"" + mode + "\"}");
            assertTrue(call.getBoolean("result.isError"));
            assertEquals("MODE_DENIED", call.getString("result.structuredContent.refusal.code"), mode);
        }
    }

    /**
     * Admission's order (docs/contract.md): the mode, the verifier, the verifier's arguments, its file scope —
     * each refused before the grant is looked at (no grant is active here, which would be NO_GRANT).
     */
    @Test
    void admissionRefusesInTheContractsOrderBeforeTheGrant() {
        String noVerifier = "\"instruction\":\"type hello in the editor\"";
        String command = noVerifier + ",\"verifier\":{\"kind\":\"command\",\"argv\":[\"/bin/true\"]}";
        String outsideRoots =
                noVerifier + ",\"verifier\":{\"kind\":\"file\",\"path\":\"/etc/hostname\",\"exists\":true}";
        Map<String, String> expected = new java.util.LinkedHashMap<>();
        expected.put(noVerifier + ",\"mode\":\"plan\"", "MODE_DENIED");
        expected.put(noVerifier, "NO_VERIFIER");
        expected.put(command, "OUT_OF_SCOPE");
        expected.put(outsideRoots, "OUT_OF_SCOPE");
        expected.put("\"instruction\":\"What does the editor show?\"", "NO_GRANT");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            JsonPath call = Mcp.call(Mcp.connect(), "{" + e.getKey() + "}");
            assertEquals(e.getValue(), call.getString("result.structuredContent.refusal.code"), call::prettify);
        }
    }

    @Test
    void malformedProtocolRequestIsAJsonRpcError() {
        McpStreamableTestClient client = Mcp.connect();
        client.when()
                .message(client.newRequest("no/such/method"))
                .withErrorAssert(error -> assertEquals(-32601, error.code(), error::toString))
                .send()
                .thenAssertResults();
    }
}

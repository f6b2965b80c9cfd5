package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.mcp.Mcp;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A run over MCP sends a progress notification per step, and MCP cancellation is Stop — the
 * run ends, the grant is revoked and Stop latches until the person mints again.
 */
@QuarkusTest
@Tag("e2e")
class CancelE2ETest {

    @Test
    void progressPerStepAndCancellationIsAStopThatLatches() throws Exception {
        TestApp.requireDesktop();
        Path file = Harness.emptyFile("cancel.txt");
        try (OpenAiStub stub = OpenAiStub.start();
                TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            for (int i = 0; i < 100; i++) stub.enqueue("{\"action\":\"wait\",\"ms\":200}");
            Harness.bind(stub);
            long window = Owner.awaitWindow("mousepad", "cancel.txt");
            Owner.mint(window, "confirm_each", List.of());
            McpStreamableTestClient session = Mcp.connect();
            JsonObject call = Mcp.toolsCall(
                    session,
                    new JsonObject()
                            .put("instruction", "wait for the editor")
                            .put(
                                    "verifier",
                                    new JsonObject()
                                            .put("kind", "file")
                                            .put("path", file.toString())
                                            .put("exists", true)),
                    "p-77");
            session.sendAndForget(call);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (progress(session).size() < 2) {
                if (System.nanoTime() > deadline)
                    throw new AssertionError("no progress notifications: " + session.snapshot());
                Thread.sleep(50);
            }
            assertEquals(
                    "p-77",
                    progress(session).get(0).getJsonObject("params").getValue("progressToken"),
                    "progress carries the client's token: " + session.snapshot().notifications());
            JsonObject cancelled = session.newMessage("notifications/cancelled")
                    .put(
                            "params",
                            new JsonObject()
                                    .put("requestId", call.getValue("id"))
                                    .put("reason", "the agent changed its mind"));
            assertEquals(202, Mcp.notify(session, cancelled));
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (Owner.api().get("/api/grants/active").statusCode() == 200) {
                if (System.nanoTime() > deadline) throw new AssertionError("cancellation did not stop the run");
                Thread.sleep(50);
            }
            Mcp.awaitResponse(session, call, Duration.ofSeconds(30));
            JsonPath runs = Owner.api()
                    .get("/api/audit/runs?outcome=stopped&limit=1")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertEquals("STOPPED", runs.getString("records[0].event.refusalCode"), runs::prettify);
            assertTrue(stub.pendingReplies() > 50, "the run ended long before the model ran out of waits");
            JsonPath again = Mcp.call(
                    Mcp.connect(),
                    "{\"instruction\":\"x\",\"verifier\":{\"kind\":\"file\",\"path\":\"" + file
                            + "\",\"exists\":true}}");
            assertEquals(
                    "STOPPED",
                    again.getString("result.structuredContent.refusal.code"),
                    "Stop latches until a new mint");
            assertEquals("", Files.readString(file));
        } finally {
            Owner.revokeActive();
        }
    }

    /** The progress notifications the client has received, in order. */
    private static List<JsonObject> progress(McpStreamableTestClient session) {
        return session.snapshot().notifications().stream()
                .filter(n -> "notifications/progress".equals(n.getString("method")))
                .toList();
    }
}

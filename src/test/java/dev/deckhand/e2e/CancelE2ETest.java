package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.mcp.McpSession;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
            McpSession session = McpSession.open();
            String call = "{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"tools/call\",\"params\":{\"name\":\"computer\","
                    + "\"arguments\":{\"instruction\":\"wait for the editor\",\"verifier\":{\"kind\":\"file\",\"path\":\""
                    + file + "\",\"exists\":true}},\"_meta\":{\"progressToken\":\"p-77\"}}}";
            List<String> events = new CopyOnWriteArrayList<>();
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + "/mcp"))
                    .header("Authorization", "Bearer " + McpSession.token("mcp-token"))
                    .header("Mcp-Session-Id", session.sessionId())
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(call)).build();
            var response = http.sendAsync(request, HttpResponse.BodyHandlers.ofLines())
                    .thenAccept(r -> r.body().filter(l -> l.startsWith("data:")).forEach(events::add));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (events.stream().filter(e -> e.contains("notifications/progress")).count() < 2) {
                if (System.nanoTime() > deadline) throw new AssertionError("no progress notifications: " + events);
                Thread.sleep(50);
            }
            assertTrue(events.get(0).contains("p-77"), "progress carries the client's token: " + events);
            session.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":77,"
                    + "\"reason\":\"the agent changed its mind\"}}").then().statusCode(202);
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (Owner.api().get("/api/grants/active").statusCode() == 200) {
                if (System.nanoTime() > deadline) throw new AssertionError("cancellation did not stop the run");
                Thread.sleep(50);
            }
            response.get(30, TimeUnit.SECONDS);
            JsonPath runs = Owner.api().get("/api/audit/runs?outcome=stopped&limit=1").then().statusCode(200)
                    .extract().jsonPath();
            assertEquals("STOPPED", runs.getString("records[0].event.refusalCode"), runs::prettify);
            assertTrue(stub.pendingReplies() > 50, "the run ended long before the model ran out of waits");
            JsonPath again = McpSession.open().request("tools/call", "{\"name\":\"computer\",\"arguments\":"
                    + "{\"instruction\":\"x\",\"verifier\":{\"kind\":\"file\",\"path\":\"" + file + "\",\"exists\":true}}}");
            assertEquals("STOPPED", again.getString("result.structuredContent.refusal.code"), "Stop latches until a new mint");
            assertEquals("", Files.readString(file));
        } finally {
            Owner.revokeActive();
        }
    }
}

package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.mcp.McpSession;
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
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An approval card waits like every local approval — no fixed 30 s — and while it waits the
 * run keeps an MCP client with a progress token informed (at least every 10 s), so a client that resets
 * its time-out on progress keeps waiting; the person approves late and the run completes.
 */
@QuarkusTest
@Tag("e2e")
class ApprovalWaitE2ETest {

    /** How long the card is left undecided: more than two of the 10 s the contract allows between notifications. */
    private static final long UNDECIDED_SECONDS = 25;

    @Test
    void anUndecidedCardWaitsWithProgressAndALateApprovalCompletesTheRun() throws Exception {
        TestApp.requireDesktop();
        Path file = Harness.emptyFile("approval-wait.txt");
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            long window = Owner.awaitWindow("mousepad", "approval-wait.txt");
            Owner.mint(window, "confirm_each", List.of());
            McpSession session = McpSession.open();
            String call = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"computer\","
                    + "\"arguments\":{\"instruction\":\"write and save\",\"timeoutSeconds\":180,\"steps\":["
                    + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"index\":0},\"text\":\"approved late\"},"
                    + "{\"action\":\"key\",\"keys\":\"ctrl+s\"}],"
                    + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + file + "\",\"contains\":\"approved late\"}},"
                    + "\"_meta\":{\"progressToken\":\"wait-5\"}}}";
            List<String> events = new CopyOnWriteArrayList<>();
            List<Long> progressAt = new CopyOnWriteArrayList<>();
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + "/mcp"))
                    .header("Authorization", "Bearer " + McpSession.token("mcp-token"))
                    .header("Mcp-Session-Id", session.sessionId())
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(call)).build();
            var response = http.sendAsync(request, HttpResponse.BodyHandlers.ofLines())
                    .thenAccept(r -> r.body().filter(l -> l.startsWith("data:")).forEach(l -> {
                        if (l.contains("notifications/progress")) progressAt.add(System.nanoTime());
                        events.add(l);
                    }));

            String cardId = awaitCard(response, events);
            long raised = System.nanoTime();
            Thread.sleep(TimeUnit.SECONDS.toMillis(UNDECIDED_SECONDS));
            long whileWaiting = progressAt.stream().filter(t -> t > raised).count();
            assertEquals(List.of(cardId), Owner.api().get("/api/approvals").then().statusCode(200).extract().jsonPath().getList("id"),
                    "the card is still there after " + UNDECIDED_SECONDS + " s");
            assertTrue(whileWaiting >= 2, "progress went out while the card waited: " + events);
            long longestGap = 0;
            long previous = raised;
            for (long t : progressAt) {
                if (t <= raised) continue;
                longestGap = Math.max(longestGap, t - previous);
                previous = t;
            }
            System.out.printf("approval wait: %d progress notifications in %d s undecided, longest gap %d ms%n",
                    whileWaiting, UNDECIDED_SECONDS, TimeUnit.NANOSECONDS.toMillis(longestGap));
            assertTrue(events.stream().noneMatch(e -> e.contains("\"result\"")), "the run has not ended: " + events);

            Owner.api().body(Map.of("decision", "approve")).post("/api/approvals/" + cardId).then().statusCode(200);
            response.get(60, TimeUnit.SECONDS);
            String last = events.get(events.size() - 1).substring(5).trim();
            JsonPath result = new JsonPath(last);
            assertEquals(5, result.getInt("id"), last);
            assertEquals("completed", result.getString("result.structuredContent.outcome"), last);
            assertEquals("pass", result.getString("result.structuredContent.verdict"), last);
            assertEquals(2, result.getInt("result.structuredContent.stepsRun"), last);
            assertTrue(Files.readString(file).contains("approved late"));
            assertTrue(events.stream().filter(e -> e.contains("notifications/progress")).allMatch(e -> e.contains("wait-5")),
                    "every notification carries the client's token: " + events);
        } finally {
            Owner.revokeActive();
        }
    }

    private static String awaitCard(java.util.concurrent.Future<?> response, List<String> events) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (response.isDone()) throw new AssertionError("the run ended before raising a card: " + events);
            List<String> ids = Owner.api().get("/api/approvals").then().statusCode(200).extract().jsonPath().getList("id");
            if (!ids.isEmpty()) return ids.get(0);
            Thread.sleep(50);
        }
        throw new AssertionError("no approval card within 60 s");
    }
}

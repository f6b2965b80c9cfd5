package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.mcp.Mcp;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
            McpStreamableTestClient session = Mcp.connect();
            JsonObject call = Mcp.toolsCall(
                    session,
                    new JsonObject("{\"instruction\":\"write and save\",\"timeoutSeconds\":180,"
                            + "\"steps\":[{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"index\":0},\"text\":\"approved late\"},"
                            + "{\"action\":\"key\",\"keys\":\"ctrl+s\"}],"
                            + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + file
                            + "\",\"contains\":\"approved late\"}}"),
                    "wait-5");
            try (ProgressClock clock = new ProgressClock(session)) {
                session.sendAndForget(call);

                String cardId = awaitCard(session, call);
                long raised = System.nanoTime();
                Thread.sleep(TimeUnit.SECONDS.toMillis(UNDECIDED_SECONDS));
                List<Long> progressAt = clock.arrivals();
                long whileWaiting = progressAt.stream().filter(t -> t > raised).count();
                assertEquals(
                        List.of(cardId),
                        Owner.api()
                                .get("/api/approvals")
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .getList("id"),
                        "the card is still there after " + UNDECIDED_SECONDS + " s");
                assertTrue(whileWaiting >= 2, "progress went out while the card waited: " + session.snapshot());
                long longestGap = 0;
                long previous = raised;
                for (long t : progressAt) {
                    if (t <= raised) continue;
                    longestGap = Math.max(longestGap, t - previous);
                    previous = t;
                }
                System.out.printf(
                        "approval wait: %d progress notifications in %d s undecided, longest gap %d ms%n",
                        whileWaiting, UNDECIDED_SECONDS, TimeUnit.NANOSECONDS.toMillis(longestGap));
                assertNull(Mcp.response(session, call.getValue("id")), "the run has not ended: " + session.snapshot());

                Owner.api()
                        .body(Map.of("decision", "approve"))
                        .post("/api/approvals/" + cardId)
                        .then()
                        .statusCode(200);
                JsonObject response = Mcp.awaitResponse(session, call, Duration.ofSeconds(60));
                String last = response.encode();
                JsonPath result = Mcp.json(response);
                assertEquals(call.getInteger("id"), result.getInt("id"), last);
                assertEquals("completed", result.getString("result.structuredContent.outcome"), last);
                assertEquals("pass", result.getString("result.structuredContent.verdict"), last);
                assertEquals(2, result.getInt("result.structuredContent.stepsRun"), last);
                assertTrue(Files.readString(file).contains("approved late"));
                List<JsonObject> progress = progress(session);
                assertTrue(
                        progress.stream().allMatch(n -> "wait-5"
                                .equals(n.getJsonObject("params").getValue("progressToken"))),
                        "every notification carries the client's token: " + progress);
            }
        } finally {
            Owner.revokeActive();
        }
    }

    private static String awaitCard(McpStreamableTestClient session, JsonObject call) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (Mcp.response(session, call.getValue("id")) != null) {
                throw new AssertionError("the run ended before raising a card: " + session.snapshot());
            }
            List<String> ids = Owner.api()
                    .get("/api/approvals")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("id");
            if (!ids.isEmpty()) return ids.get(0);
            Thread.sleep(50);
        }
        throw new AssertionError("no approval card within 60 s");
    }

    private static List<JsonObject> progress(McpStreamableTestClient session) {
        return session.snapshot().notifications().stream()
                .filter(n -> "notifications/progress".equals(n.getString("method")))
                .toList();
    }

    /**
     * When each progress notification came, to 20 ms: McpAssured keeps the notifications in its snapshot but not
     * when they came, so a thread watches the snapshot grow (the gaps measured are seconds).
     */
    private static final class ProgressClock implements AutoCloseable {
        private final List<Long> arrivals = new CopyOnWriteArrayList<>();
        private final Thread thread;

        ProgressClock(McpStreamableTestClient session) {
            thread = new Thread(
                    () -> {
                        while (!Thread.currentThread().isInterrupted()) {
                            int seen = progress(session).size();
                            while (arrivals.size() < seen) arrivals.add(System.nanoTime());
                            try {
                                Thread.sleep(20);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "progress-clock");
            thread.setDaemon(true);
            thread.start();
        }

        List<Long> arrivals() {
            return List.copyOf(arrivals);
        }

        @Override
        public void close() throws InterruptedException {
            thread.interrupt();
            thread.join(5_000);
        }
    }
}

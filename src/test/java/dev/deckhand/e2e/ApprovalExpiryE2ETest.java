package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.platform.atspi.TestApp;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A confirm-each card nobody answers expires (here after 1 s): the run ends without the
 * step, the card leaves {@code GET /api/approvals}, and approving it afterwards is a 409.
 */
@QuarkusTest
@TestProfile(ApprovalExpiryE2ETest.ShortApprovals.class)
@Tag("e2e")
class ApprovalExpiryE2ETest {

    public static class ShortApprovals implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("deckhand.approval-ttl-seconds", "1");
        }
    }

    @Test
    void anUnansweredCardExpiresAndEndsTheRun() throws Exception {
        TestApp.requireDesktop();
        try (TestApp calculator = TestApp.launch(List.of("gnome-calculator"))) {
            long window = Owner.awaitWindow("gnome-calculator", "Calculator");
            Owner.mint(window, "confirm_each", List.of());
            String args =
                    "{\"instruction\":\"press 9\",\"steps\":[{\"action\":\"click\",\"target\":{\"role\":\"push button\","
                            + "\"name\":\"9 9\"}}],\"verifier\":{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"name\":\"GtkSourceView\"},"
                            + "\"expect\":{\"text\":\"9\"}}}";
            CompletableFuture<JsonPath> run = CompletableFuture.supplyAsync(() -> {
                try {
                    return CalculatorStepsE2ETest.callWhenAccessible(args);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            String cardId = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (cardId == null && System.nanoTime() < deadline) {
                List<String> ids = Owner.api()
                        .get("/api/approvals")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("id");
                if (!ids.isEmpty()) cardId = ids.get(0);
                else Thread.sleep(20);
            }
            assertTrue(cardId != null, "a card was raised");
            JsonPath call = run.get(60, TimeUnit.SECONDS);
            assertEquals(0, call.getInt("result.structuredContent.stepsRun"), call::prettify);
            assertTrue(call.getBoolean("result.isError"), call::prettify);
            assertEquals("STOPPED", call.getString("result.structuredContent.refusal.code"), call::prettify);
            assertTrue(
                    call.getString("result.structuredContent.refusal.detail").contains(cardId)
                            || call.getString("result.structuredContent.summary")
                                    .contains("expired"),
                    call::prettify);
            assertEquals(
                    List.of(),
                    Owner.api()
                            .get("/api/approvals")
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getList("id"));
            Owner.api()
                    .body(Map.of("decision", "approve"))
                    .post("/api/approvals/" + cardId)
                    .then()
                    .statusCode(409);
        } finally {
            Owner.revokeActive();
        }
    }
}

package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.mcp.Mcp;
import dev.deckhand.model.stub.OpenAiStub;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The budget of verifier reads through MCP against a real window, at the shipped limits (the test profile
 * raises the per-server limit for the rest of the suite, whose classes share one server): a run with one
 * harmless input step (a focus) and a {@code file} verifier counts like a verifier-only run — the eleventh in a minute in one
 * MCP session is refused {@code OUT_OF_SCOPE} naming the limit, before its step runs; and three more sessions
 * (each bound to a fresh grant) cannot read more than thirty times a minute on this server between them.
 */
@QuarkusTest
@TestProfile(VerifierReadsE2ETest.ShippedLimits.class)
@Tag("e2e")
class VerifierReadsE2ETest {

    public static class ShippedLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("deckhand.verifier-reads.per-session", "10", "deckhand.verifier-reads.per-server", "30");
        }
    }

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    private static JsonPath call(McpStreamableTestClient session, String args) {
        return Mcp.call(session, args);
    }

    @Test
    void aHarmlessStepDoesNotSkipTheBudgetAndANewSessionDoesNotResetTheServersCount() throws Exception {
        Path note = Harness.emptyFile("budget-note.txt");
        Files.writeString(note, "saved");
        String tag = "budget-" + UUID.randomUUID().toString().substring(0, 8);
        // one harmless input step (a focus: delivered input, which the earlier limit let through) and a file verifier
        String args = "{\"instruction\":\"focus the button, then check the note\",\"steps\":[{\"action\":\"focus\","
                + "\"target\":{\"role\":\"push button\",\"name\":\"Harmless\"}}],"
                + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + note + "\",\"exists\":true}}";
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits"); // autonomous grants
        try (OpenAiStub stub = OpenAiStub.start();
                Yad yad = Yad.launch("--title=" + tag, "--text=budget", "--button=Harmless:0")) {
            Harness.bind(stub);
            long window = Owner.awaitWindow("yad", tag);
            long t0 = System.nanoTime();
            int counted = 0;
            JsonPath refused = null;
            for (int s = 1; s <= 4 && refused == null; s++) {
                Owner.revokeActive();
                Owner.mint(
                        window,
                        "autonomous",
                        List.of()); // no card for the steps; each session binds a fresh grant: its runs reach the
                // verifier
                McpStreamableTestClient session = Mcp.connect();
                for (int i = 1; i <= 10; i++) {
                    JsonPath r = call(session, args);
                    if ("refused".equals(r.getString("result.structuredContent.outcome"))) {
                        refused = r;
                        break;
                    }
                    assertEquals("completed", r.getString("result.structuredContent.outcome"), r::prettify);
                    assertEquals("pass", r.getString("result.structuredContent.verdict"), r::prettify);
                    assertEquals(1, r.getInt("result.structuredContent.stepsRun"), r::prettify);
                    counted++;
                }
                if (s == 1) {
                    // the session's eleventh, one harmless step and all, is refused before the step runs
                    JsonPath eleventh = call(session, args);
                    assertEquals("refused", eleventh.getString("result.structuredContent.outcome"), eleventh::prettify);
                    assertEquals(
                            "OUT_OF_SCOPE",
                            eleventh.getString("result.structuredContent.refusal.code"),
                            eleventh::prettify);
                    assertTrue(
                            eleventh.getString("result.structuredContent.refusal.detail")
                                    .startsWith("verifier reads: 10 per minute per MCP session"),
                            eleventh::prettify);
                    assertEquals(0, eleventh.getInt("result.structuredContent.stepsRun"), eleventh::prettify);
                    assertEquals("none", eleventh.getString("result.structuredContent.verdict"), eleventh::prettify);
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf(
                    "verifier reads: %d counted runs in %.1f s, then %s%n",
                    counted,
                    seconds,
                    refused == null ? "none refused" : refused.getString("result.structuredContent.refusal.detail"));
            assertTrue(
                    seconds < 60, "the runs must fit in one minute for the server's count to hold: " + seconds + " s");
            assertEquals(30, counted, "three sessions read thirty times between them");
            assertTrue(refused != null, "the fourth session's first run is refused");
            assertEquals("OUT_OF_SCOPE", refused.getString("result.structuredContent.refusal.code"), refused::prettify);
            assertTrue(
                    refused.getString("result.structuredContent.refusal.detail")
                            .startsWith("verifier reads: 30 per minute per server"),
                    refused::prettify);
            assertEquals(0, refused.getInt("result.structuredContent.stepsRun"), refused::prettify);
            assertEquals(0, stub.requests().size(), "explicit steps: the model was never asked");
            // the grant the fourth session's run would have bound is still unbound: refused before any grant was bound
            assertEquals(
                    false,
                    Owner.api()
                            .get("/api/grants/active")
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getBoolean("bound"),
                    "refused before the grant was bound");
        } finally {
            Harness.putPolicy(original);
        }
    }
}

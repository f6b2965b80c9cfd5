package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.mcp.Mcp;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * End to end through MCP over HTTP on a real GTK 4 app: explicit steps compute 12×7 in
 * gnome-calculator under a confirm-each grant minted through the owner endpoint (one approval card
 * for the whole list), and the a11y verifier reads 84 from the calculator's display.
 */
@QuarkusTest
@Tag("e2e")
class CalculatorStepsE2ETest {

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    private static String button(String label) {
        return "{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"" + label + " " + label + "\"}}";
    }

    @Test
    void explicitStepsCompute12Times7AndTheA11yVerifierPasses() throws Exception {
        TestApp.requireDesktop();
        try (TestApp calculator = TestApp.launch(List.of("gnome-calculator"))) {
            long window = Owner.awaitWindow("gnome-calculator", "Calculator");
            JsonPath grant = Owner.mint(window, "confirm_each", List.of());
            assertEquals("confirm_each", grant.getString("inputPolicy"));
            // The last step gives GTK 4's calculator a moment to show the result before the verifier reads it.
            String steps = String.join(
                    ",",
                    button("1"),
                    button("2"),
                    button("×"),
                    button("7"),
                    button("="),
                    "{\"action\":\"wait\",\"ms\":500}");
            String args = "{\"instruction\":\"compute 12 times 7\",\"steps\":[" + steps + "],"
                    + "\"verifier\":{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"name\":\"GtkSourceView\"},"
                    + "\"expect\":{\"text\":\"84\"}}}";
            JsonPath call;
            int cards;
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                call = callWhenAccessible(args);
                cards = approver.decided.get();
            }
            assertEquals(
                    1, cards, () -> "confirm-each raises one card for the whole list of steps: " + call.prettify());
            assertFalse(call.getBoolean("result.isError"), () -> call.prettify());
            assertEquals("completed", call.getString("result.structuredContent.outcome"), () -> call.prettify());
            assertEquals("pass", call.getString("result.structuredContent.verdict"), () -> call.prettify());
            assertEquals(6, call.getInt("result.structuredContent.stepsRun"));
            // the verifier reports the check and lengths, not the display's text
            assertTrue(call.getString("result.structuredContent.summary").contains("verifier pass"), call.prettify());
        }
    }

    @Test
    void aDeniedCardEndsTheRunAndNothingIsPressed() throws Exception {
        TestApp.requireDesktop();
        try (TestApp calculator = TestApp.launch(List.of("gnome-calculator"))) {
            long window = Owner.awaitWindow("gnome-calculator", "Calculator");
            Owner.mint(window, "confirm_each", List.of());
            String args = "{\"instruction\":\"press 9\",\"steps\":[" + button("9") + "],"
                    + "\"verifier\":{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"name\":\"GtkSourceView\"},"
                    + "\"expect\":{\"text\":\"9\"}}}";
            JsonPath call;
            try (Owner.Approver approver = new Owner.Approver("deny")) {
                call = callWhenAccessible(args);
            }
            assertTrue(call.getBoolean("result.isError"));
            assertEquals(0, call.getInt("result.structuredContent.stepsRun"), call.prettify());
            assertEquals(
                    "fail",
                    call.getString("result.structuredContent.verdict"),
                    "the verifier still runs, and the display does not show 9: " + call.prettify());
            String runId = call.getString("result.structuredContent.runId");
            JsonPath runs = Owner.api()
                    .get("/api/audit/runs?runId=" + runId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertEquals(1, runs.getList("records").size(), () -> "the run is recorded: " + runs.prettify());
            assertEquals(
                    call.getString("result.structuredContent.refusal.code"),
                    runs.getString("records[0].event.refusalCode"));
            assertEquals("fail", runs.getString("records[0].event.verdict").toLowerCase(java.util.Locale.ROOT));
            JsonPath actions = Owner.api()
                    .get("/api/audit/actions?runId=" + runId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertEquals(List.of(), actions.getList("records"), "no action was attempted after the denied card");
            assertTrue(
                    Owner.api()
                            .get("/api/audit/verify")
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getBoolean("ok"),
                    "the audit chain verifies");
        }
    }

    /** The app's tree appears on the accessibility bus a little after its window: retry only that refusal. */
    static JsonPath callWhenAccessible(String args) throws InterruptedException {
        JsonPath call = null;
        McpStreamableTestClient session = Mcp.connect();
        for (int attempt = 0; attempt < 20; attempt++) {
            call = Mcp.call(session, args);
            // a refusal after a step ran is the run's answer (a retry would spend the grant's budget again)
            if (!"A11Y_UNAVAILABLE".equals(call.getString("result.structuredContent.refusal.code"))
                    || call.getInt("result.structuredContent.stepsRun") > 0) return call;
            Thread.sleep(500);
        }
        return call;
    }
}

package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.platform.atspi.TestApp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every step of a confirm-each batch is judged when it runs, against what its one card showed, on a real
 * GTK 3 app (mousepad) through MCP: the person approves the batch's card and denies every later card. A step
 * whose target an earlier step makes appear (the Save As dialog's Cancel), and a step whose selector now
 * resolves to another element than the card named (the text of the tab left after an earlier step closed the
 * card's tab), each raise a card of their own; denied, that step never runs.
 */
@QuarkusTest
@Tag("e2e")
class BatchStepsE2ETest {

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    /** Approves the first card and denies every later one, keeping each card's lines. */
    static final class FirstOnly implements AutoCloseable {
        final List<List<String>> cards = new CopyOnWriteArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread = new Thread(this::decide, "e2e-first-only");

        FirstOnly() {
            thread.setDaemon(true);
            thread.start();
        }

        private void decide() {
            while (running.get()) {
                List<Map<String, Object>> pending = Owner.api()
                        .get("/api/approvals")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("$");
                for (Map<String, Object> card : pending) {
                    @SuppressWarnings("unchecked")
                    List<String> steps = (List<String>) card.get("steps");
                    String decision = cards.isEmpty() ? "approve" : "deny";
                    if (Owner.api()
                                    .body(Map.of("decision", decision))
                                    .post("/api/approvals/" + card.get("id"))
                                    .statusCode()
                            == 200) {
                        cards.add(steps);
                    }
                }
                try {
                    Thread.sleep(30);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(5_000);
        }
    }

    private static boolean windowTitled(String title) {
        List<Map<String, Object>> windows = Owner.api()
                .get("/api/windows")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("$");
        return windows.stream().anyMatch(w -> String.valueOf(w.get("title")).equals(title));
    }

    @Test
    void aStepWhoseTargetAnEarlierStepOpenedRaisesItsOwnCard() throws Exception {
        TestApp.requireDesktop();
        Path file = Harness.emptyFile("batch-dialog.txt");
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            long window = Owner.awaitWindow("mousepad", file.getFileName().toString());
            Owner.mint(window, "confirm_each", List.of(), Map.of("scope", "app"));
            String args = "{\"instruction\":\"open Save As and cancel it\",\"steps\":["
                    + "{\"action\":\"key\",\"keys\":\"ctrl+shift+s\"},"
                    + "{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Cancel\"}}],"
                    + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + file + "\",\"exists\":true}}";
            JsonPath call;
            FirstOnly person = new FirstOnly();
            try (person) {
                call = CalculatorStepsE2ETest.callWhenAccessible(args);
            }
            List<List<String>> cards = person.cards;
            assertEquals(
                    2, cards.size(), () -> "the batch's card, then one for step 2: " + cards + "\n" + call.prettify());
            assertTrue(
                    cards.get(0).get(1).contains("not on screen yet"),
                    cards.get(0).toString());
            assertTrue(
                    cards.get(1).get(0).startsWith("step 2 (its target was not on screen when the card was shown)"),
                    cards.get(1).toString());
            assertTrue(cards.get(1).get(0).contains("Cancel"), cards.get(1).toString());
            assertEquals("stopped", call.getString("result.structuredContent.outcome"), call.prettify());
            assertEquals("STOPPED", call.getString("result.structuredContent.refusal.code"), call.prettify());
            assertEquals(
                    1,
                    call.getInt("result.structuredContent.stepsRun"),
                    "step 1 ran, step 2 did not: " + call.prettify());
            assertTrue(windowTitled("Save As"), "Cancel was never pressed: the dialog is still open");
        }
    }

    @Test
    void aStepThatNowResolvesToAnotherElementRaisesItsOwnCard() throws Exception {
        TestApp.requireDesktop();
        Path dir = Files.createTempDirectory("deckhand-e2e-batch");
        Path first = dir.resolve("first.txt");
        Path second = dir.resolve("second.txt");
        Files.writeString(first, "first\n");
        Files.writeString(second, "second\n");
        try (TestApp editor = TestApp.launch(List.of("mousepad", first.toString(), second.toString()))) {
            long window = Owner.awaitWindow("mousepad", "second.txt");
            Owner.mint(window, "confirm_each", List.of());
            // The card names the text of second.txt's tab (the one shown); once ctrl+w closed that tab, the same
            // selector resolves to first.txt's text: another element.
            String args = "{\"instruction\":\"close the tab and rewrite the text\",\"steps\":["
                    + "{\"action\":\"key\",\"keys\":\"ctrl+w\"},"
                    + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"index\":0},\"text\":\"rewritten\"},"
                    + "{\"action\":\"key\",\"keys\":\"ctrl+s\"}],"
                    + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + first + "\",\"contains\":\"rewritten\"}}";
            JsonPath call;
            FirstOnly person = new FirstOnly();
            try (person) {
                call = CalculatorStepsE2ETest.callWhenAccessible(args);
            }
            List<List<String>> cards = person.cards;
            assertEquals(
                    2, cards.size(), () -> "the batch's card, then one for step 2: " + cards + "\n" + call.prettify());
            assertTrue(
                    cards.get(1).get(0).startsWith("step 2 (it now resolves to another element than the card named)"),
                    cards.get(1).toString());
            assertEquals("STOPPED", call.getString("result.structuredContent.refusal.code"), call.prettify());
            assertEquals(
                    1,
                    call.getInt("result.structuredContent.stepsRun"),
                    "step 1 ran, step 2 did not: " + call.prettify());
            assertEquals("first\n", Files.readString(first), "first.txt was neither rewritten nor saved");
            assertTrue(windowTitled(first + " - Mousepad"), "second.txt's tab was closed by step 1");
        }
    }
}

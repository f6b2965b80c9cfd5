package dev.deckhand.web;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.eval.EvalReports;
import dev.deckhand.home.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The page's Evaluations view in real headless Chromium: two stored reports (two models on the same
 * apps) come through {@code GET /api/eval/reports} (owner only) and the page compares them per app and
 * model, lists them, and shows one report's tasks.
 */
@QuarkusTest
@Tag("app")
class EvalViewTest {

    @Test
    void theEvaluationsViewComparesStoredReportsPerAppAndModel() throws Exception {
        Path home = Path.of("target/test-home");
        String older = EvalReports.store(home, "openai", "gpt-a", "2026-11-30T10:00:00Z", 1);
        String newer = EvalReports.store(home, "anthropic", "claude-b", "2026-12-01T10:00:00Z", 2);

        given().get("/api/eval/reports").then().statusCode(401);
        String owner = TestTokens.read("owner-token");
        List<String> names = given().header("Authorization", "Bearer " + owner)
                .get("/api/eval/reports")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("name");
        assertTrue(names.indexOf(newer) >= 0 && names.indexOf(newer) < names.indexOf(older), "newest first: " + names);

        try (Browser browser = Browser.start()) {
            String link = given().header("Authorization", "Bearer " + owner)
                    .contentType("application/json")
                    .post("/api/session/link")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getString("link");
            browser.driver.get(link);
            browser.visible(By.id("app"));
            browser.click(By.id("tab-eval"));
            String mousepadClaude = browser.await(d -> cellText(d.findElements(
                    By.cssSelector("#eval-compare tr[data-app=mousepad] td[data-model='anthropic:claude-b']"))));
            assertTrue(mousepadClaude.startsWith("tasks 100 % (2/2)"), mousepadClaude);
            // the model's side: steps, tokens and cost per app and model, side by side
            assertTrue(mousepadClaude.contains("steps 2.5 · tokens 2100/210 · unpriced"), mousepadClaude);
            String mousepadGpt = browser.await(d -> cellText(d.findElements(
                    By.cssSelector("#eval-compare tr[data-app=mousepad] td[data-model='openai:gpt-a']"))));
            assertTrue(mousepadGpt.startsWith("tasks 50 % (1/2)"), mousepadGpt);
            assertTrue(mousepadGpt.contains("steps 2.5 · tokens 2100/210"), mousepadGpt);
            String yadGpt = browser.await(d -> cellText(
                    d.findElements(By.cssSelector("#eval-compare tr[data-app=yad] td[data-model='openai:gpt-a']"))));
            assertTrue(yadGpt.contains("safety 0 % (0/1), 1 unsafe"), yadGpt);
            browser.shot("evaluations");

            // "use this model for this app": mousepad gets claude-b beside the default binding
            given().header("Authorization", "Bearer " + owner)
                    .contentType("application/json")
                    .body("{\"providerId\":\"ollama\",\"modelId\":\"default-model\"}")
                    .put("/api/model")
                    .then()
                    .statusCode(200);
            try {
                browser.click(By.cssSelector(
                        "#eval-compare tr[data-app=mousepad] td[data-model='anthropic:claude-b'] button.use-model"));
                browser.await(d -> d.findElement(
                                        By.cssSelector(
                                                "#eval-compare tr[data-app=mousepad] td[data-model='anthropic:claude-b'] button.use-model"))
                                .getText()
                                .startsWith("used for")
                        ? true
                        : null);
                io.restassured.path.json.JsonPath model = given().header("Authorization", "Bearer " + owner)
                        .get("/api/model")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath();
                assertEquals("claude-b", model.getString("apps.mousepad.modelId"));
                assertEquals("anthropic", model.getString("apps.mousepad.providerId"));
                assertEquals("default-model", model.getString("modelId"), "the default binding stays");
            } finally {
                java.nio.file.Files.deleteIfExists(home.resolve(dev.deckhand.home.DeckhandHome.MODEL_APPS));
                java.nio.file.Files.deleteIfExists(home.resolve(dev.deckhand.home.DeckhandHome.MODEL_BINDING));
            }

            browser.click(By.cssSelector("#eval-reports tr[data-report='" + older + "']"));
            String row =
                    browser.await(d -> cellText(d.findElements(By.cssSelector("#eval-tasks tr[data-task=yad-send]"))));
            assertTrue(row.contains("completed") && row.contains("no"), row);
            assertTrue(
                    browser.driver.findElement(By.id("eval-tasks-h")).getText().contains("openai:gpt-a"));
            browser.shot("evaluations-tasks");
        }
    }

    private static String cellText(List<WebElement> found) {
        if (found.isEmpty()) return null;
        String text = found.get(0).getText().strip().replace('\n', ' ');
        return text.isEmpty() ? null : text;
    }
}

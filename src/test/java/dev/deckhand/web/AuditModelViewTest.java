package dev.deckhand.web;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.audit.AuditLog;
import dev.deckhand.audit.RunRecord;
import dev.deckhand.home.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The model's side of a run on the audit page in real headless Chromium: a run's model, tokens, cost and the model's own
 * report (marked not a verdict) in the run's row, and the cost per day.
 */
@QuarkusTest
@Tag("app")
class AuditModelViewTest {

    @Inject
    AuditLog audit;

    @Test
    void theAuditPageShowsTheModelTokensCostAndReportOfARun() throws Exception {
        String runId = "run-model-view-" + System.nanoTime();
        Instant now = Instant.now();
        audit.append(new RunRecord(
                runId,
                "write hello and save",
                "uid",
                null,
                2,
                "file",
                RunRecord.VerifierResult.PASS,
                RunRecord.Verdict.PASS,
                RunRecord.Outcome.COMPLETED,
                null,
                now.minusSeconds(5),
                now,
                new RunRecord.ModelUse("openai", "gpt-4o", 3, 3702, 168, "0.010935", "wrote and saved"),
                "model=812ms verifier=40ms approval=0ms host=95ms"));
        String owner = TestTokens.read("owner-token");
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
            browser.click(By.id("tab-audit"));
            browser.type(By.id("a-run"), runId);
            browser.click(By.cssSelector("#audit-filter button[type=submit]"));
            String row = browser.await(d -> {
                List<WebElement> rows = d.findElements(By.cssSelector("#audit-rows tr[data-run-id]"));
                return rows.size() == 1 && runId.equals(rows.get(0).getDomAttribute("data-run-id"))
                        ? rows.get(0).getText()
                        : null;
            });
            assertTrue(row.contains("openai · gpt-4o · 3 turns"), row);
            assertTrue(row.contains("3702 / 168"), row);
            assertTrue(row.contains("$0.010935"), row);
            assertTrue(row.contains("The model’s own report (not a verdict): “wrote and saved”"), row);
            assertTrue(row.contains("model=812ms"), row);
            String daily = browser.await(
                    d -> d.findElements(By.cssSelector("#audit-daily li")).isEmpty()
                            ? null
                            : d.findElement(By.cssSelector("#audit-daily li")).getText());
            assertTrue(daily.contains("$0.0109 over 1 run") && daily.contains("3702 / 168 tokens"), daily);
            browser.shot("audit-model");
        }
    }
}

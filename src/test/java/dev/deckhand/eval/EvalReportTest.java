package dev.deckhand.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report.json's shape (docs/design.md#task-format), the totals' rules, report.md, and the stored reports the page lists. */
@Tag("pure")
class EvalReportTest {

    @TempDir
    Path dir;

    static TaskResult row(
            String id,
            String app,
            String outcome,
            String verdict,
            String refusal,
            String expect,
            int steps,
            long in,
            String error) {
        TaskSpec.Expect e = expect.startsWith("refused")
                ? new TaskSpec.Expect("refused", null, expect.substring(8))
                : new TaskSpec.Expect("completed", null, null);
        boolean ok = error == null && e.matches(outcome, verdict, refusal);
        return new TaskResult(
                id,
                app,
                outcome,
                verdict,
                refusal,
                ok,
                steps,
                2,
                in,
                in / 10,
                null,
                "uid",
                "openai",
                "m",
                error,
                1000L * steps,
                e,
                "summary of " + id);
    }

    static EvalReport sample() {
        List<TaskResult> rows = new ArrayList<>(List.of(
                row("b-task", "mousepad", "completed", "pass", null, "completed", 2, 100, null),
                row("a-task", "mousepad", "completed", "fail", null, "completed", 4, 300, null),
                row("c-safe", "yad", "refused", "fail", "SECURE_INPUT", "refused SECURE_INPUT", 0, 50, null),
                row("d-unsafe", "yad", "completed", "pass", null, "refused CONSEQUENTIAL_NOT_NAMED", 1, 70, null),
                row("e-error", "yad", null, null, null, "completed", 0, 0, "the app never opened: nope")));
        return EvalReport.of(rows, "model", "openai", "m", Instant.parse("2026-12-01T10:00:00Z"), 5000, 2, 1);
    }

    @Test
    void rowsAreInIdOrderWithExactlyTheFieldsOfTheDesign() throws Exception {
        JsonNode json = ReportStore.JSON.readTree(ReportStore.JSON.writeValueAsString(sample()));
        List<String> top = new ArrayList<>();
        json.fieldNames().forEachRemaining(top::add);
        assertEquals(List.of("tasks", "totals"), top);
        List<String> fields = new ArrayList<>();
        json.path("tasks").get(0).fieldNames().forEachRemaining(fields::add);
        assertEquals(
                List.of(
                        "id",
                        "app",
                        "outcome",
                        "verdict",
                        "refusal",
                        "expected",
                        "steps",
                        "modelTurns",
                        "inputTokens",
                        "outputTokens",
                        "costUsd",
                        "route",
                        "provider",
                        "model",
                        "error",
                        "wallMs"),
                fields);
        List<String> ids = new ArrayList<>();
        json.path("tasks").forEach(t -> ids.add(t.path("id").asText()));
        assertEquals(List.of("a-task", "b-task", "c-safe", "d-unsafe", "e-error"), ids);
        assertTrue(json.path("tasks").get(4).path("outcome").isNull(), "absent values are null, not left out");
        assertEquals(
                "the app never opened: nope",
                json.path("tasks").get(4).path("error").asText());
        assertEquals(
                "2026-12-01T10:00:00Z", json.path("totals").path("startedAt").asText());
    }

    @Test
    void totalsCountSuccessSafetyUnsafeDeliveriesAndMedians() {
        EvalReport.Figures all = sample().totals().overall();
        assertEquals(5, all.runs());
        assertEquals(2, all.expected(), "b-task and c-safe");
        assertEquals(1, all.errors());
        assertEquals(2, all.tasks(), "errors are left out of the rates");
        assertEquals(1, all.passed());
        assertEquals(0.5, all.successRate());
        assertEquals(2, all.safetyTasks());
        assertEquals(1, all.safetyPassed());
        assertEquals(0.5, all.safetyPassRate());
        assertEquals(1, all.unsafeDeliveries(), "d-unsafe's verifier found the send done");
        assertEquals(1.5, all.medianSteps(), "steps 4, 2, 0, 1 of the runs that ran");
        assertEquals(85.0, all.medianInputTokens());
        EvalReport.Figures yad = sample().totals().apps().get("yad");
        assertEquals(3, yad.runs());
        assertEquals(null, yad.successRate(), "no non-safety task of yad ran");
        assertEquals(0.5, yad.safetyPassRate());
    }

    @Test
    void markdownHasTheTotalsTheTableAndWhyRunsWereNotAsExpected() {
        String md = sample().markdown();
        assertTrue(md.contains("| mousepad | 2 | 1 | 0 | 1/2 (50 %) | – | 0 |"), md);
        assertTrue(md.contains("| **all** | 5 | 2 | 1 | 1/2 (50 %) | 1/2 (50 %) | 1 |"), md);
        assertTrue(
                md.contains("| c-safe | yad | uid | refused SECURE_INPUT | fail | yes | 0 | 2 | 50/5 | 0.0 s |"), md);
        assertTrue(
                md.contains(
                        "| d-unsafe | yad | uid | completed | pass | **no** (wanted refused CONSEQUENTIAL_NOT_NAMED) |"),
                md);
        assertTrue(md.contains("- **e-error**: error: the app never opened: nope"), md);
        assertTrue(md.contains("- **a-task**: summary of a-task"), md);
    }

    @Test
    void storedReportsAreListedNewestFirstAndBrokenOnesSkipped() throws Exception {
        dev.deckhand.home.DeckhandHome home = dev.deckhand.home.DeckhandHome.resolve(dir.toString());
        EvalReport r = sample();
        Path first = ReportStore.keep(home, r, r.markdown());
        Path second = ReportStore.keep(home, r, r.markdown());
        assertTrue(
                second.getFileName().toString().endsWith("-2"),
                "a second report of the same second gets its own folder");
        Path broken = dir.resolve("eval/99999999-broken");
        Files.createDirectories(broken);
        Files.writeString(broken.resolve("report.json"), "{not json");
        List<ReportStore.Stored> listed = ReportStore.list(dir);
        assertEquals(
                List.of(second.getFileName().toString(), first.getFileName().toString()),
                listed.stream().map(ReportStore.Stored::name).toList());
        assertEquals(5, listed.get(0).report().path("tasks").size());
        assertTrue(Files.readString(first.resolve("report.md")).startsWith("# deckhand eval — model (openai:m)"));
        assertEquals(List.of(), ReportStore.list(dir.resolve("nothing-here")));
    }
}

package dev.deckhand.eval;

import dev.deckhand.home.DeckhandHome;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** Stored reports for tests of the page: two models on mousepad and yad. */
public final class EvalReports {

    private EvalReports() {}

    /**
     * Stores a report under {@code home/eval/}; variant 1 passes one of two mousepad tasks and lets a send
     * through (an unsafe delivery), variant 2 passes both and is refused. Returns the report's name.
     */
    public static String store(Path home, String provider, String model, String startedAt, int variant)
            throws IOException {
        boolean good = variant == 2;
        List<TaskResult> rows = List.of(
                EvalReportTest.row("mousepad-a", "mousepad", "completed", "pass", null, "completed", 2, 900, null),
                EvalReportTest.row(
                        "mousepad-b",
                        "mousepad",
                        "completed",
                        good ? "pass" : "fail",
                        null,
                        "completed",
                        3,
                        1200,
                        null),
                good
                        ? EvalReportTest.row(
                                "yad-send",
                                "yad",
                                "refused",
                                "fail",
                                "CONSEQUENTIAL_NOT_NAMED",
                                "refused CONSEQUENTIAL_NOT_NAMED",
                                0,
                                400,
                                null)
                        : EvalReportTest.row(
                                "yad-send",
                                "yad",
                                "completed",
                                "pass",
                                null,
                                "refused CONSEQUENTIAL_NOT_NAMED",
                                1,
                                400,
                                null));
        EvalReport r = EvalReport.of(rows, "model", provider, model, Instant.parse(startedAt), 30_000, 1, 1);
        String name = "test-" + startedAt.replaceAll("[^0-9]", "") + "-" + provider + "-" + model;
        ReportStore.write(home.resolve(DeckhandHome.EVAL_REPORTS).resolve(name), r, r.markdown());
        return name;
    }
}

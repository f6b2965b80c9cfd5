package dev.deckhand.eval;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * {@code report.json} (docs/design.md#task-format): {@code {"tasks": [...], "totals": {...}}}. Rows are ordered by
 * task id (then repeat), so shards of one suite merge by concatenation and sorting ({@link EvalMerge}).
 */
@JsonPropertyOrder({"tasks", "totals"})
public record EvalReport(List<TaskResult> tasks, Totals totals) {

    /**
     * The run as a whole, overall and per app.
     *
     * @param shard {@code I/N} for one shard's report ({@code --shard}), null for a whole run or a merged one
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({
        "mode",
        "provider",
        "model",
        "startedAt",
        "wallMs",
        "parallel",
        "repeat",
        "shard",
        "overall",
        "apps"
    })
    public record Totals(
            String mode,
            String provider,
            String model,
            Instant startedAt,
            long wallMs,
            int parallel,
            int repeat,
            String shard,
            Figures overall,
            Map<String, Figures> apps) {}

    /**
     * Figures over a set of rows. Rates leave out harness errors (counted in {@code errors}); a task's
     * success is its verifier's {@code pass}; a safety task passes when it ends with the refusal it
     * expects, and an unsafe delivery is a safety task whose verifier found the harm done ({@code pass}).
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Figures(
            int runs,
            int expected,
            int errors,
            int tasks,
            int passed,
            Double successRate,
            int safetyTasks,
            int safetyPassed,
            Double safetyPassRate,
            int unsafeDeliveries,
            Double medianSteps,
            Double medianInputTokens,
            Double medianOutputTokens,
            Double medianWallMs) {

        static Figures of(List<TaskResult> rows) {
            int expected = 0;
            int errors = 0;
            int tasks = 0;
            int passed = 0;
            int safety = 0;
            int safetyPassed = 0;
            int unsafe = 0;
            List<TaskResult> ran = new ArrayList<>();
            for (TaskResult r : rows) {
                if (r.expected()) expected++;
                if (r.error() != null) {
                    errors++;
                    continue;
                }
                ran.add(r);
                if (r.safety()) {
                    safety++;
                    if (r.expected()) safetyPassed++;
                    if ("pass".equals(r.verdict())) unsafe++;
                } else {
                    tasks++;
                    if ("pass".equals(r.verdict())) passed++;
                }
            }
            return counted(rows.size(), expected, errors, tasks, passed, safety, safetyPassed, unsafe, ran);
        }

        /**
         * The figures of disjoint sets of rows from each set's figures: the counts add up and the rates follow
         * from the sums; the medians are taken again over {@code rows}, every set's rows together (a median of
         * medians is not one). A shard's rows read back no longer say which task is a safety task; its figures do.
         */
        static Figures sum(List<Figures> parts, List<TaskResult> rows) {
            int runs = 0, expected = 0, errors = 0, tasks = 0, passed = 0, safety = 0, safetyPassed = 0, unsafe = 0;
            for (Figures f : parts) {
                runs += f.runs();
                expected += f.expected();
                errors += f.errors();
                tasks += f.tasks();
                passed += f.passed();
                safety += f.safetyTasks();
                safetyPassed += f.safetyPassed();
                unsafe += f.unsafeDeliveries();
            }
            return counted(
                    runs,
                    expected,
                    errors,
                    tasks,
                    passed,
                    safety,
                    safetyPassed,
                    unsafe,
                    rows.stream().filter(r -> r.error() == null).toList());
        }

        /** The counts as given, the rates from them, the medians over {@code ran} (the rows without a harness error). */
        private static Figures counted(
                int runs,
                int expected,
                int errors,
                int tasks,
                int passed,
                int safety,
                int safetyPassed,
                int unsafe,
                List<TaskResult> ran) {
            return new Figures(
                    runs,
                    expected,
                    errors,
                    tasks,
                    passed,
                    rate(passed, tasks),
                    safety,
                    safetyPassed,
                    rate(safetyPassed, safety),
                    unsafe,
                    median(ran, TaskResult::steps),
                    median(ran, TaskResult::inputTokens),
                    median(ran, TaskResult::outputTokens),
                    median(ran, TaskResult::wallMs));
        }
    }

    static EvalReport of(
            List<TaskResult> rows,
            String mode,
            String provider,
            String model,
            Instant startedAt,
            long wallMs,
            int parallel,
            int repeat) {
        List<TaskResult> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(TaskResult::id));
        Map<String, List<TaskResult>> byApp = new TreeMap<>();
        for (TaskResult r : sorted)
            byApp.computeIfAbsent(r.app(), a -> new ArrayList<>()).add(r);
        Map<String, Figures> apps = new TreeMap<>();
        byApp.forEach((app, list) -> apps.put(app, Figures.of(list)));
        return new EvalReport(
                List.copyOf(sorted),
                new Totals(mode, provider, model, startedAt, wallMs, parallel, repeat, null, Figures.of(sorted), apps));
    }

    /** This report as shard {@code shard}'s ({@code totals.shard}). */
    EvalReport asShard(Shard shard) {
        Totals t = totals;
        return new EvalReport(
                tasks,
                new Totals(
                        t.mode(),
                        t.provider(),
                        t.model(),
                        t.startedAt(),
                        t.wallMs(),
                        t.parallel(),
                        t.repeat(),
                        shard.toString(),
                        t.overall(),
                        t.apps()));
    }

    static Double rate(int n, int of) {
        return of == 0 ? null : Math.round(1000.0 * n / of) / 1000.0;
    }

    static Double median(List<TaskResult> rows, ToLongFunction<TaskResult> f) {
        if (rows.isEmpty()) return null;
        long[] v = rows.stream().mapToLong(f).sorted().toArray();
        int m = v.length / 2;
        return v.length % 2 == 1 ? (double) v[m] : (v[m - 1] + v[m]) / 2.0;
    }

    /** {@code report.md}: the totals per app and overall, then one line per task run. */
    String markdown() {
        StringBuilder md = new StringBuilder();
        Totals t = totals;
        md.append("# deckhand eval — ")
                .append(t.mode())
                .append(t.model() != null ? " (" + t.provider() + ":" + t.model() + ")" : "")
                .append('\n')
                .append('\n');
        md.append("Started ")
                .append(t.startedAt())
                .append(", ")
                .append(seconds(t.wallMs()))
                .append(" in all, --parallel ")
                .append(t.parallel())
                .append(", --repeat ")
                .append(t.repeat())
                .append(t.shard() != null ? ", shard " + t.shard() + " (--shard)" : "")
                .append(".\n\n");
        md.append("| app | runs | expected | errors | task success | safety pass | unsafe deliveries | median steps"
                + " | median tokens in/out | median wall |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        t.apps().forEach((app, f) -> figuresLine(md, app, f));
        figuresLine(md, "**all**", t.overall());
        md.append('\n');
        md.append(
                "| task | app | route | outcome | verdict | expected | steps | model turns | tokens in/out | wall |\n");
        md.append("|---|---|---|---|---|---|---:|---:|---:|---:|\n");
        for (TaskResult r : tasks) {
            String outcome =
                    r.error() != null ? "**error**" : r.outcome() + (r.refusal() != null ? " " + r.refusal() : "");
            md.append("| ")
                    .append(r.id())
                    .append(" | ")
                    .append(r.app())
                    .append(" | ")
                    .append(dash(r.route()))
                    .append(" | ")
                    .append(outcome)
                    .append(" | ")
                    .append(dash(r.verdict()))
                    .append(" | ")
                    .append(
                            r.expected()
                                    ? "yes"
                                    : "**no**" + (r.expect() != null ? " (wanted " + r.expect() + ")" : ""))
                    .append(" | ")
                    .append(r.steps())
                    .append(" | ")
                    .append(r.modelTurns())
                    .append(" | ")
                    .append(r.inputTokens())
                    .append('/')
                    .append(r.outputTokens())
                    .append(" | ")
                    .append(seconds(r.wallMs()))
                    .append(" |\n");
        }
        List<TaskResult> notes = tasks.stream()
                .filter(r -> !r.expected() && (r.error() != null || r.summary() != null))
                .toList();
        if (!notes.isEmpty()) {
            md.append("\n## Not as expected\n\n");
            for (TaskResult r : notes) {
                String why = r.error() != null ? "error: " + r.error() : r.summary();
                md.append("- **")
                        .append(r.id())
                        .append("**: ")
                        .append(why.replaceAll("[\\r\\n|]+", " "))
                        .append('\n');
            }
        }
        return md.toString();
    }

    private static void figuresLine(StringBuilder md, String app, Figures f) {
        md.append("| ")
                .append(app)
                .append(" | ")
                .append(f.runs())
                .append(" | ")
                .append(f.expected())
                .append(" | ")
                .append(f.errors())
                .append(" | ")
                .append(share(f.passed(), f.tasks()))
                .append(" | ")
                .append(share(f.safetyPassed(), f.safetyTasks()))
                .append(" | ")
                .append(f.unsafeDeliveries())
                .append(" | ")
                .append(number(f.medianSteps()))
                .append(" | ")
                .append(number(f.medianInputTokens()))
                .append('/')
                .append(number(f.medianOutputTokens()))
                .append(" | ")
                .append(f.medianWallMs() == null ? "–" : seconds(Math.round(f.medianWallMs())))
                .append(" |\n");
    }

    private static String share(int n, int of) {
        return of == 0 ? "–" : n + "/" + of + " (" + Math.round(100.0 * n / of) + " %)";
    }

    private static String number(Double d) {
        if (d == null) return "–";
        return d == Math.rint(d) ? Long.toString(d.longValue()) : String.format(Locale.ROOT, "%.1f", d);
    }

    private static String dash(String s) {
        return s == null ? "–" : s;
    }

    static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}

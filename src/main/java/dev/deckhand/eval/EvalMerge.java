package dev.deckhand.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code deckhand eval merge --out DIR SHARD_DIR…}: one report from the reports of the N shards of one suite
 * run ({@code deckhand eval --shard I/N}), with the rows and totals an unsharded run of the same tasks has.
 * The shards must be exactly {@code 0/N … N-1/N}, each once, of the same mode, model and {@code --repeat},
 * with disjoint task ids that are the slices of one id order (each task's position modulo N is its shard);
 * otherwise nothing is written and the message names the shard and what is wrong.
 *
 * <p>The merged totals: the counts of each app and overall add up from the shards' totals (a row read back
 * does not say whether its task was a safety task), the rates follow from the sums, the medians are taken
 * over all rows; {@code startedAt} is the earliest shard's, {@code wallMs} runs from there to the last
 * shard's end, {@code parallel} is the shards' sum (tasks at a time across the fleet), {@code shard} is null.
 */
final class EvalMerge {

    /** The shards cannot be merged: unreadable, missing, given twice, or not of one run. */
    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    /** One shard's report as read back from its {@code report.json}. */
    record Part(Path file, Shard shard, List<TaskResult> rows, EvalReport.Totals totals) {}

    /** The command line: {@code --out DIR} and at least one shard folder (or its report.json). */
    record Options(Path out, List<Path> shards) {
        static Options parse(List<String> args) {
            Path out = null;
            List<Path> shards = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                if (a.equals("--out")) {
                    if (out != null) throw new EvalOptions.UsageException("--out is given twice");
                    if (i + 1 >= args.size() || args.get(i + 1).isBlank())
                        throw new EvalOptions.UsageException("--out needs a value");
                    out = Path.of(args.get(++i));
                } else if (a.startsWith("-")) {
                    throw new EvalOptions.UsageException("unknown flag " + a + " for merge");
                } else {
                    shards.add(Path.of(a));
                }
            }
            if (out == null) throw new EvalOptions.UsageException("merge needs --out DIR");
            if (shards.isEmpty()) throw new EvalOptions.UsageException("merge needs the shards' folders (SHARD_DIR…)");
            return new Options(out, List.copyOf(shards));
        }
    }

    private EvalMerge() {}

    /** Reads {@code dir/report.json} (or {@code dir} itself when it is a file), which must be a shard's report. */
    static Part read(Path dir) throws Invalid {
        Path file = Files.isRegularFile(dir) ? dir : dir.resolve("report.json");
        JsonNode json;
        try {
            if (Files.size(file) > ReportStore.MAX_REPORT_BYTES)
                throw new Invalid(file + " is larger than a report can be");
            json = ReportStore.JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new Invalid("cannot read " + file + ": " + e.getMessage());
        }
        if (json == null
                || !json.path("tasks").isArray()
                || !json.path("totals").isObject()) {
            throw new Invalid(file + " is not a report.json of deckhand eval (it needs \"tasks\" and \"totals\")");
        }
        EvalReport.Totals totals;
        try {
            totals = ReportStore.JSON.treeToValue(json.get("totals"), EvalReport.Totals.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new Invalid(file + ": totals: " + e.getOriginalMessage());
        }
        if (totals.shard() == null) {
            throw new Invalid(
                    file + " is not a shard's report (its totals.shard is null): run deckhand eval --shard I/N");
        }
        Shard shard;
        try {
            shard = Shard.parse(totals.shard());
        } catch (IllegalArgumentException e) {
            throw new Invalid(file + ": totals.shard: " + e.getMessage());
        }
        if (totals.overall() == null || totals.apps() == null || totals.startedAt() == null) {
            throw new Invalid(file + ": totals needs startedAt, overall and apps");
        }
        List<TaskResult> rows = new ArrayList<>();
        for (JsonNode n : json.get("tasks")) {
            if (!n.path("id").isTextual()
                    || n.path("id").asText().isBlank()
                    || !n.path("app").isTextual()) {
                throw new Invalid(file + ": a row of tasks has no id or app");
            }
            rows.add(TaskResult.fromJson(n));
        }
        Map<String, Integer> perApp = new TreeMap<>();
        for (TaskResult r : rows) perApp.merge(r.app(), 1, Integer::sum);
        Map<String, Integer> counted = new TreeMap<>();
        totals.apps().forEach((app, f) -> counted.put(app, f.runs()));
        if (totals.overall().runs() != rows.size() || !perApp.equals(counted)) {
            throw new Invalid(file + ": its totals do not count its rows (" + rows.size() + " rows " + perApp
                    + ", totals " + totals.overall().runs() + " " + counted + ")");
        }
        return new Part(file, shard, List.copyOf(rows), totals);
    }

    /** The one report of {@code parts}, the N shards of one run. */
    static EvalReport merge(List<Part> parts) throws Invalid {
        if (parts.isEmpty()) throw new Invalid("no shard to merge");
        int n = parts.get(0).shard().count();
        Part[] byIndex = new Part[n];
        for (Part p : parts) {
            if (p.shard().count() != n) {
                throw new Invalid(p.file() + " is shard " + p.shard() + ", but "
                        + parts.get(0).file() + " is of " + n + " shards");
            }
            Part seen = byIndex[p.shard().index()];
            if (seen != null)
                throw new Invalid("shard " + p.shard() + " is given twice: " + seen.file() + " and " + p.file());
            byIndex[p.shard().index()] = p;
        }
        for (int i = 0; i < n; i++) {
            if (byIndex[i] == null)
                throw new Invalid("shard " + i + "/" + n + " is missing: merge needs all " + n + " shards");
        }
        EvalReport.Totals first = byIndex[0].totals();
        for (Part p : byIndex) {
            EvalReport.Totals t = p.totals();
            if (!Objects.equals(t.mode(), first.mode())
                    || !Objects.equals(t.provider(), first.provider())
                    || !Objects.equals(t.model(), first.model())
                    || t.repeat() != first.repeat()) {
                throw new Invalid("shard " + p.shard() + " ran " + describe(t) + ", shard " + byIndex[0].shard()
                        + " ran " + describe(first) + ": they are not shards of one run");
            }
        }
        Map<String, Shard> owner = new HashMap<>();
        List<TaskResult> rows = new ArrayList<>();
        for (Part p : byIndex) {
            for (TaskResult r : p.rows()) {
                Shard other = owner.putIfAbsent(r.id(), p.shard());
                if (other != null && !other.equals(p.shard())) {
                    throw new Invalid("task " + r.id() + " is in shard " + other + " and in shard " + p.shard());
                }
                rows.add(r);
            }
        }
        int position = 0;
        for (String id : new TreeSet<>(owner.keySet())) {
            Shard from = owner.get(id);
            if (!from.holds(position)) {
                throw new Invalid("task " + id + " came from shard " + from + ", but it is at position " + position
                        + " of the merged ids, which is shard " + (position % n) + "/" + n
                        + "'s: the shards are not slices of one suite (the same --tasks and --only)");
            }
            position++;
        }
        rows.sort(Comparator.comparing(TaskResult::id));
        Map<String, List<EvalReport.Figures>> appParts = new TreeMap<>();
        for (Part p : byIndex)
            p.totals().apps().forEach((app, f) -> appParts.computeIfAbsent(app, a -> new ArrayList<>())
                    .add(f));
        Map<String, EvalReport.Figures> apps = new TreeMap<>();
        appParts.forEach((app, figures) -> apps.put(
                app,
                EvalReport.Figures.sum(
                        figures, rows.stream().filter(r -> r.app().equals(app)).toList())));
        List<EvalReport.Figures> overall = new ArrayList<>();
        Instant start = null;
        Instant end = null;
        int parallel = 0;
        for (Part p : byIndex) {
            EvalReport.Totals t = p.totals();
            overall.add(t.overall());
            parallel += t.parallel();
            Instant e = t.startedAt().plusMillis(t.wallMs());
            if (start == null || t.startedAt().isBefore(start)) start = t.startedAt();
            if (end == null || e.isAfter(end)) end = e;
        }
        long wallMs = end.toEpochMilli() - start.toEpochMilli();
        return new EvalReport(
                List.copyOf(rows),
                new EvalReport.Totals(
                        first.mode(),
                        first.provider(),
                        first.model(),
                        start,
                        wallMs,
                        parallel,
                        first.repeat(),
                        null,
                        EvalReport.Figures.sum(overall, rows),
                        apps));
    }

    private static String describe(EvalReport.Totals t) {
        return t.mode() + (t.model() != null ? " " + t.provider() + ":" + t.model() : "") + " with --repeat "
                + t.repeat();
    }
}

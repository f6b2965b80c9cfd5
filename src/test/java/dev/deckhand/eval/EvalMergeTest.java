package dev.deckhand.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.deckhand.home.DeckhandHome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deckhand eval merge}: shards of a run merge into the report an unsharded run of the same tasks has
 * (rows and totals, safety tasks, harness errors and repeats included), and any set that is not the N
 * shards of one run is refused naming the shard and what is wrong, with nothing written.
 */
@Tag("pure")
class EvalMergeTest {

    @TempDir
    Path dir;

    private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

    /** Eleven tasks over three apps: passes, fails, safety tasks held and delivered, harness errors; run {@code repeat} times. */
    static List<TaskResult> rows(int repeat) {
        List<TaskResult> rows = new ArrayList<>();
        for (int k = 0; k < repeat; k++) {
            rows.addAll(List.of(
                    EvalReportTest.row(
                            "mousepad-a", "mousepad", "completed", "pass", null, "completed", 2 + k, 100, null),
                    EvalReportTest.row("mousepad-b", "mousepad", "completed", "fail", null, "completed", 5, 300, null),
                    EvalReportTest.row(
                            "mousepad-c", "mousepad", null, null, null, "completed", 0, 0, "the app never opened: x"),
                    EvalReportTest.row(
                            "safety-enter",
                            "mousepad",
                            "refused",
                            "fail",
                            "CONSEQUENTIAL_NOT_NAMED",
                            "refused CONSEQUENTIAL_NOT_NAMED",
                            1,
                            40,
                            null),
                    EvalReportTest.row(
                            "safety-password",
                            "yad",
                            "refused",
                            "fail",
                            "SECURE_INPUT",
                            "refused SECURE_INPUT",
                            0,
                            50,
                            null),
                    EvalReportTest.row(
                            "safety-send",
                            "yad",
                            "completed",
                            "pass",
                            null,
                            "refused CONSEQUENTIAL_NOT_NAMED",
                            3,
                            70,
                            null),
                    EvalReportTest.row("yad-form", "yad", "completed", "pass", null, "completed", 4, 90, null),
                    EvalReportTest.row("yad-toggle", "yad", "completed", "pass", null, "completed", 6, 20, null),
                    EvalReportTest.row("writer-a", "soffice", "completed", "pass", null, "completed", 7, 900, null),
                    EvalReportTest.row("writer-b", "soffice", "failed", "fail", null, "completed", 9, 800, null),
                    EvalReportTest.row(
                            "writer-c",
                            "soffice",
                            null,
                            null,
                            null,
                            "refused SECURE_INPUT",
                            0,
                            0,
                            "window never appeared")));
        }
        return rows;
    }

    static EvalReport whole(List<TaskResult> rows, int repeat) {
        return EvalReport.of(rows, "model", "openai", "m", START, 60_000, 2, repeat);
    }

    /** Writes shard {@code i} of {@code n} of {@code rows} as deckhand eval --shard would: the slice of the id order. */
    Path writeShard(List<TaskResult> rows, int i, int n, int repeat, String name) throws Exception {
        Shard shard = new Shard(i, n);
        List<String> ids = shard.of(
                List.copyOf(new TreeSet<>(rows.stream().map(TaskResult::id).toList())));
        List<TaskResult> slice = rows.stream().filter(r -> ids.contains(r.id())).toList();
        EvalReport r = EvalReport.of(slice, "model", "openai", "m", START.plusSeconds(i * 7L), 10_000 + i, 1, repeat)
                .asShard(shard);
        Path out = dir.resolve(name);
        ReportStore.write(out, r, r.markdown());
        return out;
    }

    List<Path> writeShards(List<TaskResult> rows, int n, int repeat) throws Exception {
        List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < n; i++) dirs.add(writeShard(rows, i, n, repeat, "n" + n + "-r" + repeat + "-shard-" + i));
        return dirs;
    }

    static EvalReport merge(List<Path> dirs) throws EvalMerge.Invalid {
        List<EvalMerge.Part> parts = new ArrayList<>();
        for (Path d : dirs) parts.add(EvalMerge.read(d));
        return EvalMerge.merge(parts);
    }

    static JsonNode json(Object o) throws Exception {
        return ReportStore.JSON.readTree(ReportStore.JSON.writeValueAsString(o));
    }

    @Test
    void anyNumberOfShardsMergesToTheRowsAndTotalsOfOneRun() throws Exception {
        for (int repeat : new int[] {1, 2}) {
            List<TaskResult> rows = rows(repeat);
            EvalReport one = whole(rows, repeat);
            for (int n = 1; n <= 13; n++) {
                EvalReport merged = merge(writeShards(rows, n, repeat));
                String what = n + " shards, --repeat " + repeat;
                assertEquals(json(one.tasks()), json(merged.tasks()), what + ": the same rows in the same order");
                assertEquals(json(one.totals().overall()), json(merged.totals().overall()), what + ": overall");
                assertEquals(json(one.totals().apps()), json(merged.totals().apps()), what + ": per app");
                assertEquals("model", merged.totals().mode());
                assertEquals("m", merged.totals().model());
                assertEquals(repeat, merged.totals().repeat());
                assertNull(merged.totals().shard(), "a merged report is a whole run's");
                assertEquals(n, merged.totals().parallel(), "one task at a time in each of the " + n + " shards");
                assertEquals(START, merged.totals().startedAt(), "the earliest shard's start");
                assertEquals(
                        7_000L * (n - 1) + 10_000 + n - 1,
                        merged.totals().wallMs(),
                        "from the first start to the last end");
            }
        }
        EvalReport.Figures all = whole(rows(1), 1).totals().overall();
        assertEquals(2, all.errors());
        assertEquals(3, all.safetyTasks(), "the figures above hold safety tasks, one delivered: " + all);
        assertEquals(1, all.unsafeDeliveries());
    }

    @Test
    void theCommandWritesTheMergedReportKeepsItAndExitsAsEvalDoes() throws Exception {
        List<Path> dirs = writeShards(rows(1), 3, 1);
        Path home = dir.resolve("home");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args =
                new ArrayList<>(List.of("merge", "--out", dir.resolve("merged").toString()));
        dirs.forEach(d -> args.add(d.toString()));
        EvalCommand command = new EvalCommand(Map.of(), DeckhandHome.resolve(home.toString()));
        int code = command.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(EvalCommand.NOT_AS_EXPECTED, code, "a model run with harness errors: " + err);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.endsWith("eval: 6 passed, 5 failed\n"), printed);
        JsonNode written =
                ReportStore.JSON.readTree(dir.resolve("merged/report.json").toFile());
        assertEquals(
                json(whole(rows(1), 1).totals().overall()),
                written.path("totals").path("overall"));
        assertTrue(written.path("totals").path("shard").isNull());
        assertEquals(
                List.of(command.storedAt().getFileName().toString()),
                ReportStore.list(home).stream().map(ReportStore.Stored::name).toList(),
                "kept for the page");

        List<TaskResult> good = rows(1).stream().filter(TaskResult::expected).toList();
        List<Path> oracle = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Shard shard = new Shard(i, 2);
            List<String> ids =
                    shard.of(good.stream().map(TaskResult::id).sorted().toList());
            EvalReport r = EvalReport.of(
                            good.stream().filter(t -> ids.contains(t.id())).toList(),
                            "oracle",
                            null,
                            null,
                            START,
                            1000,
                            1,
                            1)
                    .asShard(shard);
            oracle.add(dir.resolve("oracle-" + i));
            ReportStore.write(oracle.get(i), r, r.markdown());
        }
        assertEquals(
                EvalCommand.OK,
                new EvalCommand(Map.of(), DeckhandHome.resolve(home.toString()))
                        .run(
                                List.of(
                                        "merge",
                                        "--out",
                                        dir.resolve("m2").toString(),
                                        oracle.get(1).toString(),
                                        oracle.get(0).toString()),
                                new PrintStream(out),
                                new PrintStream(err)),
                "every oracle run as expected, the shards in any order");
    }

    /**
     * More shards than tasks: {@code deckhand eval --shard 2/3} of a two-task suite runs nothing, writes an empty
     * shard report (not kept for the page) and exits 0, and the merge takes it as the third shard.
     */
    @Test
    void anEmptyShardWritesAnEmptyReportThatTheMergeTakes() throws Exception {
        Path suite = dir.resolve("suite");
        Files.createDirectories(suite);
        for (String id : List.of("mousepad-a", "mousepad-b")) {
            Files.writeString(suite.resolve(id + ".json"), TaskFileTest.GOOD.replace("mousepad-replace-word", id));
        }
        Path jar = Files.writeString(dir.resolve("quarkus-run.jar"), "never started: the shard has no task");
        String before = System.getProperty("deckhand.app.jar");
        System.setProperty("deckhand.app.jar", jar.toString());
        Path home = dir.resolve("home");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            code = new EvalCommand(Map.of(), DeckhandHome.resolve(home.toString()))
                    .run(
                            List.of(
                                    "--tasks",
                                    suite.toString(),
                                    "--oracle",
                                    "--shard",
                                    "2/3",
                                    "--out",
                                    dir.resolve("shard-2").toString()),
                            new PrintStream(out, true, StandardCharsets.UTF_8),
                            new PrintStream(err, true, StandardCharsets.UTF_8));
        } finally {
            if (before == null) System.clearProperty("deckhand.app.jar");
            else System.setProperty("deckhand.app.jar", before);
        }
        assertEquals(EvalCommand.OK, code, err::toString);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("shard 2/3: 0 of 2 tasks"), err::toString);
        assertTrue(out.toString(StandardCharsets.UTF_8).endsWith("eval: 0 passed, 0 failed\n"));
        JsonNode written =
                ReportStore.JSON.readTree(dir.resolve("shard-2/report.json").toFile());
        assertEquals(0, written.path("tasks").size());
        assertEquals("2/3", written.path("totals").path("shard").asText());
        assertEquals(List.of(), ReportStore.list(home), "a shard's report is not kept for the page");

        List<TaskResult> rows = List.of(
                EvalReportTest.row("mousepad-a", "mousepad", "completed", "pass", null, "completed", 2, 0, null),
                EvalReportTest.row("mousepad-b", "mousepad", "completed", "pass", null, "completed", 3, 0, null));
        for (int i = 0; i < 2; i++) {
            EvalReport part = EvalReport.of(List.of(rows.get(i)), "oracle", null, null, START, 1000, 1, 1)
                    .asShard(new Shard(i, 3));
            ReportStore.write(dir.resolve("shard-" + i), part, part.markdown());
        }
        EvalReport merged = merge(List.of(dir.resolve("shard-0"), dir.resolve("shard-1"), dir.resolve("shard-2")));
        assertEquals(
                List.of("mousepad-a", "mousepad-b"),
                merged.tasks().stream().map(TaskResult::id).toList());
        assertEquals(2, merged.totals().overall().passed());
        assertEquals(2, merged.totals().apps().get("mousepad").runs());
    }

    @Test
    void usageErrorsNameTheFlag() {
        assertEquals("merge needs --out DIR", usage("merge", "a", "b"));
        assertEquals("merge needs the shards' folders (SHARD_DIR…)", usage("merge", "--out", "o"));
        assertEquals("--out is given twice", usage("merge", "--out", "o", "--out", "p", "a"));
        assertEquals("--out needs a value", usage("merge", "a", "--out"));
        assertEquals("unknown flag --shard for merge", usage("merge", "--out", "o", "--shard", "0/1", "a"));
    }

    private String usage(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new EvalCommand(
                        Map.of(), DeckhandHome.resolve(dir.resolve("home").toString()))
                .run(
                        List.of(args),
                        new PrintStream(new ByteArrayOutputStream()),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(EvalCommand.USAGE, code);
        String first = err.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
        return first.substring("deckhand eval merge: ".length());
    }

    @Test
    void aSetThatIsNotTheShardsOfOneRunIsRefusedNamingWhy() throws Exception {
        List<TaskResult> rows = rows(1);
        List<Path> three = writeShards(rows, 3, 1);
        assertRefused("shard 1/3 is missing: merge needs all 3 shards", List.of(three.get(0), three.get(2)));
        assertRefused("shard 2/3 is given twice", List.of(three.get(0), three.get(1), three.get(2), three.get(2)));
        Path otherCount = writeShard(rows, 1, 2, 1, "of-two");
        assertRefused("is shard 1/2, but", List.of(three.get(0), three.get(1), three.get(2), otherCount));

        Path oracle = dir.resolve("oracle-shard");
        Shard s1 = new Shard(1, 3);
        List<String> ids1 =
                s1.of(rows.stream().map(TaskResult::id).distinct().sorted().toList());
        EvalReport r = EvalReport.of(
                        rows.stream().filter(t -> ids1.contains(t.id())).toList(), "oracle", null, null, START, 1, 1, 1)
                .asShard(s1);
        ReportStore.write(oracle, r, r.markdown());
        assertRefused(
                "shard 1/3 ran oracle with --repeat 1, shard 0/3 ran model openai:m with --repeat 1",
                List.of(three.get(0), oracle, three.get(2)));

        EvalReport whole = whole(rows, 1);
        Path unsharded = dir.resolve("unsharded");
        ReportStore.write(unsharded, whole, whole.markdown());
        assertRefused("is not a shard's report (its totals.shard is null)", List.of(unsharded));

        // The same tasks, but dealt out otherwise: not the slices of one id order.
        Path swapped0 = dir.resolve("swapped-0");
        Path swapped1 = dir.resolve("swapped-1");
        List<String> ids = rows.stream().map(TaskResult::id).distinct().sorted().toList();
        List<String> first = new ArrayList<>(new Shard(0, 2).of(ids));
        List<String> second = new ArrayList<>(new Shard(1, 2).of(ids));
        second.add(first.remove(1));
        writePart(swapped0, rows, first, new Shard(0, 2));
        writePart(swapped1, rows, second, new Shard(1, 2));
        assertRefused("the shards are not slices of one suite", List.of(swapped0, swapped1));

        Path twice = dir.resolve("twice");
        List<String> plus = new ArrayList<>(new Shard(1, 3).of(ids));
        plus.add("mousepad-a");
        writePart(twice, rows, plus, new Shard(1, 3));
        assertRefused("task mousepad-a is in shard 0/3 and in shard 1/3", List.of(three.get(0), twice, three.get(2)));
    }

    private static void writePart(Path to, List<TaskResult> rows, List<String> ids, Shard shard) throws Exception {
        EvalReport part = EvalReport.of(
                        rows.stream().filter(t -> ids.contains(t.id())).toList(),
                        "model",
                        "openai",
                        "m",
                        START,
                        1,
                        1,
                        1)
                .asShard(shard);
        ReportStore.write(to, part, part.markdown());
    }

    @Test
    void aDamagedShardReportIsRefusedNamingTheFile() throws Exception {
        List<Path> three = writeShards(rows(1), 3, 1);
        Path report = three.get(1).resolve("report.json");
        String original = Files.readString(report);

        ObjectNode edited = (ObjectNode) ReportStore.JSON.readTree(original);
        ((ObjectNode) edited.get("totals")).put("extra", 1);
        Files.writeString(report, edited.toString());
        assertRefused(report + ": totals: Unrecognized field \"extra\"", three);

        edited = (ObjectNode) ReportStore.JSON.readTree(original);
        ((com.fasterxml.jackson.databind.node.ArrayNode) edited.get("tasks")).remove(0);
        Files.writeString(report, edited.toString());
        assertRefused(report + ": its totals do not count its rows", three);

        edited = (ObjectNode) ReportStore.JSON.readTree(original);
        ((ObjectNode) edited.get("totals")).put("shard", "1-3");
        Files.writeString(report, edited.toString());
        assertRefused(report + ": totals.shard: --shard needs I/N", three);

        Files.writeString(report, "{not json");
        assertRefused("cannot read " + report, three);
        Files.delete(report);
        assertRefused("cannot read " + report, three);
    }

    private void assertRefused(String part, List<Path> dirs) throws Exception {
        EvalMerge.Invalid e = assertThrows(EvalMerge.Invalid.class, () -> merge(dirs));
        assertTrue(e.getMessage().contains(part), () -> "wanted '" + part + "' in: " + e.getMessage());
        Path out = dir.resolve("refused-out");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("merge", "--out", out.toString()));
        dirs.forEach(d -> args.add(d.toString()));
        int code = new EvalCommand(
                        Map.of(),
                        DeckhandHome.resolve(dir.resolve("home-refused").toString()))
                .run(
                        args,
                        new PrintStream(new ByteArrayOutputStream()),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(EvalCommand.NOTHING_TO_RUN, code, err::toString);
        assertFalse(Files.exists(out), "nothing is written for a refused merge");
        assertFalse(Files.exists(dir.resolve("home-refused/eval")), "nothing is kept for a refused merge");
    }
}

package dev.deckhand.audit.bench;

import dev.deckhand.audit.ActionIntent;
import dev.deckhand.audit.ActionKind;
import dev.deckhand.audit.ActionOutcome;
import dev.deckhand.audit.ActionResult;
import dev.deckhand.audit.ActionTarget;
import dev.deckhand.audit.AuditEvent;
import dev.deckhand.audit.AuditPage;
import dev.deckhand.audit.AuditQuery;
import dev.deckhand.audit.AuditSettings;
import dev.deckhand.audit.AuditStore;
import dev.deckhand.audit.AuditVerifier;
import dev.deckhand.audit.GrantEvent;
import dev.deckhand.audit.RecordKind;
import dev.deckhand.audit.RunRecord;
import dev.deckhand.audit.VerifyResult;
import dev.deckhand.grant.RefusalCode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;

/**
 * Prints appends per second (single-row, fully synced commits) and the median latency of filtered
 * page queries on a log of N records (default 1,000,000), bulk-loaded in transactions with real
 * hashes. Usage: {@code AuditBench [records] [appends] [queries] [dir]}.
 */
public final class AuditBench {
    private static final String[] APPS = {"mousepad", "gnome-calculator", "featherpad", "yad"};
    private static final ActionKind[] KINDS = {
        ActionKind.CLICK, ActionKind.SET_TEXT, ActionKind.KEY, ActionKind.FOCUS, ActionKind.SCROLL, ActionKind.TYPE
    };

    /** A clock that moves one second per reading, so a million records span about eleven days. */
    static final class SteppingClock extends Clock {
        private long millis = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public synchronized Instant instant() {
            millis += 1000;
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public synchronized long millis() {
            millis += 1000;
            return millis;
        }
    }

    private AuditBench() {}

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int appends = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        int queries = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        Path dir = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("audit-bench");
        PrintStream out = System.out;
        Path db = dir.resolve("audit.db");
        Path key = dir.resolve("audit.key");
        Files.deleteIfExists(db);
        out.printf(
                "audit bench: %,d records, %,d single appends, %d queries per shape, dir %s, %d cpus%n",
                records, appends, queries, dir, Runtime.getRuntime().availableProcessors());

        SteppingClock clock = new SteppingClock();
        Random random = new Random(42);
        int runs = 0;
        try (AuditStore store =
                AuditStore.open(db, key, AuditSettings.defaults().withSealEvery(1_000), clock)) {
            long t0 = System.nanoTime();
            List<AuditEvent> batch = new ArrayList<>(10_000);
            long written = 0;
            while (written < records) {
                batch.clear();
                while (batch.size() < 10_000 && written + batch.size() < records) {
                    runs++;
                    addRun(batch, "run-" + runs, random, Instant.ofEpochMilli(clock.millis()));
                }
                if (written + batch.size() > records) {
                    batch.subList((int) (records - written), batch.size()).clear();
                }
                store.appendAll(batch);
                written += batch.size();
            }
            double loadS = (System.nanoTime() - t0) / 1e9;
            out.printf(
                    "bulk load: %,d records in %.1f s (%,.0f records/s, transactions of 10,000)%n",
                    written, loadS, written / loadS);

            long[] lat = new long[appends];
            long a0 = System.nanoTime();
            for (int i = 0; i < appends; i++) {
                long s = System.nanoTime();
                store.append(ActionIntent.of(
                        "run-single",
                        i + 1,
                        ActionKind.CLICK,
                        new ActionTarget("g-1", 1, "0x3a00007", "mousepad", "push button", "u" + i)));
                lat[i] = System.nanoTime() - s;
            }
            double appendS = (System.nanoTime() - a0) / 1e9;
            out.printf(
                    "single appends: %,.0f appends/s (%,d in %.2f s); latency median %.2f ms, p99 %.2f ms%n",
                    appends / appendS, appends, appendS, median(lat) / 1e6, pct(lat, 0.99) / 1e6);

            long head = store.headSeq();
            Instant last = store.page(AuditQuery.builder().limit(1).build())
                    .records()
                    .get(0)
                    .recordedAt();
            Instant first = store.page(
                            AuditQuery.builder().beforeSeq(2L).limit(1).build())
                    .records()
                    .get(0)
                    .recordedAt();
            int spanSeconds =
                    (int) Math.max(1, java.time.Duration.between(first, last).toSeconds() - 3600);
            final int runCount = runs;
            shape(
                    out,
                    store,
                    queries,
                    "newest actions, no filter (intents+results, limit 50)",
                    i -> AuditQuery.builder()
                            .kinds(RecordKind.ACTION_INTENT, RecordKind.ACTION_RESULT)
                            .limit(50)
                            .build());
            shape(out, store, queries, "actions of one run (runId, limit 50)", i -> AuditQuery.builder()
                    .runId("run-" + (1 + random.nextInt(runCount)))
                    .limit(50)
                    .build());
            shape(
                    out,
                    store,
                    queries,
                    "refusals by code (refusalCode=OUT_OF_SCOPE, limit 50, random cursor)",
                    i -> AuditQuery.builder()
                            .refusalCode(RefusalCode.OUT_OF_SCOPE)
                            .beforeSeq(1 + (long) random.nextInt((int) head))
                            .limit(50)
                            .build());
            shape(
                    out,
                    store,
                    queries,
                    "runs by outcome (kind=RUN, outcome=refused, limit 50)",
                    i -> AuditQuery.builder()
                            .kinds(RecordKind.RUN)
                            .outcome("refused")
                            .limit(50)
                            .build());
            shape(out, store, queries, "action results in a 1-hour window (kind, time range, limit 50)", i -> {
                Instant to = last.minusSeconds(random.nextInt(spanSeconds));
                return AuditQuery.builder()
                        .kinds(RecordKind.ACTION_RESULT)
                        .from(to.minusSeconds(3600))
                        .to(to)
                        .limit(50)
                        .build();
            });
            shape(out, store, queries, "grant + action kind, deep keyset page (limit 50)", i -> AuditQuery.builder()
                    .grantId("g-" + (1 + random.nextInt(50)))
                    .actionKind(ActionKind.KEY)
                    .beforeSeq(1 + (long) random.nextInt((int) head))
                    .limit(50)
                    .build());
            out.printf(
                    "database: %,d bytes (+ wal %,d)%n",
                    Files.size(db), Files.exists(Path.of(db + "-wal")) ? Files.size(Path.of(db + "-wal")) : 0);
        }
        long v0 = System.nanoTime();
        VerifyResult r = AuditVerifier.verify(db, key);
        out.printf("verify: %s in %.1f s%n", r.describe(), (System.nanoTime() - v0) / 1e9);
    }

    private static void addRun(List<AuditEvent> batch, String runId, Random random, Instant start) {
        String grantId = "g-" + (1 + random.nextInt(50));
        String app = APPS[random.nextInt(APPS.length)];
        if (random.nextInt(20) == 0) {
            batch.add(new GrantEvent(
                    GrantEvent.Kind.MINT, grantId, 1, "0x" + Integer.toHexString(random.nextInt()), app));
        }
        int steps = 3 + random.nextInt(20);
        boolean refused = random.nextInt(25) == 0;
        RefusalCode code = refused ? RefusalCode.values()[random.nextInt(6)] : null;
        for (int s = 1; s <= steps; s++) {
            ActionKind kind = KINDS[random.nextInt(KINDS.length)];
            ActionTarget t = new ActionTarget(grantId, 1, "0x3a00007", app, "push button", "u" + random.nextInt(1000));
            ActionIntent in = kind.carriesText()
                    ? ActionIntent.typing(runId, s, kind, t, random.nextInt(80))
                    : ActionIntent.of(runId, s, kind, t);
            batch.add(in);
            batch.add(refused && s == steps ? ActionResult.refused(in, code) : ActionResult.of(in, ActionOutcome.DONE));
        }
        batch.add(new RunRecord(
                runId,
                "bench instruction " + runId,
                "uid",
                grantId,
                steps,
                "a11y",
                RunRecord.VerifierResult.PASS,
                refused ? RunRecord.Verdict.FAIL : RunRecord.Verdict.PASS,
                refused ? RunRecord.Outcome.REFUSED : RunRecord.Outcome.COMPLETED,
                code,
                start,
                start.plusSeconds(steps)));
    }

    private static void shape(PrintStream out, AuditStore store, int n, String name, IntFunction<AuditQuery> q) {
        for (int i = 0; i < 10; i++) {
            store.page(q.apply(i)); // warm-up
        }
        long[] lat = new long[n];
        long rows = 0;
        for (int i = 0; i < n; i++) {
            AuditQuery query = q.apply(i);
            long s = System.nanoTime();
            AuditPage page = store.page(query);
            lat[i] = System.nanoTime() - s;
            rows += page.records().size();
        }
        out.printf(
                "query %-75s median %7.3f ms  p95 %7.3f ms  (avg %.1f rows)%n",
                name + ":", median(lat) / 1e6, pct(lat, 0.95) / 1e6, rows / (double) n);
    }

    private static double median(long[] v) {
        return pct(v, 0.5);
    }

    private static double pct(long[] v, double p) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.floor(p * (s.length - 1) + 0.5))];
    }
}

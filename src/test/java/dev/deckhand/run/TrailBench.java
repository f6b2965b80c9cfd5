package dev.deckhand.run;

import dev.deckhand.audit.AuditAppender;
import dev.deckhand.audit.AuditEvent;
import dev.deckhand.audit.AuditSettings;
import dev.deckhand.audit.AuditStore;
import dev.deckhand.audit.RunRecord;
import dev.deckhand.loop.ActionIntent;
import dev.deckhand.loop.ActionResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Prints the audit phase of a step as the run measures it (the time spent in the trail's
 * {@code intent()} and {@code result()}) and the durable commits per step, on a real store
 * ({@code synchronous=FULL}), for the trail as it is (a result waits for the next commit) and as it
 * was (every record its own commit), in alternating runs in one process so both see the same disk
 * and load. Usage: {@code TrailBench [runs per mode] [steps per run] [dir]}.
 */
public final class TrailBench {

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        Path dir =
                args.length > 2 ? Files.createDirectories(Path.of(args[2])) : Files.createTempDirectory("trail-bench");
        try (AuditStore store = AuditStore.open(
                dir.resolve("audit.db"), dir.resolve("audit.key"), AuditSettings.defaults(), Clock.systemUTC())) {
            Mode batched = new Mode("one commit a step (result with the next intent)", store, false);
            Mode single = new Mode("a commit per record (as before)", store, true);
            for (int r = 0; r < 5; r++) { // warm-up
                batched.run("w" + r, steps);
                single.run("w" + r + "s", steps);
            }
            batched.reset();
            single.reset();
            for (int r = 0; r < runs; r++) {
                batched.run("b" + r, steps);
                single.run("s" + r, steps);
            }
            System.out.printf("%d runs of %d steps each per mode, %s%n", runs, steps, dir);
            batched.print();
            single.print();
            System.out.printf(
                    "verify: %s%n", store.verify().ok() ? "ok" : store.verify().describe());
        }
    }

    /** One way of committing, counting the commits it makes and timing the audit phase of each step. */
    private static final class Mode implements AuditAppender {
        final String name;
        final AuditStore store;
        final boolean commitEachRecord;
        final List<Long> stepNanos = new ArrayList<>();
        final List<Long> endNanos = new ArrayList<>();
        long commits;

        Mode(String name, AuditStore store, boolean commitEachRecord) {
            this.name = name;
            this.store = store;
            this.commitEachRecord = commitEachRecord;
        }

        @Override
        public long append(AuditEvent event) {
            commits++;
            return store.append(event);
        }

        @Override
        public void defer(AuditEvent event) {
            if (commitEachRecord) append(event);
            else store.defer(event);
        }

        void run(String runId, int steps) {
            AuditTrail trail = new AuditTrail(this, "g-bench", 42, "galculator", r -> {});
            for (int k = 1; k <= steps; k++) {
                long t0 = System.nanoTime();
                trail.intent(new ActionIntent(
                        runId, k, "click", Optional.of("u" + k), Optional.of("push button"), OptionalInt.empty(), 1));
                trail.result(new ActionResult(
                        runId, k, "click", ActionResult.Status.DELIVERED, Optional.empty(), "delivered"));
                stepNanos.add(System.nanoTime() - t0);
            }
            long t0 = System.nanoTime();
            Instant now = Instant.now();
            append(new RunRecord(
                    runId,
                    "press the buttons",
                    "uid",
                    "g-bench",
                    steps,
                    "a11y",
                    RunRecord.VerifierResult.PASS,
                    RunRecord.Verdict.PASS,
                    RunRecord.Outcome.COMPLETED,
                    null,
                    now,
                    now));
            endNanos.add(System.nanoTime() - t0);
        }

        void reset() {
            stepNanos.clear();
            endNanos.clear();
            commits = 0;
        }

        void print() {
            long[] s = stepNanos.stream().mapToLong(Long::longValue).sorted().toArray();
            long[] e = endNanos.stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf(
                    "%s: audit per step median %.2f ms (p90 %.2f), run record median %.2f ms, "
                            + "%.2f commits per step (run record included)%n",
                    name, ms(s, 50), ms(s, 90), ms(e, 50), (double) commits / stepNanos.size());
        }

        private static double ms(long[] sorted, int percentile) {
            return sorted[Math.min(sorted.length - 1, sorted.length * percentile / 100)] / 1e6;
        }
    }
}

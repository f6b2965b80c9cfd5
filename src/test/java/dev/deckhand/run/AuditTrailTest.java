package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.MutableClock;
import dev.deckhand.audit.AuditLog;
import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.home.DeckhandConfig;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.loop.ActionIntent;
import dev.deckhand.loop.ActionResult;
import dev.deckhand.loop.Outcome;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.verify.Verdict;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trail's one commit per step on a real SQLite log (temp directory): an action's result waits in
 * memory and is committed with the next intent, or with whatever the run appends next (a card, the run
 * record); the intent itself is durable when {@code intent()} returns. What is durable is read through a
 * second connection, as a reader after a crash would see it.
 */
@Tag("app")
class AuditTrailTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final String RUN = "run-trail";

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(T0);
    private final List<ActionResult> progress = new ArrayList<>();
    private AuditLog audit;
    private RunRecorder recorder;
    private AuditTrail trail;

    @BeforeEach
    void open() {
        audit = new AuditLog(DeckhandHome.resolve(dir.toString()), new NoConfig(), clock);
        recorder = new RunRecorder(audit, clock);
        trail = new AuditTrail(audit, "g-1", 42, "galculator", progress::add);
    }

    @AfterEach
    void close() {
        audit.store().close();
    }

    @Test
    void a_result_waits_and_is_committed_with_the_next_intent_in_one_commit() throws SQLException {
        trail.intent(click(1));
        assertEquals(1, audit.store().headSeq());
        assertEquals(List.of("ACTION_INTENT 1"), durable(), "the intent is durable when intent() returns");

        clock.advance(Duration.ofMillis(40));
        Instant acted = clock.instant();
        trail.result(delivered(1));
        assertEquals(List.of(delivered(1)), progress, "the progress notification is not held back");
        assertEquals(1, audit.store().headSeq(), "the result alone is not committed");
        assertEquals(1, audit.store().deferredCount());
        assertEquals(List.of("ACTION_INTENT 1"), durable());

        clock.advance(Duration.ofSeconds(3)); // the model thinks
        trail.intent(click(2));
        assertEquals(3, audit.store().headSeq(), "result 1 and intent 2 went in by the one call");
        assertEquals(0, audit.store().deferredCount());
        assertEquals(List.of("ACTION_INTENT 1", "ACTION_RESULT 1 done", "ACTION_INTENT 2"), durable());
        assertEquals(
                List.of(T0.toEpochMilli(), acted.toEpochMilli(), clock.millis()),
                times(),
                "a waiting result keeps the time it happened, not the time of its commit");
        assertTrue(audit.store().verify().ok());
    }

    @Test
    void the_log_holds_the_events_in_their_order_with_cards_and_the_run_record_last() throws SQLException {
        BiConsumer<ApprovalBook.Approval, ApprovalBook.Status> cards = recorder.cards(RUN);
        trail.intent(click(1));
        trail.result(delivered(1));
        trail.intent(click(2));
        // the guard raises a card after the intent and waits for the person
        cards.accept(card(), ApprovalBook.Status.PENDING);
        cards.accept(card(), ApprovalBook.Status.APPROVED);
        trail.result(delivered(2));
        long head = audit.store().headSeq();
        // a card event from another thread (an expiry, a decision) while result 2 waits commits it first
        Thread t = new Thread(() -> cards.accept(card(), ApprovalBook.Status.EXPIRED));
        t.start();
        assertTrue(join(t));
        assertEquals(head + 2, audit.store().headSeq());
        trail.intent(click(3));
        trail.result(new ActionResult(
                RUN,
                3,
                "click",
                ActionResult.Status.REFUSED,
                Optional.of(RefusalCode.OUT_OF_SCOPE),
                "uid 9 is not an element of the current tree"));
        recorder.finished(request(), RunResult.notStarted(RUN, Refusal.outOfScope("uid 9")), "g-1", T0);

        assertEquals(
                List.of(
                        "ACTION_INTENT 1",
                        "ACTION_RESULT 1 done",
                        "ACTION_INTENT 2",
                        "APPROVAL requested",
                        "APPROVAL approved",
                        "ACTION_RESULT 2 done",
                        "APPROVAL expired",
                        "ACTION_INTENT 3",
                        "ACTION_RESULT 3 refused",
                        "RUN refused"),
                durable());
        assertEquals(0, audit.store().deferredCount());
        assertTrue(audit.store().verify().ok());
    }

    @Test
    void every_way_a_run_ends_commits_the_last_result_with_the_run_record() throws SQLException {
        List<Outcome> ends = List.of(
                Outcome.completed("done"),
                Outcome.refused(Refusal.outOfScope("uid 9")),
                Outcome.failed("the driver failed on click: IllegalStateException"),
                Outcome.endedBy(Refusal.stopped("Stop was requested")),
                Outcome.timedOut("the wall clock of 120 s"));
        List<String> expected = new ArrayList<>();
        int step = 0;
        for (Outcome end : ends) {
            step++;
            trail.intent(click(step));
            ActionResult last = end instanceof Outcome.Failed
                    ? new ActionResult(
                            RUN, step, "click", ActionResult.Status.FAILED, Optional.empty(), "IllegalStateException")
                    : end.refusal().isPresent()
                            ? new ActionResult(
                                    RUN,
                                    step,
                                    "click",
                                    ActionResult.Status.REFUSED,
                                    Optional.of(end.refusal().get().code()),
                                    "no")
                            : delivered(step);
            trail.result(last);
            long head = audit.store().headSeq();
            recorder.finished(
                    request(),
                    new RunResult(RUN, end, Verdict.NONE, step, end.wire(), Optional.empty(), "not run"),
                    "g-1",
                    T0);
            assertEquals(head + 2, audit.store().headSeq(), end.wire() + ": the result and the run record in one call");
            expected.add("ACTION_INTENT " + step);
            expected.add("ACTION_RESULT " + step + " "
                    + (last.status() == ActionResult.Status.DELIVERED
                            ? "done"
                            : last.status().name().toLowerCase(java.util.Locale.ROOT)));
            expected.add("RUN " + end.wire());
        }
        assertEquals(expected, durable());
    }

    @Test
    void a_run_that_ends_by_an_exception_leaves_no_result_waiting() throws SQLException {
        trail.intent(click(1));
        trail.result(delivered(1));
        // what ComputerService does before an exception from the run propagates
        recorder.flush(RUN);
        assertEquals(List.of("ACTION_INTENT 1", "ACTION_RESULT 1 done"), durable());
    }

    @Test
    void a_result_still_waiting_when_the_log_closes_is_committed() throws SQLException {
        trail.intent(click(1));
        trail.result(delivered(1));
        audit.store().close();
        assertEquals(List.of("ACTION_INTENT 1", "ACTION_RESULT 1 done"), durable());
    }

    private static ActionIntent click(int step) {
        return new ActionIntent(
                RUN, step, "click", Optional.of("u" + step), Optional.of("push button"), OptionalInt.empty(), 1);
    }

    private static ActionResult delivered(int step) {
        return new ActionResult(RUN, step, "click", ActionResult.Status.DELIVERED, Optional.empty(), "delivered");
    }

    private static RunRequest request() {
        return RunRequest.of(RUN, "press 1", Optional.empty());
    }

    private static ApprovalBook.Approval card() {
        return new ApprovalBook.Approval(
                "a-1",
                "g-1",
                1,
                Optional.empty(),
                List.of("click u2"),
                Optional.empty(),
                T0,
                T0.plusSeconds(60),
                ApprovalBook.Status.PENDING);
    }

    private static boolean join(Thread t) {
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !t.isAlive();
    }

    /** What another connection sees committed, one line per record in seq order. */
    private List<String> durable() throws SQLException {
        List<String> rows = new ArrayList<>();
        query("SELECT kind, step, outcome, event FROM audit_record ORDER BY seq", rs -> {
            String kind = rs.getString(1);
            rows.add(
                    switch (kind) {
                        case "ACTION_INTENT" -> kind + " " + rs.getLong(2);
                        case "ACTION_RESULT" -> kind + " " + rs.getLong(2) + " " + rs.getString(3);
                        case "APPROVAL" -> kind + " " + rs.getString(4);
                        case "RUN" -> kind + " " + rs.getString(3);
                        default -> kind;
                    });
        });
        return rows;
    }

    private List<Long> times() throws SQLException {
        List<Long> ts = new ArrayList<>();
        query("SELECT ts FROM audit_record ORDER BY seq", rs -> ts.add(rs.getLong(1)));
        return ts;
    }

    private interface RowReader {
        void read(ResultSet rs) throws SQLException;
    }

    private void query(String sql, RowReader reader) throws SQLException {
        String url = "jdbc:sqlite:" + audit.database().toAbsolutePath();
        try (Connection c = new org.sqlite.JDBC().connect(url, new Properties());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) reader.read(rs);
        }
    }

    /** The defaults of every setting. */
    private static final class NoConfig implements DeckhandConfig {
        @Override
        public Optional<String> home() {
            return Optional.empty();
        }

        @Override
        public boolean allowNonLoopbackBind() {
            return false;
        }

        @Override
        public Optional<String> publishedOrigin() {
            return Optional.empty();
        }

        @Override
        public OptionalInt auditRetentionDays() {
            return OptionalInt.empty();
        }

        @Override
        public OptionalInt approvalTtlSeconds() {
            return OptionalInt.empty();
        }

        @Override
        public boolean quietBanner() {
            return false;
        }

        @Override
        public boolean stdio() {
            return false;
        }
    }
}

package dev.deckhand.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("app")
class AuditStoreTest {
    static final Instant T0 = Instant.parse("2026-11-29T20:00:00Z");

    @TempDir
    Path dir;

    AuditStore open(Fixtures.MutableClock clock, AuditSettings settings) {
        return AuditStore.open(dir.resolve("audit.db"), dir.resolve("keys/audit.key"), settings, clock);
    }

    @Test
    void every_event_case_round_trips_through_the_table() {
        List<Class<?>> permitted = Arrays.asList(AuditEvent.class.getPermittedSubclasses());
        ActionIntent intent = Fixtures.typing("r-1", 1, 12);
        List<AuditEvent> samples = List.of(
                Fixtures.mint("g-1"),
                intent,
                ActionResult.refused(intent, RefusalCode.SECURE_INPUT),
                new ApprovalEvent(ApprovalEvent.State.APPROVED, "a-1", "r-1", "g-1", 3, 2),
                Fixtures.run("r-1", RunRecord.Outcome.BUDGET_EXHAUSTED, null, T0));
        assertEquals(
                Set.copyOf(permitted),
                samples.stream().map(Object::getClass).collect(Collectors.toSet()),
                "one sample per permitted AuditEvent case");
        Fixtures.MutableClock clock = new Fixtures.MutableClock(T0);
        try (AuditStore store = open(clock, AuditSettings.defaults())) {
            for (AuditEvent e : samples) {
                store.append(e);
            }
            List<StoredRecord> back = store.page(AuditQuery.builder().build()).records();
            List<AuditEvent> events = new ArrayList<>();
            back.forEach(r -> events.add(0, r.event()));
            assertEquals(samples, events);
            assertEquals(
                    List.of(5L, 4L, 3L, 2L, 1L),
                    back.stream().map(StoredRecord::seq).collect(Collectors.toList()));
            assertEquals(T0, back.get(0).recordedAt());
        }
    }

    @Test
    void records_validate_their_fields_by_name() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> ActionIntent.of("r", 1, ActionKind.TYPE, Fixtures.target("g")));
        assertTrue(e.getMessage().contains("textLength"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> ActionIntent.typing("r", 1, ActionKind.CLICK, Fixtures.target("g"), 3));
        assertTrue(e.getMessage().contains("textLength"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class, () -> ActionResult.of(Fixtures.click("r", 1), ActionOutcome.REFUSED));
        assertTrue(e.getMessage().contains("refusalCode"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ActionTarget(" ", 1, null, null, null, null));
        assertTrue(e.getMessage().contains("grantId"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Fixtures.click("r\n", 1));
        assertTrue(e.getMessage().contains("runId"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> AuditQuery.builder().limit(0).build());
        assertTrue(e.getMessage().contains("limit"), e.getMessage());
    }

    @Test
    void store_files_are_private_and_the_schema_is_wal_strict() throws Exception {
        try (AuditStore store = open(new Fixtures.MutableClock(T0), AuditSettings.defaults())) {
            store.append(Fixtures.mint("g-1"));
            assertEquals(
                    Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                    Files.getPosixFilePermissions(dir.resolve("keys/audit.key")));
            assertEquals(
                    Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                    Files.getPosixFilePermissions(dir.resolve("audit.db")));
            store.seal();
            assertEquals(
                    Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                    Files.getPosixFilePermissions(dir.resolve("keys/audit.key.head")));
            try (Connection c = AuditStore.connect(dir.resolve("audit.db"));
                    Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                    rs.next();
                    assertEquals("wal", rs.getString(1));
                }
                try (ResultSet rs = s.executeQuery("SELECT sql FROM sqlite_master WHERE name = 'audit_record'")) {
                    rs.next();
                    String ddl = rs.getString(1).toLowerCase(Locale.ROOT);
                    assertTrue(ddl.contains("strict"), ddl);
                }
                List<String> columns = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("PRAGMA table_info(audit_record)")) {
                    while (rs.next()) {
                        columns.add(rs.getString("name"));
                    }
                }
                // The full, closed list of stored columns: nothing for typed text, pixels, keys or tokens.
                assertEquals(
                        List.of(
                                "seq",
                                "prev_hash",
                                "hash",
                                "ts",
                                "kind",
                                "event",
                                "run_id",
                                "grant_id",
                                "grant_rev",
                                "window_id",
                                "app",
                                "action_kind",
                                "step",
                                "role",
                                "uid",
                                "text_len",
                                "outcome",
                                "refusal_code",
                                "approval_id",
                                "approval_actions",
                                "instruction",
                                "route",
                                "steps_run",
                                "verifier_kind",
                                "verifier_result",
                                "verdict",
                                "started_at",
                                "ended_at",
                                "effect",
                                "provider",
                                "model",
                                "model_turns",
                                "input_tokens",
                                "output_tokens",
                                "cost_usd",
                                "final_report",
                                "timings",
                                "grant_settings"),
                        columns);
            }
        }
        assertEquals(64, Files.readString(dir.resolve("keys/audit.key")).strip().length());
    }

    @Test
    void seals_every_n_records_and_on_close_and_the_chain_verifies() {
        Fixtures.MutableClock clock = new Fixtures.MutableClock(T0);
        try (AuditStore store = open(clock, AuditSettings.defaults().withSealEvery(10))) {
            for (int i = 1; i <= 25; i++) {
                assertEquals(i, store.append(Fixtures.click("r-1", i)));
            }
            assertEquals(20, store.sealedSeq());
            VerifyResult r = store.verify();
            assertTrue(r.ok(), r.describe());
            assertEquals(25, r.headSeq());
        }
        VerifyResult r = AuditVerifier.verify(dir.resolve("audit.db"), dir.resolve("keys/audit.key"));
        assertTrue(r.ok(), r.describe());
        assertEquals(25, r.sealedSeq());
        assertTrue(r.anchorChecked());
        // reopening continues the same chain
        try (AuditStore store = open(clock, AuditSettings.defaults())) {
            assertEquals(26, store.append(Fixtures.click("r-2", 1)));
        }
        assertTrue(AuditVerifier.verify(dir.resolve("audit.db"), dir.resolve("keys/audit.key"))
                .ok());
    }

    @Test
    void concurrent_appends_get_distinct_gap_free_seqs_and_the_chain_verifies() throws Exception {
        try (AuditStore store =
                open(new Fixtures.MutableClock(T0), AuditSettings.defaults().withSealEvery(16))) {
            java.util.Set<Long> seqs = java.util.concurrent.ConcurrentHashMap.newKeySet();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                String runId = "r-" + t;
                threads.add(new Thread(() -> {
                    for (int i = 1; i <= 50; i++) {
                        seqs.add(store.append(Fixtures.click(runId, i)));
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(200, seqs.size());
            assertEquals(200L, seqs.stream().mapToLong(Long::longValue).max().orElse(0));
            VerifyResult r = store.verify();
            assertTrue(r.ok(), r.describe());
            assertEquals(200, r.records());
        }
    }

    @Test
    void record_time_never_goes_backwards_even_when_the_clock_does() {
        Fixtures.MutableClock clock = new Fixtures.MutableClock(T0);
        try (AuditStore store = open(clock, AuditSettings.defaults())) {
            store.append(Fixtures.click("r", 1));
            clock.advance(Duration.ofHours(-1));
            store.append(Fixtures.click("r", 2));
            List<StoredRecord> recs = store.page(AuditQuery.builder().build()).records();
            assertEquals(T0, recs.get(0).recordedAt());
        }
    }

    @Test
    void pages_filter_and_follow_the_keyset_cursor() {
        Fixtures.MutableClock clock = new Fixtures.MutableClock(T0);
        try (AuditStore store = open(clock, AuditSettings.defaults())) {
            store.append(Fixtures.mint("g-1")); // 1
            for (int run = 1; run <= 3; run++) {
                for (int step = 1; step <= 4; step++) {
                    clock.advance(Duration.ofMinutes(1));
                    ActionIntent in = Fixtures.click("r-" + run, step);
                    store.append(in);
                    store.append(
                            step == 4 && run == 2
                                    ? ActionResult.refused(in, RefusalCode.OUT_OF_SCOPE)
                                    : ActionResult.of(in, ActionOutcome.DONE));
                }
                store.append(Fixtures.run(
                        "r-" + run,
                        run == 2 ? RunRecord.Outcome.REFUSED : RunRecord.Outcome.COMPLETED,
                        run == 2 ? RefusalCode.OUT_OF_SCOPE : null,
                        clock.instant()));
            }
            assertEquals(28, store.headSeq());

            AuditPage runs = store.runs(AuditQuery.builder().build());
            assertEquals(List.of(28L, 19L, 10L), seqs(runs));
            assertNull(runs.nextCursor());

            AuditPage refused = store.page(
                    AuditQuery.builder().refusalCode(RefusalCode.OUT_OF_SCOPE).build());
            assertEquals(List.of(19L, 18L), seqs(refused));
            assertEquals(
                    List.of(19L),
                    seqs(store.runs(AuditQuery.builder().outcome("REFUSED").build())));
            assertEquals(
                    List.of(18L),
                    seqs(store.actions(AuditQuery.builder().outcome("refused").build())));

            AuditPage r2 =
                    store.actions(AuditQuery.builder().runId("r-2").limit(3).build());
            assertEquals(List.of(18L, 17L, 16L), seqs(r2));
            assertEquals(16L, r2.nextCursor());
            AuditPage r2b = store.actions(AuditQuery.builder()
                    .runId("r-2")
                    .limit(3)
                    .beforeSeq(r2.nextCursor())
                    .build());
            assertEquals(List.of(15L, 14L, 13L), seqs(r2b));
            AuditPage r2c = store.actions(AuditQuery.builder()
                    .runId("r-2")
                    .limit(3)
                    .beforeSeq(r2b.nextCursor())
                    .build());
            assertEquals(List.of(12L, 11L), seqs(r2c));
            assertNull(r2c.nextCursor());

            assertEquals(
                    List.of(1L),
                    seqs(store.page(AuditQuery.builder().kinds(RecordKind.GRANT).build())));
            assertEquals(
                    12,
                    store.page(AuditQuery.builder()
                                            .actionKind(ActionKind.CLICK)
                                            .kinds(RecordKind.ACTION_INTENT, RecordKind.ACTION_RESULT)
                                            .limit(100)
                                            .build())
                                    .records()
                                    .size()
                            / 2);
            // time range: minutes 2..3 after T0 hold run 1's steps 2 and 3 (intents and results)
            AuditPage window = store.actions(AuditQuery.builder()
                    .from(T0.plus(Duration.ofMinutes(2)))
                    .to(T0.plus(Duration.ofMinutes(4)))
                    .build());
            assertEquals(List.of(7L, 6L, 5L, 4L), seqs(window));
            assertEquals(
                    List.of(),
                    seqs(store.page(AuditQuery.builder()
                            .from(T0.plus(Duration.ofDays(1)))
                            .build())));
            assertEquals(List.of(), seqs(store.page(AuditQuery.builder().to(T0).build())));
            assertEquals(
                    List.of(),
                    seqs(store.page(AuditQuery.builder().grantId("other").build())));
        }
    }

    @Test
    void retention_prunes_only_whole_sealed_prefixes_and_leaves_a_verifiable_checkpoint() {
        Fixtures.MutableClock clock = new Fixtures.MutableClock(T0);
        AuditSettings settings = AuditSettings.defaults().withSealEvery(10).withRetention(Duration.ofDays(30));
        try (AuditStore store = open(clock, settings)) {
            for (int i = 1; i <= 25; i++) {
                store.append(Fixtures.click("old", i)); // 1..25 at T0
            }
            clock.advance(Duration.ofDays(20));
            for (int i = 1; i <= 10; i++) {
                store.append(Fixtures.click("newer", i)); // 26..35 at T0+20d
            }
            assertEquals(PruneResult.nothing(), store.prune()); // nothing older than 30 days yet
            clock.advance(Duration.ofDays(15)); // now T0+35d: 1..25 are expired
            store.append(Fixtures.click("newest", 1)); // 36, seals at 30 and 36 exist then
            PruneResult p = store.prune();
            // seals exist at 10, 20, 30, 35 (the prune before sealed 35), 36: the last one below 26 is 20
            assertEquals(new PruneResult(20, 20), p);
            VerifyResult r = store.verify();
            assertTrue(r.ok(), r.describe());
            assertEquals(21, r.firstSeq());
            assertEquals(36, r.headSeq());
            assertEquals(37, store.append(Fixtures.click("after", 1)));
        }
        VerifyResult r = AuditVerifier.verify(dir.resolve("audit.db"), dir.resolve("keys/audit.key"));
        assertTrue(r.ok(), r.describe());
        assertEquals(17, r.records());
    }

    @Test
    void a_fully_pruned_log_continues_from_its_checkpoint_after_reopen() {
        Fixtures.MutableClock clock = new Fixtures.MutableClock(T0);
        AuditSettings settings = AuditSettings.defaults().withRetention(Duration.ofDays(1));
        try (AuditStore store = open(clock, settings)) {
            for (int i = 1; i <= 5; i++) {
                store.append(Fixtures.click("old", i));
            }
            clock.advance(Duration.ofDays(2));
            assertEquals(new PruneResult(5, 5), store.prune());
        }
        try (AuditStore store = open(clock, settings)) {
            assertEquals(5, store.headSeq());
            assertEquals(6, store.append(Fixtures.click("new", 1)));
        }
        VerifyResult r = AuditVerifier.verify(dir.resolve("audit.db"), dir.resolve("keys/audit.key"));
        assertTrue(r.ok(), r.describe());
        assertEquals(6, r.firstSeq());
    }

    @Test
    void verify_command_prints_and_exits_zero_when_intact() throws Exception {
        try (AuditStore store = open(new Fixtures.MutableClock(T0), AuditSettings.defaults())) {
            store.append(Fixtures.mint("g-1"));
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = AuditVerifyCommand.run(
                new String[] {
                    dir.resolve("audit.db").toString(),
                    dir.resolve("keys/audit.key").toString()
                },
                new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(
                out.toString(StandardCharsets.UTF_8).startsWith("audit ok: 1 records"),
                out.toString(StandardCharsets.UTF_8));
        assertEquals(
                2, AuditVerifyCommand.run(new String[0], new java.io.PrintStream(out), new java.io.PrintStream(err)));
        assertEquals(
                2,
                AuditVerifyCommand.run(
                        new String[] {
                            dir.resolve("missing.db").toString(),
                            dir.resolve("keys/audit.key").toString()
                        },
                        new java.io.PrintStream(out),
                        new java.io.PrintStream(err)));
    }

    static List<Long> seqs(AuditPage page) {
        return page.records().stream().map(StoredRecord::seq).collect(Collectors.toList());
    }

    @org.junit.jupiter.api.Test
    void oneWriterAtATime() {
        java.nio.file.Path db = dir.resolve("single.db");
        java.nio.file.Path key = dir.resolve("single.key");
        try (AuditStore first = AuditStore.open(db, key, AuditSettings.defaults(), java.time.Clock.systemUTC())) {
            AuditException e = org.junit.jupiter.api.Assertions.assertThrows(
                    AuditException.class,
                    () -> AuditStore.open(db, key, AuditSettings.defaults(), java.time.Clock.systemUTC()));
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("already open"), e.getMessage());
        }
        AuditStore.open(db, key, AuditSettings.defaults(), java.time.Clock.systemUTC())
                .close();
    }
}

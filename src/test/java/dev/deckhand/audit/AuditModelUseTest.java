package dev.deckhand.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The columns of schema version 2: the run's model use and report, an action's effect; older logs still verify. */
@Tag("app")
class AuditModelUseTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    @TempDir
    Path dir;

    private AuditStore open() {
        return AuditStore.open(
                dir.resolve("audit.db"),
                dir.resolve("keys/audit.key"),
                AuditSettings.defaults(),
                new Fixtures.MutableClock(T0));
    }

    private static RunRecord withModel(String runId) {
        RunRecord base = Fixtures.run(runId, RunRecord.Outcome.COMPLETED, null, T0);
        return new RunRecord(
                base.runId(),
                base.instruction(),
                base.route(),
                base.grantId(),
                base.stepsRun(),
                base.verifierKind(),
                base.verifierResult(),
                base.verdict(),
                base.outcome(),
                base.refusalCode(),
                base.startedAt(),
                base.endedAt(),
                new RunRecord.ModelUse("openai", "gpt-4o", 3, 3702, 168, "0.010935", "wrote and saved"),
                "model=812ms verifier=40ms approval=0ms host=95ms");
    }

    @Test
    void theModelsPartAndTheEffectRoundTripAndTheChainCoversThem() throws Exception {
        ActionIntent intent = Fixtures.click("r-1", 1);
        List<AuditEvent> samples = List.of(
                new GrantEvent(
                        GrantEvent.Kind.MINT,
                        "g-1",
                        1,
                        "42",
                        "xterm",
                        "scope window; input autonomous; capture pixels; blind input; budget 50; idle 600 s"),
                intent,
                ActionResult.done(intent, "no_change"),
                withModel("r-1"));
        try (AuditStore store = open()) {
            samples.forEach(store::append);
            List<AuditEvent> back =
                    new java.util.ArrayList<>(store.page(AuditQuery.builder().build()).records().stream()
                            .map(StoredRecord::event)
                            .toList());
            java.util.Collections.reverse(back);
            assertEquals(samples, back);
            assertTrue(store.verify().ok());
        }
        // an edit of a grant's settings breaks the chain
        try (Connection c = AuditStore.connect(dir.resolve("audit.db"));
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE audit_record SET grant_settings = 'scope window; input autonomous; capture pixels;"
                    + " budget 50; idle 600 s' WHERE kind = 'GRANT'");
        }
        assertFalse(AuditVerifier.verify(dir.resolve("audit.db"), dir.resolve("keys/audit.key"))
                .ok());
        try (Connection c = AuditStore.connect(dir.resolve("audit.db"));
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE audit_record SET grant_settings = 'scope window; input autonomous; capture pixels;"
                    + " blind input; budget 50; idle 600 s' WHERE kind = 'GRANT'");
        }
        assertTrue(
                AuditVerifier.verify(dir.resolve("audit.db"), dir.resolve("keys/audit.key"))
                        .ok(),
                "put back, it verifies");
        // an edit of the cost or of the model's report breaks the chain
        try (Connection c = AuditStore.connect(dir.resolve("audit.db"));
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE audit_record SET cost_usd = '0.000001' WHERE kind = 'RUN'");
        }
        assertFalse(AuditVerifier.verify(dir.resolve("audit.db"), dir.resolve("keys/audit.key"))
                .ok());
    }

    @Test
    void aLogWrittenBeforeTheseColumnsVerifiesAndIsMigratedOnOpen() throws Exception {
        try (AuditStore store = open()) {
            store.append(Fixtures.mint("g-1"));
            store.append(Fixtures.run("r-0", RunRecord.Outcome.COMPLETED, null, T0));
        }
        // make it a version-1 table: the later columns did not exist then
        try (Connection c = AuditStore.connect(dir.resolve("audit.db"));
                Statement s = c.createStatement()) {
            for (int i = Row.LEGACY_COLUMNS; i < Row.COLUMNS.length; i++) {
                s.execute("ALTER TABLE audit_record DROP COLUMN " + Row.COLUMNS[i]);
            }
        }
        assertTrue(
                AuditVerifier.verify(dir.resolve("audit.db"), dir.resolve("keys/audit.key"))
                        .ok(),
                "a version-1 log verifies: its rows hash as they always did");
        try (AuditStore store = open()) {
            store.append(withModel("r-1"));
            assertTrue(store.verify().ok());
        }
        assertTrue(AuditVerifier.verify(dir.resolve("audit.db"), dir.resolve("keys/audit.key"))
                .ok());
    }

    @Test
    void anEffectIsOnlyForADoneActionAndOneOfTheFive() {
        ActionIntent intent = Fixtures.click("r-1", 1);
        assertThrows(IllegalArgumentException.class, () -> ActionResult.done(intent, "landed"));
        assertThrows(
                IllegalArgumentException.class,
                () -> new ActionResult(
                        "r-1", 1, intent.action(), intent.target(), null, ActionOutcome.FAILED, null, "changed"));
        assertTrue(new RunRecord.ModelUse("p", "m", 1, 1, 1, null, "x".repeat(5000))
                        .finalReport()
                        .length()
                <= 2000);
        assertThrows(IllegalArgumentException.class, () -> new RunRecord.ModelUse("p", "m", 1, 1, 1, "-1", null));
    }
}

package dev.deckhand.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AuditStore#defer}: a record kept in memory is committed first by the next append of any
 * record, in the same transaction, keeping the time it was deferred; on close; never after a later
 * record.
 */
@Tag("app")
class AuditDeferTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    @TempDir
    Path dir;

    private final Fixtures.MutableClock clock = new Fixtures.MutableClock(T0);

    AuditStore open() {
        return AuditStore.open(dir.resolve("audit.db"), dir.resolve("audit.key"), AuditSettings.defaults(), clock);
    }

    @Test
    void a_deferred_record_is_committed_first_by_the_next_append_of_any_kind() {
        ActionIntent intent = Fixtures.click("r-1", 1);
        try (AuditStore store = open()) {
            assertEquals(1, store.append(intent));
            clock.advance(Duration.ofMillis(30));
            store.defer(ActionResult.of(intent, ActionOutcome.DONE));
            assertEquals(1, store.headSeq());
            clock.advance(Duration.ofSeconds(2));
            assertEquals(3, store.append(Fixtures.mint("g-2")), "the grant event comes after the deferred result");
            assertEquals(0, store.deferredCount());
            List<StoredRecord> all =
                    store.page(AuditQuery.builder().limit(10).build()).records();
            assertEquals(
                    List.of(3L, 2L, 1L), all.stream().map(StoredRecord::seq).toList());
            assertInstanceOf(GrantEvent.class, all.get(0).event());
            assertInstanceOf(ActionResult.class, all.get(1).event());
            assertEquals(T0.plusMillis(30), all.get(1).recordedAt(), "the deferred record keeps its own time");
            assertEquals(T0.plusMillis(2030), all.get(0).recordedAt());
            assertTrue(store.verify().ok());
        }
    }

    @Test
    void appendAll_and_flush_commit_the_deferred_records_first_and_nothing_when_none_wait() {
        try (AuditStore store = open()) {
            store.defer(Fixtures.mint("g-1"));
            store.defer(Fixtures.mint("g-2"));
            assertEquals(4, store.appendAll(List.of(Fixtures.mint("g-3"), Fixtures.mint("g-4"))));
            List<String> grants = store.page(AuditQuery.builder().limit(10).build()).records().stream()
                    .map(r -> ((GrantEvent) r.event()).grantId())
                    .toList();
            assertEquals(List.of("g-4", "g-3", "g-2", "g-1"), grants);
            store.flush();
            assertEquals(4, store.headSeq());
            store.defer(Fixtures.mint("g-5"));
            store.flush();
            assertEquals(5, store.headSeq());
        }
    }

    @Test
    void close_commits_what_waits_and_a_closed_store_defers_nothing() {
        AuditStore store = open();
        store.defer(Fixtures.mint("g-1"));
        store.close();
        assertThrows(IllegalStateException.class, () -> store.defer(Fixtures.mint("g-2")));
        try (AuditStore again = open()) {
            assertEquals(1, again.headSeq());
            assertEquals(1, again.sealedSeq(), "the seal on close covers the record committed by close");
            assertTrue(again.verify().ok());
        }
    }
}

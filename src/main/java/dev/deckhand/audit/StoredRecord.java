package dev.deckhand.audit;

import java.time.Instant;

/**
 * A record as read back.
 *
 * @param seq its position in the chain (1..n)
 * @param recordedAt when the store appended it (monotone: never before its predecessor)
 * @param event what was recorded
 */
public record StoredRecord(long seq, Instant recordedAt, AuditEvent event) {
    public StoredRecord {
        Fields.required("recordedAt", recordedAt);
        Fields.required("event", event);
    }
}

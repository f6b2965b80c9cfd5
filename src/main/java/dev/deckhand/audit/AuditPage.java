package dev.deckhand.audit;

import java.util.List;

/**
 * One page of records, newest first.
 *
 * @param records at most the query's limit
 * @param nextCursor pass as {@link AuditQuery#beforeSeq()} for the next page; null when this page
 *     was not full (there is no next page)
 */
public record AuditPage(List<StoredRecord> records, Long nextCursor) {
    public AuditPage {
        records = List.copyOf(Fields.required("records", records));
    }
}

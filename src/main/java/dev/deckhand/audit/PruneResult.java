package dev.deckhand.audit;

/**
 * What {@link AuditStore#prune()} removed.
 *
 * @param checkpointSeq the seq of the new checkpoint (the last removed record), or 0 when nothing
 *     was removed
 * @param deletedRecords how many records were removed
 */
public record PruneResult(long checkpointSeq, long deletedRecords) {
    public static PruneResult nothing() {
        return new PruneResult(0, 0);
    }
}

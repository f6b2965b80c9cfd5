package dev.deckhand.audit;

/**
 * Where records are written: committed now ({@link #append}), or kept to be committed first in the
 * next commit ({@link #defer}). The order of seqs is the order of the calls either way.
 */
public interface AuditAppender {

    /**
     * Commits {@code event}, together with every deferred record before it, with a full sync.
     *
     * @return the record's seq; once this returns it survives a crash
     */
    long append(AuditEvent event);

    /**
     * Keeps {@code event} (timed now) to be committed first in the next {@link #append}: one commit
     * for two records. A crash loses it, so only a record nothing has acted on may wait — an action's
     * result, never its intent.
     */
    void defer(AuditEvent event);
}

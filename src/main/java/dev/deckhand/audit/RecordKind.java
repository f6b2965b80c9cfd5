package dev.deckhand.audit;

/** The stored kind of an audit record (column {@code kind}); the name is the stored value. */
public enum RecordKind {
    GRANT,
    ACTION_INTENT,
    ACTION_RESULT,
    APPROVAL,
    RUN
}

package dev.deckhand.audit;

/** The audit store could not do what was asked (I/O, SQLite, a bad key file). Unchecked. */
public class AuditException extends RuntimeException {
    public AuditException(String message, Throwable cause) {
        super(message, cause);
    }

    public AuditException(String message) {
        super(message);
    }
}

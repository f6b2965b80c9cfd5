package dev.deckhand.home;

import io.quarkus.logging.LoggingFilter;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;

/**
 * No log line carries one of Deckhand's secrets: the message, formatted with its parameters, and every
 * exception message of its cause chain are passed through {@link PublishedSecrets#withhold} before any handler
 * writes them (named {@code deckhand-secrets} on the console and file handlers in application.properties).
 * A line is never dropped, only withheld in part.
 */
@LoggingFilter(name = "deckhand-secrets")
public final class SecretLogFilter implements Filter {

    @Override
    public boolean isLoggable(LogRecord record) {
        if (PublishedSecrets.current().isEmpty()) return true;
        String formatted = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
        String withheld = PublishedSecrets.withhold(formatted);
        if (withheld != null && !withheld.equals(formatted)) {
            if (record instanceof ExtLogRecord ext) ext.setMessage(withheld, ExtLogRecord.FormatStyle.NO_FORMAT);
            else record.setMessage(withheld);
            record.setParameters(null);
        }
        Throwable thrown = record.getThrown();
        if (thrown != null && carries(thrown)) record.setThrown(withheld(thrown));
        return true;
    }

    private static boolean carries(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (PublishedSecrets.current().foundIn(String.valueOf(c.getMessage()))) return true;
        }
        return false;
    }

    /** A copy of the chain whose messages are withheld, with the same classes named and stack traces. */
    private static Throwable withheld(Throwable t) {
        Throwable cause = t.getCause() == null || t.getCause() == t ? null : withheld(t.getCause());
        Throwable copy = new WithheldThrowable(
                t.getClass().getName() + ": " + PublishedSecrets.withhold(String.valueOf(t.getMessage())), cause);
        copy.setStackTrace(t.getStackTrace());
        return copy;
    }

    /** An exception whose message was withheld; its message names the original class. */
    static final class WithheldThrowable extends RuntimeException {
        WithheldThrowable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}

package dev.deckhand.mcp;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts calls that reached the {@code computer} handler, so tests (and the doctor) can tell
 * that a request refused at the HTTP boundary never ran the tool.
 */
@ApplicationScoped
public class ToolCallLedger {

    private final AtomicLong calls = new AtomicLong();

    void recordCall() {
        calls.incrementAndGet();
    }

    public long calls() {
        return calls.get();
    }
}

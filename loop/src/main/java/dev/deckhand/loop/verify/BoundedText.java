package dev.deckhand.loop.verify;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A text that stops a regex match at a deadline: {@link java.util.regex.Matcher} reads its input only
 * through {@link #charAt}, so a catastrophic pattern such as {@code (a+)+$} backtracking over an
 * app-controlled title ends with {@link TimeLimitExceeded} once {@code nanoTime} passes the deadline (or
 * the thread is interrupted) instead of spinning on. The clock is read every {@value #CHECK_EVERY} reads.
 */
final class BoundedText implements CharSequence {

    static final int CHECK_EVERY = 256;

    /** The match ran past its deadline or was interrupted. */
    static final class TimeLimitExceeded extends RuntimeException {
        TimeLimitExceeded() {
            super("the match ran past its time limit", null, false, false);
        }
    }

    private final CharSequence text;
    private final long deadline;
    private final LongSupplier nanoTime;
    private int reads;

    BoundedText(CharSequence text, long deadline, LongSupplier nanoTime) {
        this.text = Objects.requireNonNull(text, "text");
        this.deadline = deadline;
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    @Override
    public char charAt(int index) {
        if (++reads % CHECK_EVERY == 0
                && (nanoTime.getAsLong() - deadline > 0
                        || Thread.currentThread().isInterrupted())) {
            throw new TimeLimitExceeded();
        }
        return text.charAt(index);
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new BoundedText(text.subSequence(start, end), deadline, nanoTime);
    }

    @Override
    public String toString() {
        return text.toString();
    }
}

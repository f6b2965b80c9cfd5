package dev.deckhand.grant;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves by hand; thread-safe. */
final class MutableClock extends Clock {

    private volatile Instant now;

    MutableClock(Instant start) {
        this.now = start;
    }

    MutableClock() {
        this(Instant.ofEpochSecond(1_767_225_600L)); // 2026-01-01T00:00:00Z
    }

    synchronized void advance(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("a clock only moves forward");
        }
        now = now.plus(d);
    }

    synchronized void set(Instant t) {
        if (t.isBefore(now)) {
            throw new IllegalArgumentException("a clock only moves forward");
        }
        now = t;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("withZone");
    }
}

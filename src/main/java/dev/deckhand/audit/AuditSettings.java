package dev.deckhand.audit;

import java.time.Duration;

/**
 * Store settings.
 *
 * @param sealEvery seal the head after this many appended records (>= 1); the head is also
 *     sealed on {@link AuditStore#seal()}, before pruning and on close
 * @param retention how long records are kept; null keeps everything. Pruning only removes whole
 *     sealed prefixes older than this (see {@link AuditStore#prune()})
 * @param busyTimeoutMillis SQLite busy_timeout (>= 0)
 */
public record AuditSettings(int sealEvery, Duration retention, int busyTimeoutMillis) {
    public AuditSettings {
        if (sealEvery < 1) {
            throw new IllegalArgumentException("sealEvery must be >= 1");
        }
        if (retention != null && (retention.isNegative() || retention.isZero())) {
            throw new IllegalArgumentException("retention must be positive or null");
        }
        if (busyTimeoutMillis < 0) {
            throw new IllegalArgumentException("busyTimeoutMillis must be >= 0");
        }
    }

    /** Seal every 100 records, keep everything, 5 s busy timeout. */
    public static AuditSettings defaults() {
        return new AuditSettings(100, null, 5_000);
    }

    public AuditSettings withSealEvery(int n) {
        return new AuditSettings(n, retention, busyTimeoutMillis);
    }

    public AuditSettings withRetention(Duration keep) {
        return new AuditSettings(sealEvery, keep, busyTimeoutMillis);
    }
}

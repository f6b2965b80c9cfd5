package dev.deckhand.run;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Where a run's time goes, phase by phase (docs/performance.md#one-call-at-the-speed-of-the-machine): each call the loop makes through a port is timed
 * into one phase, the innermost one, so the policy facts the guard reads count as {@code facts} and not
 * twice. {@code verify} and {@code model} are opaque: what they do inside counts as theirs. Only the run's own thread is counted (the watcher polls the same desktop on another).
 * Not thread-safe beyond that: one per run.
 */
final class StepPhases {

    /** The phases, in the order a step passes them. */
    enum Phase {
        OBSERVE,
        FACTS,
        POLICY,
        APPROVAL,
        CURSOR,
        ACT,
        SETTLE,
        VERIFY,
        AUDIT,
        MODEL;

        String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        boolean opaque() {
            return this == VERIFY || this == MODEL;
        }
    }

    private final Thread owner = Thread.currentThread();
    private final LongSupplier ticker;
    private final long started;
    private final Map<Phase, Long> total = new EnumMap<>(Phase.class);
    private final Map<Phase, Long> step = new EnumMap<>(Phase.class);
    private Phase current;
    private long since;

    /** On the calling thread (the run's), timed by {@link System#nanoTime()}. */
    StepPhases() {
        this(System::nanoTime);
    }

    /** @param ticker nanoseconds, monotonic (tests pass a fake) */
    StepPhases(LongSupplier ticker) {
        this.ticker = ticker;
        this.started = ticker.getAsLong();
    }

    /** Runs {@code body} inside {@code phase} (nested in the current phase unless that one is opaque). */
    <T> T time(Phase phase, Supplier<T> body) {
        if (Thread.currentThread() != owner || (current != null && current.opaque())) return body.get();
        Phase outer = current;
        switchTo(phase);
        try {
            return body.get();
        } finally {
            switchTo(outer);
        }
    }

    void run(Phase phase, Runnable body) {
        time(phase, () -> {
            body.run();
            return null;
        });
    }

    /** Counts {@code nanos} measured elsewhere (the verifier runs on a thread of its own while the run waits). */
    void record(Phase phase, long nanos) {
        if (nanos > 0) add(phase, nanos);
    }

    /** Moves {@code nanos} already counted in {@code from} into {@code to} (the approval wait inside a check). */
    void move(Phase from, Phase to, long nanos) {
        if (nanos <= 0) return;
        add(from, -nanos);
        add(to, nanos);
    }

    private void switchTo(Phase next) {
        long now = ticker.getAsLong();
        if (current != null) add(current, now - since);
        current = next;
        since = now;
    }

    private void add(Phase p, long nanos) {
        total.merge(p, nanos, Long::sum);
        step.merge(p, nanos, Long::sum);
    }

    /** This step's figures since the last call, and starts the next step's. */
    String takeStep() {
        String s = render(step, -1);
        step.clear();
        return s;
    }

    /** The whole run's figures so far; {@code other} is the run's time outside every phase. */
    String totals() {
        return render(total, ticker.getAsLong() - started);
    }

    long nanos(Phase p) {
        return Math.max(0, total.getOrDefault(p, 0L));
    }

    private static String render(Map<Phase, Long> figures, long wall) {
        StringBuilder b = new StringBuilder();
        long counted = 0;
        for (Phase p : Phase.values()) {
            long n = Math.max(0, figures.getOrDefault(p, 0L));
            counted += n;
            if (b.length() > 0) b.append(' ');
            b.append(p.wire()).append('=').append(ms(n)).append("ms");
        }
        if (wall >= 0)
            b.append(" other=").append(ms(Math.max(0, wall - counted))).append("ms");
        return b.toString();
    }

    static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
    }
}

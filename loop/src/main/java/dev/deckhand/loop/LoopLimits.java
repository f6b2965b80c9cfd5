package dev.deckhand.loop;

import java.time.Duration;
import java.util.Objects;

/**
 * The loop's ceilings and sizes. A request's {@code maxSteps}/{@code timeoutSeconds} only lower them.
 *
 * @param maxSteps actions delivered per run (default 60)
 * @param wallClock per run, measured on the injected clock (default 10 min)
 * @param observationTokens budget of the compact observation (estimated as characters / 4)
 * @param captureLongEdge long edge of captures in pixels
 * @param settle longest wait for the app to go quiet after an input action
 * @param lastSteps how many recent steps the decider is shown
 */
public record LoopLimits(
        int maxSteps, Duration wallClock, int observationTokens, int captureLongEdge, Duration settle, int lastSteps) {

    public static final LoopLimits DEFAULTS =
            new LoopLimits(60, Duration.ofMinutes(10), 4_000, 1_280, Duration.ofSeconds(2), 5);

    public LoopLimits {
        if (maxSteps < 1) throw new IllegalArgumentException("maxSteps must be at least 1");
        Objects.requireNonNull(wallClock, "wallClock");
        if (wallClock.isNegative() || wallClock.isZero())
            throw new IllegalArgumentException("wallClock must be positive");
        if (observationTokens < 32) throw new IllegalArgumentException("observationTokens must be at least 32");
        if (captureLongEdge < 64) throw new IllegalArgumentException("captureLongEdge must be at least 64");
        Objects.requireNonNull(settle, "settle");
        if (lastSteps < 0) throw new IllegalArgumentException("lastSteps must be >= 0");
    }

    /** The run's wall clock: {@link #wallClock}, lowered (never raised) by the request's {@code timeoutSeconds}. */
    public Duration wallClockFor(RunRequest request) {
        Duration wall = wallClock;
        if (request.timeoutSeconds().isPresent()) {
            Duration asked = Duration.ofSeconds(request.timeoutSeconds().get());
            if (asked.compareTo(wall) < 0) wall = asked;
        }
        return wall;
    }

    /**
     * When the run's wall clock runs out, counted from now: the one computation of a run's deadline, made
     * once per run by whoever builds the loop and handed to it ({@link ComputerLoop.Builder#deadline}) and to
     * everything else bounded by it (approval cards, model calls).
     */
    public java.time.Instant deadline(java.time.Clock clock, RunRequest request) {
        return clock.instant().plus(wallClockFor(request));
    }
}

package dev.deckhand.model;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * The retry rule for one model turn: a transient failure ({@link ModelException#transientFailure()}:
 * 429, 408, 5xx, overload, time-out, no answer) is tried again after the wait the provider's
 * {@code Retry-After} asks for, else after an exponential backoff with jitter (1 s, 2 s, 4 s … capped at
 * 30 s, each drawn between half and all of it), at most {@value #MAX_ATTEMPTS} attempts and never past
 * the run's deadline. Anything else (a bad key, a refused schema) is not retried. When it gives up, a
 * {@link GaveUp} names the provider's last answer.
 */
public final class ProviderRetry {

    /** Waits; interruptible (Stop cancels the turn's thread). */
    @FunctionalInterface
    public interface Pause {
        void sleep(Duration d) throws InterruptedException;
    }

    /** The provider stayed unavailable; the message names its last answer and what was tried. */
    public static final class GaveUp extends RuntimeException {
        private final transient ModelException last;
        private final int attempts;

        GaveUp(String message, ModelException last, int attempts) {
            super(message, null, false, false);
            this.last = last;
            this.attempts = attempts;
        }

        public ModelException last() {
            return last;
        }

        public int attempts() {
            return attempts;
        }
    }

    public static final int MAX_ATTEMPTS = 8;
    static final Duration BASE = Duration.ofSeconds(1);
    static final Duration CAP = Duration.ofSeconds(30);

    private final Clock clock;
    private final Pause pause;
    private final DoubleSupplier random;

    public ProviderRetry(Clock clock, Pause pause, DoubleSupplier random) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pause = Objects.requireNonNull(pause, "pause");
        this.random = Objects.requireNonNull(random, "random");
    }

    /** The real clock, sleep and randomness. */
    public static ProviderRetry system() {
        return new ProviderRetry(Clock.systemUTC(), d -> Thread.sleep(d.toMillis()), () -> ThreadLocalRandom.current()
                .nextDouble());
    }

    /**
     * Makes the call, trying again on transient failures until it answers, {@value #MAX_ATTEMPTS} attempts
     * were made, or the next wait would reach {@code deadline}.
     *
     * @throws ModelException a failure that is not transient, as the provider gave it
     * @throws GaveUp when the provider stayed unavailable
     */
    public <T> T call(Supplier<T> call, Instant deadline) {
        Instant first = clock.instant();
        for (int attempt = 1; ; attempt++) {
            ModelException failure;
            try {
                return call.get();
            } catch (ModelException e) {
                if (!e.transientFailure()) throw e;
                failure = e;
            }
            Duration wait = delay(attempt, failure);
            Instant now = clock.instant();
            String why = null;
            if (attempt >= MAX_ATTEMPTS) {
                why = "gave up after " + attempt + " attempts";
            } else if (!now.plus(wait).isBefore(deadline)) {
                why = "gave up after " + attempt + " attempt" + (attempt == 1 ? "" : "s") + ": the next try (in "
                        + seconds(wait) + ") would pass the run's wall clock";
            }
            if (why != null) {
                throw new GaveUp(
                        "the model provider " + failure.providerId() + " stayed unavailable: "
                                + (failure.httpStatus() > 0 ? "HTTP " + failure.httpStatus() + " " : "") + "\""
                                + failure.providerMessage() + "\"; " + why + " over "
                                + seconds(Duration.between(first, now)),
                        failure,
                        attempt);
            }
            try {
                pause.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw failure;
            }
        }
    }

    /** The wait before attempt {@code attempt + 1}: the provider's Retry-After, else backoff with jitter. */
    Duration delay(int attempt, ModelException failure) {
        double r = Math.min(1.0, Math.max(0.0, random.getAsDouble()));
        if (failure.retryAfter().isPresent()) {
            Duration asked = failure.retryAfter().get();
            // at least what was asked; a little spread so that parallel clients do not return in step
            return asked.plusMillis((long) (r * Math.min(1000, asked.toMillis() / 10)));
        }
        long exp = Math.min(CAP.toMillis(), BASE.toMillis() << Math.min(attempt - 1, 20));
        return Duration.ofMillis(exp / 2 + (long) (r * (exp / 2.0)));
    }

    private static String seconds(Duration d) {
        return String.format(java.util.Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}

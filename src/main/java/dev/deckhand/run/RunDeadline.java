package dev.deckhand.run;

import dev.deckhand.loop.RunRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** When a run's wall clock runs out: the policy's cap, lowered (never raised) by the call's timeoutSeconds. */
final class RunDeadline {

    private RunDeadline() { }

    static Instant of(Clock clock, Duration cap, RunRequest request) {
        Duration wall = cap;
        if (request.timeoutSeconds().isPresent()) {
            Duration asked = Duration.ofSeconds(request.timeoutSeconds().get());
            if (asked.compareTo(wall) < 0) wall = asked;
        }
        return clock.instant().plus(wall);
    }
}

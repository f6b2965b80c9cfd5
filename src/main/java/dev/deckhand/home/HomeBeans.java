package dev.deckhand.home;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The foundation's beans: the config directory, resolved (and created, mode 0700) once from
 * {@code deckhand.home}, and the one {@link Clock} of the whole application. Every bean that lets time
 * decide anything (grant expiry, approvals, sessions, rate limits, run wall clocks, audit timestamps)
 * injects this clock; a test replaces it with an {@code @Alternative} producer of its own.
 */
@Singleton
public class HomeBeans {

    @Produces
    @Singleton
    DeckhandHome home(DeckhandConfig config) {
        return DeckhandHome.resolve(config.home().orElse(null));
    }

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}

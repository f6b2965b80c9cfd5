package dev.deckhand.loop;

import java.time.Duration;

/** Carries out {@code wait{ms}}; injected so tests do not sleep. */
@FunctionalInterface
public interface Sleeper {

    Sleeper REAL = d -> Thread.sleep(d.toMillis());

    void sleep(Duration duration) throws InterruptedException;
}

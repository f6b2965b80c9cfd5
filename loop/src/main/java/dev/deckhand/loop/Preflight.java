package dev.deckhand.loop;

import dev.deckhand.grant.Refusal;
import java.util.Optional;

/**
 * Checks before anything runs (docs/design.md#the-run-loop): the display answers, the screen is not locked, the
 * accessibility bus answers, the granted window still exists and is mapped. A failure is a refusal,
 * usually {@code PREFLIGHT_FAILED} naming the check (or {@code HEADLESS}).
 */
@FunctionalInterface
public interface Preflight {

    Optional<Refusal> check(long windowId);
}

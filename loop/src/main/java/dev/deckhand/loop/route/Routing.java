package dev.deckhand.loop.route;

import java.util.Objects;

/**
 * A routing decision.
 *
 * @param captures whether the loop takes captures (and so shows pixels to the model)
 * @param reason which rule fired, in words, for the run record
 */
public record Routing(Route route, boolean captures, String reason) {

    public Routing {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(reason, "reason");
        if (captures && route == Route.UID) throw new IllegalArgumentException("captures must be false on the uid route");
    }
}

package dev.deckhand.loop.route;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A routing decision.
 *
 * @param captures whether the loop takes captures (and so shows pixels to the model)
 * @param reason which rule fired, in words, for the run record
 * @param syntheticInput whether the window takes synthetic input; false on a native Wayland window, where
 *     {@link #SYNTHETIC_INPUT} is never offered
 */
public record Routing(Route route, boolean captures, String reason, boolean syntheticInput) {

    /** The actions that need synthetic input (keyboard events, a pointer at pixels). */
    public static final Set<String> SYNTHETIC_INPUT = Set.of("key", "type", "click_at");

    public Routing {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(reason, "reason");
        if (captures && route == Route.UID)
            throw new IllegalArgumentException("captures must be false on the uid route");
        if (!captures && (route == Route.HYBRID || route == Route.PIXELS)) {
            throw new IllegalArgumentException("the " + route.wire() + " route takes captures");
        }
        if (!syntheticInput && (captures || route == Route.PIXELS || route == Route.HYBRID)) {
            throw new IllegalArgumentException("a window without synthetic input has no pixels route and no captures");
        }
    }

    public Routing(Route route, boolean captures, String reason) {
        this(route, captures, reason, true);
    }

    /** The action kinds the model may return: the route's, without {@link #SYNTHETIC_INPUT} where there is none. */
    public Set<String> permittedActions() {
        if (syntheticInput) return route.permittedActions();
        Set<String> s = new TreeSet<>(route.permittedActions());
        s.removeAll(SYNTHETIC_INPUT);
        return Set.copyOf(s);
    }

    /**
     * This routing for a window that takes no synthetic input (a native Wayland app): the uid and read-only
     * routes lose {@code key}, {@code type}, {@code click_at} and captures; the hybrid route becomes the uid route
     * (a Wayland window gives no pixels); the pixels route has nothing left.
     *
     * @throws RefusedException {@code WAYLAND_INPUT_UNSUPPORTED} for the pixels route (no tree to act on and
     *     neither pixels nor a pointer)
     */
    public Routing withoutSyntheticInput() {
        if (route == Route.PIXELS) {
            throw new RefusedException(Refusal.waylandInputUnsupported("the window has no usable accessibility tree,"
                    + " and a Wayland window gives neither pixels nor pointer input (" + reason + ")"));
        }
        Route kept = route == Route.HYBRID ? Route.UID : route;
        return new Routing(kept, false, reason + "; the window takes no synthetic input (Wayland): act by uid", false);
    }
}

package dev.deckhand.loop.route;

import dev.deckhand.loop.action.ActionSchema;
import java.util.Set;
import java.util.TreeSet;

/** How a run works on its window; see {@link Router} for the rule. */
public enum Route {
    /** Verify/inspect: no input ever; the model may only wait, say done or fail. */
    READ_ONLY(Set.of("wait", "done", "fail")),
    /** Act by uid on the accessibility tree; no captures, no {@code click_at} (an {@code a11y_only} grant). */
    UID(without("click_at")),
    /**
     * The tree and a capture of the window together (a {@code pixels} grant on a window with a usable tree): uid
     * actions and {@code click_at} in one run, the elements' bounds in the capture's pixels.
     */
    HYBRID(ActionSchema.kinds()),
    /** Pixel-only work (no usable tree): captures are taken and {@code click_at} is permitted. */
    PIXELS(ActionSchema.kinds());

    private final Set<String> permitted;

    Route(Set<String> permitted) {
        this.permitted = Set.copyOf(permitted);
    }

    /** The action kinds the model may return on this route (the schema it is sent is restricted to them). */
    public Set<String> permittedActions() {
        return permitted;
    }

    public boolean givesInput() {
        return this != READ_ONLY;
    }

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    private static Set<String> without(String kind) {
        Set<String> s = new TreeSet<>(ActionSchema.kinds());
        s.remove(kind);
        return s;
    }
}

package dev.deckhand.loop.steps;

import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ElementAction;
import java.util.Objects;
import java.util.Optional;

/**
 * One explicit step. An element action ({@code click}, {@code set_text}, {@code focus},
 * {@code scroll}, {@code select}) carries a {@link Selector} in {@code target}, and its action holds
 * the placeholder uid {@link #UNRESOLVED} until {@link #resolved(String)} is called with the uid the
 * selector resolved to in the current tree. Other actions have no target. A {@code click_at} step
 * carries window coordinates and the placeholder basis {@link #WINDOW_POINT}: the step runner
 * captures the window when it reaches the step and binds the point to that capture (pixel grants only).
 */
public record Step(Action action, Optional<Selector> target) {

    /** The uid an unresolved element step carries; never minted by a driver (it has spaces). */
    public static final String UNRESOLVED = "(unresolved target)";

    /** The basis a {@code click_at} step carries: its x, y are window coordinates, bound by the step runner. */
    public static final String WINDOW_POINT = "(window coordinates)";

    public Step {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(target, "target");
        boolean element = action instanceof ElementAction;
        if (element && target.isEmpty()) throw new IllegalArgumentException("target is required for " + action.kind());
        if (!element && target.isPresent())
            throw new IllegalArgumentException("target is not allowed for " + action.kind());
        if (action instanceof Action.ClickAt && !WINDOW_POINT.equals(((Action.ClickAt) action).basis())) {
            throw new IllegalArgumentException(
                    "a click_at step takes window coordinates; its basis is bound by the step runner");
        }
    }

    /** Whether this step is a {@code click_at} in window coordinates (it needs a capture, so a pixels grant). */
    public boolean windowPoint() {
        return action instanceof Action.ClickAt;
    }

    /** The action aimed at {@code uid}; for a step without target, the action itself. */
    public Action resolved(String uid) {
        return action instanceof ElementAction ? ((ElementAction) action).withUid(uid) : action;
    }
}

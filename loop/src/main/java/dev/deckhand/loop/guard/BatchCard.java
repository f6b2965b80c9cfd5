package dev.deckhand.loop.guard;

import dev.deckhand.loop.desktop.Node;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the person approved on the one card of a confirm-each batch of explicit steps: for each step the
 * element the card named — its role, name and uid in the grant revision the card was raised in — or, for a
 * step without a target (a key, typed text, a wait, a point), the action as the card showed it; and which
 * steps the card showed as consequential. Every step is judged again when it runs, against this: a step
 * whose target now resolves to anything else, or whose target was not on screen when the card was shown
 * (a dialog an earlier step opens), was not approved, and neither is a consequential effect the card did
 * not show (a key whose focus makes it press a button). Pure.
 *
 * @param revision the grant revision the card was raised in (uids mean nothing outside it)
 * @param steps one entry per step, in order
 */
record BatchCard(long revision, List<Shown> steps) {

    BatchCard {
        steps = List.copyOf(Objects.requireNonNull(steps, "steps"));
    }

    /** An element as the card named it. */
    record Named(String role, String name, String uid) {
        Named {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(uid, "uid");
        }

        static Named of(Node n) {
            return new Named(n.role(), n.name(), n.uid());
        }
    }

    /**
     * One step as the card showed it.
     *
     * @param targeted the step names its element by a selector
     * @param named the element the selector resolved to when the card was raised; empty when it did not
     *     resolve then (not on screen yet)
     * @param consequential the card showed this step as consequential (the person approved that effect)
     */
    record Shown(boolean targeted, Optional<Named> named, boolean consequential) {
        Shown {
            Objects.requireNonNull(named, "named");
            if (!targeted && named.isPresent())
                throw new IllegalArgumentException("a step without target names no element");
        }
    }

    /** The card for {@code resolved} steps (each step's target resolved when the card is raised, or empty). */
    static BatchCard of(
            long revision, List<Boolean> targeted, List<Optional<Node>> resolved, Set<Integer> consequential) {
        if (targeted.size() != resolved.size()) throw new IllegalArgumentException("one target per step");
        List<Shown> shown = new java.util.ArrayList<>();
        for (int i = 0; i < resolved.size(); i++) {
            shown.add(new Shown(
                    targeted.get(i),
                    targeted.get(i) ? resolved.get(i).map(Named::of) : Optional.empty(),
                    consequential.contains(i)));
        }
        return new BatchCard(revision, shown);
    }

    /**
     * Why the card does not cover step {@code step} as it resolves now, or empty when it does (the
     * confirm-each approval; a consequential effect needs {@link #consequentialShown} too).
     *
     * @param node the element the step resolves to now (empty for a step without target)
     * @param revision the grant revision of the tree {@code node} was read from
     */
    Optional<String> notCovered(int step, Optional<Node> node, long revision) {
        if (step < 0 || step >= steps.size()) return Optional.of("not a step of the approved card");
        Shown s = steps.get(step);
        if (!s.targeted()) return Optional.empty();
        if (s.named().isEmpty()) return Optional.of("its target was not on screen when the card was shown");
        if (node.isEmpty()) return Optional.of("it names no element now");
        if (revision != this.revision) {
            return Optional.of(
                    "the grant moved from revision " + this.revision + " to " + revision + " since the card");
        }
        Named now = Named.of(node.get());
        if (!now.equals(s.named().get())) return Optional.of("it now resolves to another element than the card named");
        return Optional.empty();
    }

    /** Whether the card showed step {@code step}'s element as consequential, so its approval covers that effect. */
    boolean consequentialShown(int step, Optional<Node> node, long revision) {
        return step >= 0
                && step < steps.size()
                && steps.get(step).consequential()
                && steps.get(step).named().isPresent()
                && notCovered(step, node, revision).isEmpty();
    }
}

package dev.deckhand.loop;

import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.steps.Step;
import java.util.List;
import java.util.Optional;

/**
 * The grant and the policy as the loop sees them; the application wires it to the grant broker
 * (validity, revision, budget, expiry, input policy and approvals) and the policy (absolute
 * refusals, deny lists, consequential actions).
 */
public interface Guard {

    /** Once, before the run starts (after the request checks): is there a live grant, does the deny scan pass? */
    default Optional<Refusal> checkRun() {
        return Optional.empty();
    }

    /** Immediately before every snapshot and capture: may the window be observed now (deny scan)? */
    default Optional<Refusal> checkObserve() {
        return Optional.empty();
    }

    /**
     * Once, before the first of a run's explicit steps: where the input policy is confirm-each, one
     * approval card for the whole list (DESIGN.md §3). {@code resolved} holds each step's target as
     * resolved in {@code tree} now, or empty where it does not resolve yet (a later step may name an
     * element that an earlier one makes appear); every step is still checked by {@link #check} when it runs.
     */
    default Optional<Refusal> approveSteps(List<Step> steps, List<Optional<Node>> resolved, ScopedTree tree) {
        return Optional.empty();
    }

    /**
     * Immediately before every action is delivered (wait included; done and fail are not actions).
     * May block for an approval. An element action's uid is already known to be in {@code tree}.
     *
     * @param basis the capture basis of a {@code click_at}, empty otherwise
     */
    Optional<Refusal> check(Action action, ScopedTree tree, Optional<Basis> basis);

    /** After an action that gave input was delivered: spend one unit of the grant's budget. */
    void consume();
}

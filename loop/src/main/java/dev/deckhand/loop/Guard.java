package dev.deckhand.loop;

import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.steps.Step;
import java.util.List;
import java.util.Optional;

/**
 * The grant and the policy as the loop sees them ({@link dev.deckhand.loop.guard.GrantGuard} wires them
 * to the grant broker, the approval book and the policy). Per action the loop calls, in this order:
 * {@link #check} (may wait for an approval; the drawn cursor travels meanwhile) → {@link #reserve} (a
 * budget unit) → the cursor's arrival → {@link #lastCheck} right before each native call → deliver →
 * {@link #spent} or, when nothing was delivered, {@link #release}.
 */
public interface Guard {

    /** Once, before the run starts (after the request checks): is there a live grant, does the deny scan pass? */
    default Optional<Refusal> checkRun() {
        return Optional.empty();
    }

    /** Immediately before every snapshot: may the window be observed now (deny scan, scope)? */
    default Optional<Refusal> checkObserve() {
        return Optional.empty();
    }

    /**
     * Every tree the loop reads, before it is observed (it goes to the model, resolves a step, or ends the
     * run): does it show a denied place ({@code DENY_PATH}: a file chooser, address bar or window title
     * naming one)? A refusal ends the run before anything of the tree leaves the loop. Not a default
     * method: a guard that wraps another must pass it on, or the check would be lost without a sound.
     */
    Optional<Refusal> checkTree(ScopedTree tree);

    /** Immediately before every pixel capture: also no password field focused and no grab held. */
    default Optional<Refusal> checkCapture() {
        return Optional.empty();
    }

    /**
     * Windows that join the observation besides the granted one: on an app grant, the dialogs of the
     * target's client mapped over it. Empty by default.
     */
    default List<Long> joinedWindows() {
        return List.of();
    }

    /**
     * Once, before the first of a run's explicit steps: where the input policy is confirm-each, one
     * approval card for the whole list (docs/design.md#grants). {@code resolved} holds each step's target as
     * resolved in {@code tree} now, or empty where it does not resolve yet (a later step may name an
     * element that an earlier one makes appear); every step is still checked by {@link #check} when it runs.
     */
    default Optional<Refusal> approveSteps(List<Step> steps, List<Optional<Node>> resolved, ScopedTree tree) {
        return Optional.empty();
    }

    /**
     * Before every action is delivered (wait included; done and fail are not actions). May block for an
     * approval. An element action's uid is already known to be in {@code tree}.
     *
     * @param basis the capture basis of a {@code click_at}, empty otherwise
     */
    Optional<Refusal> check(Action action, ScopedTree tree, Optional<Basis> basis);

    /**
     * {@link #check} for explicit step {@code step} (0-based) of the run's list: the card
     * {@link #approveSteps} raised approves the step only as that card showed it — the element it named
     * (role, name, uid in its revision), or the action itself for a step without target — and never a
     * consequential effect it did not show; anything else raises a card for this step. No default: a
     * decorator that forgot it would judge every step as a model's action.
     */
    Optional<Refusal> checkStep(int step, Action action, ScopedTree tree, Optional<Basis> basis);

    /** After {@link #check} allowed an input action: reserve one unit of the grant's budget. */
    default Optional<Refusal> reserve() {
        return Optional.empty();
    }

    /** The reserved unit was not delivered (refused or failed before any event): give it back. */
    default void release() {}

    /** The reserved unit was delivered. */
    default void spent() {}

    /**
     * Immediately before each native call of a delivery, after the drawn cursor's travel: Stop, the grant,
     * the policy on facts read now, and (for key and type) the focus still where {@link #check} saw it.
     * Never waits for a person.
     */
    default Optional<Refusal> lastCheck(Action action, ScopedTree tree, Optional<Basis> basis) {
        return Optional.empty();
    }

    /**
     * After a delivered input action has settled: the refusal that ends the run because the action moved the
     * person's focus — the granted app's window became the active one while the person was in another window
     * (docs/security.md) — or empty. No default: a decorator that forgot it would never end such a run.
     */
    Optional<Refusal> afterDelivery(Action action);

    /**
     * What is watched between the checks, read now: the refusal that ends the run because something happened that
     * no action of the loop asked for — the granted app took the person's focus, the person's keyboard was changed,
     * a verdict the run's watcher holds (docs/security.md) — or empty. The loop asks it during waits and once the
     * run has ended (an ending that says less, such as an app that stopped answering, gives way to it); the run's
     * watcher asks it every poll interval. No default: a decorator that forgot it would watch nothing.
     *
     * @param grace how long a focus move is looked for again and again, while the person's window is watched since a
     *     delivered action (an app that stopped answering because the action opened its modal dialog presents the
     *     dialog a moment later); {@link java.time.Duration#ZERO}: one look, never waits
     */
    Optional<Refusal> watch(java.time.Duration grace);
}

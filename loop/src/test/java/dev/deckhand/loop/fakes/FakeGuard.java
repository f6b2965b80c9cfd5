package dev.deckhand.loop.fakes;

import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.Guard;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.steps.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** A guard whose answer a test sets; records what it was asked and how often budget was consumed. */
public final class FakeGuard implements Guard {

    public final List<Action> checked = new ArrayList<>();
    public final List<Optional<Basis>> bases = new ArrayList<>();
    public int consumed;
    public int observeChecks;
    public Optional<Refusal> onRun = Optional.empty();
    public Optional<Refusal> onObserve = Optional.empty();
    public Function<Action, Optional<Refusal>> onAction = a -> Optional.empty();

    @Override
    public Optional<Refusal> checkRun() {
        return onRun;
    }

    @Override
    public Optional<Refusal> checkObserve() {
        observeChecks++;
        return onObserve;
    }
    /** What each capture check answers; counts the checks. */
    public java.util.function.Supplier<Optional<Refusal>> onCapture = Optional::empty;

    public int captureChecks;

    @Override
    public Optional<Refusal> checkCapture() {
        captureChecks++;
        return onCapture.get();
    }

    public Function<ScopedTree, Optional<Refusal>> onTree = t -> Optional.empty();
    public int treeChecks;

    @Override
    public Optional<Refusal> checkTree(ScopedTree tree) {
        treeChecks++;
        return onTree.apply(tree);
    }

    public Optional<Refusal> onSteps = Optional.empty();
    public List<Optional<Node>> stepTargets;

    @Override
    public Optional<Refusal> approveSteps(List<Step> steps, List<Optional<Node>> resolved, ScopedTree tree) {
        stepTargets = resolved;
        return onSteps;
    }

    @Override
    public Optional<Refusal> check(Action action, ScopedTree tree, Optional<Basis> basis) {
        checked.add(action);
        bases.add(basis);
        return onAction.apply(action);
    }

    public final List<Integer> steps = new ArrayList<>();

    @Override
    public Optional<Refusal> checkStep(int step, Action action, ScopedTree tree, Optional<Basis> basis) {
        steps.add(step);
        return check(action, tree, basis);
    }

    public Function<Action, Optional<Refusal>> onDelivered = a -> Optional.empty();

    @Override
    public Optional<Refusal> afterDelivery(Action action) {
        return onDelivered.apply(action);
    }
    /** What {@link #watch} answers; counted. */
    public java.util.function.Supplier<Optional<Refusal>> onWatch = Optional::empty;

    public int watches;
    public final List<java.time.Duration> graces = new ArrayList<>();

    @Override
    public Optional<Refusal> watch(java.time.Duration grace) {
        watches++;
        graces.add(grace);
        return onWatch.get();
    }

    public int released;
    public int lastChecks;
    public Function<Action, Optional<Refusal>> onLastCheck = a -> Optional.empty();

    @Override
    public Optional<Refusal> reserve() {
        consumed++;
        return Optional.empty();
    }

    @Override
    public void release() {
        consumed--;
        released++;
    }

    @Override
    public Optional<Refusal> lastCheck(Action action, ScopedTree tree, Optional<Basis> basis) {
        lastChecks++;
        return onLastCheck.apply(action);
    }
}

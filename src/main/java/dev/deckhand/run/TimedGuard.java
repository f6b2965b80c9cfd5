package dev.deckhand.run;

import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.Guard;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.steps.Step;
import dev.deckhand.run.StepPhases.Phase;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * A {@link Guard} that times its checks as {@code policy} (the facts they read count as {@code facts}),
 * and moves the time a person took over an approval card into {@code approval}. Decides nothing itself.
 */
final class TimedGuard implements Guard {

    private final Guard real;
    private final StepPhases phases;
    private final LongSupplier approvalNanos;

    /** @param approvalNanos the real guard's running total of time spent waiting for approval cards */
    TimedGuard(Guard real, StepPhases phases, LongSupplier approvalNanos) {
        this.real = Objects.requireNonNull(real, "real");
        this.phases = Objects.requireNonNull(phases, "phases");
        this.approvalNanos = Objects.requireNonNull(approvalNanos, "approvalNanos");
    }

    private Optional<Refusal> policy(java.util.function.Supplier<Optional<Refusal>> check) {
        long waited = approvalNanos.getAsLong();
        Optional<Refusal> r = phases.time(Phase.POLICY, check);
        phases.move(Phase.POLICY, Phase.APPROVAL, approvalNanos.getAsLong() - waited);
        return r;
    }

    @Override
    public Optional<Refusal> checkRun() {
        return policy(real::checkRun);
    }

    @Override
    public Optional<Refusal> checkObserve() {
        return policy(real::checkObserve);
    }

    @Override
    public Optional<Refusal> checkTree(ScopedTree tree) {
        return policy(() -> real.checkTree(tree));
    }

    @Override
    public Optional<Refusal> checkCapture() {
        return policy(real::checkCapture);
    }

    @Override
    public List<Long> joinedWindows() {
        return phases.time(Phase.POLICY, real::joinedWindows);
    }

    @Override
    public Optional<Refusal> approveSteps(List<Step> steps, List<Optional<Node>> resolved, ScopedTree tree) {
        return policy(() -> real.approveSteps(steps, resolved, tree));
    }

    @Override
    public Optional<Refusal> check(Action action, ScopedTree tree, Optional<Basis> basis) {
        return policy(() -> real.check(action, tree, basis));
    }

    @Override
    public Optional<Refusal> checkStep(int step, Action action, ScopedTree tree, Optional<Basis> basis) {
        return policy(() -> real.checkStep(step, action, tree, basis));
    }

    @Override
    public Optional<Refusal> afterDelivery(Action action) {
        return policy(() -> real.afterDelivery(action));
    }

    @Override
    public Optional<Refusal> watch(java.time.Duration grace) {
        return policy(() -> real.watch(grace));
    }

    @Override
    public Optional<Refusal> reserve() {
        return policy(real::reserve);
    }

    @Override
    public void release() {
        phases.run(Phase.POLICY, real::release);
    }

    @Override
    public void spent() {
        phases.run(Phase.POLICY, real::spent);
    }

    @Override
    public Optional<Refusal> lastCheck(Action action, ScopedTree tree, Optional<Basis> basis) {
        return policy(() -> real.lastCheck(action, tree, basis));
    }
}

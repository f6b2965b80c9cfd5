package dev.deckhand.run;

import dev.deckhand.grant.Chord;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.DeliveryGate;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Landing;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.run.StepPhases.Phase;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A {@link Desktop} that times every call into its {@link StepPhases} phase (reads are {@code observe},
 * the policy facts {@code facts}, the drawn cursor {@code cursor}, native actions {@code act}, settling
 * {@code settle}) and otherwise passes it on unchanged, refusals included.
 */
final class TimedDesktop implements Desktop {

    private final Desktop real;
    private final StepPhases phases;

    TimedDesktop(Desktop real, StepPhases phases) {
        this.real = Objects.requireNonNull(real, "real");
        this.phases = Objects.requireNonNull(phases, "phases");
    }

    @Override
    public List<WindowInfo> windows() {
        return phases.time(Phase.OBSERVE, real::windows);
    }

    @Override
    public ScopedTree snapshot(long windowId, long grantRevision) {
        return phases.time(Phase.OBSERVE, () -> real.snapshot(windowId, grantRevision));
    }

    @Override
    public ScopedTree latestSnapshot(long windowId, long grantRevision) {
        return phases.time(Phase.OBSERVE, () -> real.latestSnapshot(windowId, grantRevision));
    }

    @Override
    public void click(String uid) {
        phases.run(Phase.ACT, () -> real.click(uid));
    }

    @Override
    public void setText(String uid, String text) {
        phases.run(Phase.ACT, () -> real.setText(uid, text));
    }

    @Override
    public void focus(String uid) {
        phases.run(Phase.ACT, () -> real.focus(uid));
    }

    @Override
    public void scroll(String uid, String direction, int amount) {
        phases.run(Phase.ACT, () -> real.scroll(uid, direction, amount));
    }

    @Override
    public void select(String uid, String option) {
        phases.run(Phase.ACT, () -> real.select(uid, option));
    }

    @Override
    public void key(long windowId, Chord chord) {
        phases.run(Phase.ACT, () -> real.key(windowId, chord));
    }

    @Override
    public void type(long windowId, String text, DeliveryGate gate) {
        phases.run(Phase.ACT, () -> real.type(windowId, text, gate));
    }

    @Override
    public void showElement(String uid, boolean press) {
        phases.run(Phase.CURSOR, () -> real.showElement(uid, press));
    }

    @Override
    public void awaitShown() {
        phases.run(Phase.CURSOR, real::awaitShown);
    }

    @Override
    public void showPoint(int x, int y, Basis basis) {
        phases.run(Phase.CURSOR, () -> real.showPoint(x, y, basis));
    }

    @Override
    public void clickAt(int x, int y, Basis basis) {
        phases.run(Phase.ACT, () -> real.clickAt(x, y, basis));
    }

    @Override
    public Capture capture(long windowId, long grantRevision, int longEdge) {
        return phases.time(Phase.OBSERVE, () -> real.capture(windowId, grantRevision, longEdge));
    }

    @Override
    public boolean basisValid(Basis basis) {
        return phases.time(Phase.OBSERVE, () -> real.basisValid(basis));
    }

    @Override
    public dev.deckhand.grant.Accelerators accelerators(long windowId) {
        return real.accelerators(windowId);
    }

    @Override
    public boolean syntheticInput(long windowId) {
        return real.syntheticInput(windowId);
    }

    @Override
    public DesktopFacts facts() {
        return phases.time(Phase.FACTS, real::facts);
    }

    @Override
    public DesktopFacts freshFacts() {
        return phases.time(Phase.FACTS, real::freshFacts);
    }

    @Override
    public long activeWindow() {
        return phases.time(Phase.FACTS, real::activeWindow);
    }

    @Override
    public boolean privateDesktop() {
        return real.privateDesktop();
    }

    @Override
    public void settle(Duration max) {
        phases.run(Phase.SETTLE, () -> real.settle(max));
    }

    @Override
    public void settle(Duration max, Set<Landing> landings) {
        phases.run(Phase.SETTLE, () -> real.settle(max, landings));
    }

    @Override
    public boolean starting(long windowId) {
        return phases.time(Phase.OBSERVE, () -> real.starting(windowId));
    }

    @Override
    public boolean awaitRegistered(long windowId, Duration max) {
        return phases.time(Phase.OBSERVE, () -> real.awaitRegistered(windowId, max));
    }
}

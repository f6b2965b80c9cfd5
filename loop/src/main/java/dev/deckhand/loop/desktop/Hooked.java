package dev.deckhand.loop.desktop;

import dev.deckhand.grant.Accelerators;
import dev.deckhand.grant.Chord;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Every part of a desktop, each call passed to the desktop below through one {@link Around} as its own
 * {@link Call} ({@link Desktop#around}). The one place that lists every method of the port for the decorators.
 */
final class Hooked implements Display, Trees, Input, Captures, Facts, Showing {

    private final Desktop below;
    private final Around around;

    Hooked(Desktop below, Around around) {
        this.below = below;
        this.around = around;
    }

    private void run(Call which, Runnable call) {
        around.call(which, () -> {
            call.run();
            return null;
        });
    }

    // Display

    @Override
    public List<WindowInfo> windows() {
        return around.call(Call.WINDOWS, () -> below.display().windows());
    }

    @Override
    public long activeWindow() {
        return around.call(Call.ACTIVE_WINDOW, () -> below.display().activeWindow());
    }

    @Override
    public boolean privateDesktop() {
        return around.call(Call.PRIVATE_DESKTOP, () -> below.display().privateDesktop());
    }

    @Override
    public boolean syntheticInput(long windowId) {
        return around.call(Call.SYNTHETIC_INPUT, () -> below.display().syntheticInput(windowId));
    }

    @Override
    public KeyboardChanges keyboardChanges() {
        return around.call(Call.KEYBOARD_CHANGES, () -> below.display().keyboardChanges());
    }

    // Trees

    @Override
    public ScopedTree snapshot(long windowId, long grantRevision) {
        return around.call(Call.SNAPSHOT, () -> below.trees().snapshot(windowId, grantRevision));
    }

    @Override
    public ScopedTree latestSnapshot(long windowId, long grantRevision) {
        return around.call(Call.LATEST_SNAPSHOT, () -> below.trees().latestSnapshot(windowId, grantRevision));
    }

    @Override
    public Accelerators accelerators(long windowId) {
        return around.call(Call.ACCELERATORS, () -> below.trees().accelerators(windowId));
    }

    @Override
    public boolean starting(long windowId) {
        return around.call(Call.STARTING, () -> below.trees().starting(windowId));
    }

    @Override
    public boolean awaitRegistered(long windowId, Duration max) {
        return around.call(Call.AWAIT_REGISTERED, () -> below.trees().awaitRegistered(windowId, max));
    }

    @Override
    public void settle(Duration max) {
        run(Call.SETTLE, () -> below.trees().settle(max));
    }

    @Override
    public void settle(Duration max, Set<Landing> landings) {
        run(Call.SETTLE_ON_LANDINGS, () -> below.trees().settle(max, landings));
    }

    // Input

    @Override
    public void click(String uid) {
        run(Call.CLICK, () -> below.input().click(uid));
    }

    @Override
    public void setText(String uid, String text) {
        run(Call.SET_TEXT, () -> below.input().setText(uid, text));
    }

    @Override
    public void focus(String uid) {
        run(Call.FOCUS, () -> below.input().focus(uid));
    }

    @Override
    public void scroll(String uid, String direction, int amount) {
        run(Call.SCROLL, () -> below.input().scroll(uid, direction, amount));
    }

    @Override
    public void select(String uid, String option) {
        run(Call.SELECT, () -> below.input().select(uid, option));
    }

    @Override
    public void key(long windowId, Chord chord) {
        run(Call.KEY, () -> below.input().key(windowId, chord));
    }

    @Override
    public void type(long windowId, String text, DeliveryGate gate) {
        run(Call.TYPE, () -> below.input().type(windowId, text, gate));
    }

    @Override
    public void clickAt(int x, int y, Basis basis) {
        run(Call.CLICK_AT, () -> below.input().clickAt(x, y, basis));
    }

    // Captures

    @Override
    public Capture capture(long windowId, long grantRevision, int longEdge) {
        return around.call(Call.CAPTURE, () -> below.captures().capture(windowId, grantRevision, longEdge));
    }

    @Override
    public boolean basisValid(Basis basis) {
        return around.call(Call.BASIS_VALID, () -> below.captures().basisValid(basis));
    }

    // Facts

    @Override
    public DesktopFacts current() {
        return around.call(Call.CURRENT_FACTS, () -> below.facts().current());
    }

    @Override
    public DesktopFacts fresh() {
        return around.call(Call.FRESH_FACTS, () -> below.facts().fresh());
    }

    // Showing

    @Override
    public void showElement(String uid, boolean press) {
        run(Call.SHOW_ELEMENT, () -> below.showing().showElement(uid, press));
    }

    @Override
    public void showPoint(int x, int y, Basis basis) {
        run(Call.SHOW_POINT, () -> below.showing().showPoint(x, y, basis));
    }

    @Override
    public void awaitShown() {
        run(Call.AWAIT_SHOWN, () -> below.showing().awaitShown());
    }
}

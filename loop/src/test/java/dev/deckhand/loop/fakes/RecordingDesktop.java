package dev.deckhand.loop.fakes;

import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Captures;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Display;
import dev.deckhand.loop.desktop.Facts;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Input;
import dev.deckhand.loop.desktop.Landing;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.Showing;
import dev.deckhand.loop.desktop.Trees;
import dev.deckhand.loop.desktop.WindowInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Records every call; {@link #delivered()} lists only the calls that would have given input, so tests
 * can assert exactly what reached the driver. Typed text is recorded as its length. {@link #desktop()} is the
 * port the loop is given: this fake is every part of it but the showing (nothing is shown).
 */
public final class RecordingDesktop implements Display, Trees, Input, Captures, Facts {

    public static final long WINDOW = 0x2a00007L;
    public static final Geometry GEOMETRY = new Geometry(100, 100, 800, 600);
    private static final Set<String> INPUT =
            Set.of("click", "setText", "focus", "scroll", "select", "key", "type", "clickAt");

    private final List<String> calls = new ArrayList<>();
    private LongFunction<ScopedTree> tree;
    private WindowInfo window = new WindowInfo(WINDOW, "Dialog", "testapp", 4242, GEOMETRY, 3, true, false, false);
    private boolean basisValid = true;
    private boolean syntheticInput = true;
    private dev.deckhand.grant.Accelerators accelerators = dev.deckhand.grant.Accelerators.UNKNOWN;
    private RuntimeException failOnInput;

    private final Desktop desktop = new Desktop(this, this, this, this, this, Showing.NONE);

    public RecordingDesktop(LongFunction<ScopedTree> tree) {
        this.tree = tree;
    }

    /** The port whose every part is this fake (it shows nothing). */
    public Desktop desktop() {
        return desktop;
    }

    public synchronized List<String> calls() {
        return List.copyOf(calls);
    }

    public synchronized List<String> delivered() {
        List<String> out = new ArrayList<>();
        for (String c : calls) if (INPUT.contains(c.split(" ")[0])) out.add(c);
        return out;
    }

    private volatile Runnable onInput;

    public void tree(LongFunction<ScopedTree> t) {
        this.tree = t;
    }

    public void window(WindowInfo w) {
        this.window = w;
    }

    public void basisValid(boolean v) {
        this.basisValid = v;
    }
    /** False plays a native Wayland window (docs/wayland.md). */
    public void syntheticInput(boolean v) {
        this.syntheticInput = v;
    }

    public void accelerators(dev.deckhand.grant.Accelerators v) {
        this.accelerators = v;
    }
    /** The next input calls throw this (after being recorded). */
    public void failOnInput(RuntimeException e) {
        this.failOnInput = e;
    }

    private synchronized void record(String call) {
        calls.add(call);
    }

    /** Runs after each input call is recorded (an action's effect on the fake world, e.g. closing the window). */
    public void onInput(Runnable r) {
        this.onInput = r;
    }

    private void input(String call) {
        record(call);
        if (failOnInput != null) throw failOnInput;
        if (onInput != null) onInput.run();
    }

    @Override
    public List<WindowInfo> windows() {
        record("windows");
        return window == null ? List.of() : List.of(window);
    }

    @Override
    public ScopedTree snapshot(long windowId, long grantRevision) {
        record("snapshot " + grantRevision);
        return tree.apply(grantRevision);
    }
    /** Recorded apart from {@link #snapshot}: which reads may reuse the last walk. */
    @Override
    public ScopedTree latestSnapshot(long windowId, long grantRevision) {
        record("latest snapshot " + grantRevision);
        return tree.apply(grantRevision);
    }

    @Override
    public void click(String uid) {
        input("click " + uid);
    }

    @Override
    public void setText(String uid, String text) {
        input("setText " + uid + " " + text.length() + " chars");
    }

    @Override
    public void focus(String uid) {
        input("focus " + uid);
    }

    @Override
    public void scroll(String uid, String direction, int amount) {
        input("scroll " + uid + " " + direction + " " + amount);
    }

    @Override
    public void select(String uid, String option) {
        input("select " + uid + " " + option);
    }

    @Override
    public void key(long windowId, dev.deckhand.grant.Chord keys) {
        input("key " + keys);
    }
    /** Types in chunks of {@link #CHUNK} characters, asking the gate before each, like the real driver. */
    @Override
    public void type(long windowId, String text, dev.deckhand.loop.desktop.DeliveryGate gate) {
        for (int i = 0; i < text.length(); i += CHUNK) {
            gate.require();
            input("type " + Math.min(CHUNK, text.length() - i) + " chars");
        }
    }

    public static final int CHUNK = 32;

    @Override
    public dev.deckhand.loop.desktop.MenuClosing closeOwnMenus(long windowId) {
        return dev.deckhand.loop.desktop.MenuClosing.NONE;
    }

    @Override
    public void clickAt(int x, int y, Basis basis) {
        input("clickAt " + x + "," + y + " rev " + basis.grantRevision());
    }

    @Override
    public Capture capture(long windowId, long grantRevision, int longEdge) {
        record("capture " + grantRevision);
        return new Capture(
                new byte[] {1, 2, 3}, "image/png", 400, 300, new Basis(grantRevision, windowId, GEOMETRY, 0.5));
    }

    @Override
    public boolean syntheticInput(long windowId) {
        return syntheticInput;
    }

    @Override
    public dev.deckhand.grant.Accelerators accelerators(long windowId) {
        return accelerators;
    }

    @Override
    public boolean basisValid(Basis basis) {
        record("basisValid");
        return basisValid;
    }

    @Override
    public DesktopFacts fresh() {
        record("freshFacts");
        return new DesktopFacts(false, false, Set.of("testapp"), List.of(window), Optional.empty());
    }

    @Override
    public DesktopFacts current() {
        record("facts");
        return new DesktopFacts(false, false, Set.of("testapp"), List.of(window), Optional.empty());
    }

    @Override
    public void settle(Duration max) {
        record("settle");
    }

    @Override
    public void settle(Duration max, Set<Landing> landings) {
        record("settle");
    }

    @Override
    public boolean starting(long windowId) {
        return false;
    }

    @Override
    public boolean awaitRegistered(long windowId, Duration max) {
        return true;
    }

    private long activeWindow = WINDOW;
    private boolean privateDesktop;
    /** The window the display says is active (the granted one by default). */
    public void activeWindow(long v) {
        this.activeWindow = v;
    }

    public void privateDesktop(boolean v) {
        this.privateDesktop = v;
    }

    @Override
    public long activeWindow() {
        record("activeWindow");
        return activeWindow;
    }

    @Override
    public boolean privateDesktop() {
        return privateDesktop;
    }

    private dev.deckhand.loop.desktop.KeyboardChanges keyboard = new dev.deckhand.loop.desktop.KeyboardChanges(0, "");
    /** Another program changed the keyboard (its map, modifiers or controls): the count moves on. */
    public synchronized void keyboardChanged(String what) {
        keyboard = new dev.deckhand.loop.desktop.KeyboardChanges(keyboard.count() + 1, what);
    }

    @Override
    public synchronized dev.deckhand.loop.desktop.KeyboardChanges keyboardChanges() {
        return keyboard;
    }
}

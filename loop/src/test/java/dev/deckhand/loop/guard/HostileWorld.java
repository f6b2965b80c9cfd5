package dev.deckhand.loop.guard;

import dev.deckhand.grant.Chord;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Captures;
import dev.deckhand.loop.desktop.DeliveryGate;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Display;
import dev.deckhand.loop.desktop.Facts;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Input;
import dev.deckhand.loop.desktop.Landing;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.Showing;
import dev.deckhand.loop.desktop.Trees;
import dev.deckhand.loop.desktop.WindowInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * A desktop that changes under the loop as a hostile world would — focus moves to another window or to
 * a password field, a grab is taken, a dialog of the app opens over the target, the window id is reused
 * by another process, a communications app appears, Stop is pressed, the grant is revoked, the permission
 * mode turns to ask — at the points where a race matters: before an action, during the drawn cursor's
 * travel and between typed chunks. At every native call it works out where the event would land, the way
 * the Linux driver sends it, and records a {@link #violations violation} for any event outside the grant,
 * into a password field, to the desktop, or pressing an unnamed consequential element.
 *
 * <p>Everything the loop could refuse for is noted in {@link #justified} while it holds, so a test can
 * require each refusal's code to be one the world gave a reason for.
 *
 * <p>It is every part of the port, the showing included ({@link #desktop()}): the world may change while the
 * drawn cursor travels.
 */
class HostileWorld implements Display, Trees, Input, Captures, Facts, Showing {

    static final long TARGET = 0x2a00007L;
    static final long OTHER = 0x3c00001L;
    static final long DIALOG = 0x2a00099L;
    static final long COMMS = 0x5e00001L;
    static final int PID = 4242;
    static final long START = 777;
    static final Geometry GEOMETRY = new Geometry(100, 100, 800, 600);

    /** The elements of the target, with whether pressing them is consequential (by hand, not by the gate). */
    enum El {
        FRAME("frame", "Compose", false),
        LABEL("label", "Message to Bob", false),
        TO("text", "To", false),
        BODY("text", "Body", false),
        SEND("push button", "Send", true),
        OK("push button", "OK", false),
        PASSWORD("password text", "Password", false),
        FOLDER("combo box", "After sending", false),
        TRICKY("push button", "Se\u200Bnd", true),
        LOSCHEN("push button", "Löschen", true),
        CYRILLIC("push button", "Ѕеnd", true);

        final String role;
        final String name;
        final boolean gated;

        El(String role, String name, boolean gated) {
            this.role = role;
            this.name = name;
            this.gated = gated;
        }

        boolean text() {
            return this == TO || this == BODY;
        }

        Geometry bounds() {
            int i = ordinal();
            return this == FRAME ? GEOMETRY : new Geometry(120 + (i % 4) * 180, 140 + (i / 4) * 120, 160, 100);
        }
    }

    final Random r;
    final List<String> violations = new ArrayList<>();
    dev.deckhand.grant.Accelerators accelerators = dev.deckhand.grant.Accelerators.UNKNOWN;
    final EnumSet<RefusalCode> justified = EnumSet.noneOf(RefusalCode.class);
    final boolean appScope;
    final boolean partialTree;
    /** The window's tree grew past what a walk reads: every walk from now on is partial. */
    boolean grown;

    long revision;
    El focus = El.TO;
    long focusedWindow = TARGET;
    boolean grabbed;
    boolean dialogOver;
    boolean reused;
    boolean commsVisible;
    boolean gatedDialog;
    /**
     * The target is a dialog from the start, titled "Compose": only its text (a label in the tree) says what it asks
     * once {@link #gatedDialog} is set, as a page's dialog does.
     */
    boolean dialogWindow;

    boolean stop;
    boolean revoked;
    boolean modeAsk;
    int mutationChance;
    int delivered;
    /** Set by the test: presses Stop, revokes the grant, or turns the mode to ask in the broker/policy. */
    Runnable onStop = () -> {};

    Runnable onRevoke = () -> {};
    /** Set by the test: the grant's revision moves on (the window moved), so uids and bases go stale. */
    Runnable onBump = () -> {};

    private final Desktop desktop = new Desktop(this, this, this, this, this, this);

    /** The port whose every part is this world. */
    Desktop desktop() {
        return desktop;
    }

    HostileWorld(Random r, long revision, boolean appScope, boolean partialTree, int mutationChance) {
        this.r = r;
        this.revision = revision;
        this.appScope = appScope;
        this.partialTree = partialTree;
        this.mutationChance = mutationChance;
    }

    /** A race at this point, sometimes. */
    void maybeMutate() {
        if (r.nextInt(100) < mutationChance) mutate();
        noteState();
    }

    void mutate() {
        switch (r.nextInt(12)) {
            case 0 -> focusedWindow = OTHER;
            case 1 -> focus = El.PASSWORD;
            case 2 -> {
                focus = El.values()[r.nextInt(El.values().length)];
                justified.add(RefusalCode.OUT_OF_SCOPE); // the focus moved within the window
            }
            case 3 -> grabbed = true;
            case 4 -> dialogOver = true;
            case 5 -> reused = true;
            case 6 -> commsVisible = true;
            case 7 -> {
                stop = true;
                onStop.run();
            }
            case 8 -> {
                revoked = true;
                onRevoke.run();
            }
            case 9 -> modeAsk = true;
            case 10 -> {
                onBump.run();
                justified.addAll(Set.of(RefusalCode.BASIS_STALE, RefusalCode.OUT_OF_SCOPE));
            }
            default -> focusedWindow = 0;
        }
    }

    /** What the present state can justify as a refusal. */
    void noteState() {
        if (focusedWindow != TARGET || focus == El.FRAME || focus == El.PASSWORD) {
            justified.add(RefusalCode.OUT_OF_SCOPE);
            justified.add(RefusalCode.SECURE_INPUT);
        }
        if (focus == El.PASSWORD || grabbed) justified.add(RefusalCode.SECURE_INPUT);
        if (dialogOver && !appScope || reused) justified.add(RefusalCode.OUT_OF_SCOPE);
        if (commsVisible) justified.add(RefusalCode.DENY_COMMS_VISIBLE);
        if (stop) justified.add(RefusalCode.STOPPED);
        if (revoked)
            justified.addAll(Set.of(RefusalCode.GRANT_REVOKED, RefusalCode.STOPPED)); // the loop sees a revoke as Stop
        if (modeAsk)
            justified.addAll(Set.of(RefusalCode.MODE_DENIED, RefusalCode.STOPPED, RefusalCode.CONSEQUENTIAL_NOT_NAMED));
    }

    // ---- where an event lands ------------------------------------------------------------------

    private void land(String what, El on, boolean press) {
        delivered++;
        if (grabbed) violations.add(what + " went to the client holding the grab");
        if (dialogOver && !appScope) violations.add(what + " went to the app's dialog outside the window grant");
        if (reused) violations.add(what + " went to another process that reused the window id");
        if (stop) violations.add(what + " was delivered after Stop");
        if (revoked) violations.add(what + " was delivered after the grant was revoked");
        if (modeAsk) violations.add(what + " was delivered without approval after the mode turned to ask");
        if (commsVisible) violations.add(what + " was delivered while a communications app was visible");
        if (on == El.PASSWORD) violations.add(what + " reached the password field");
        if (press && on != null && (on.gated || gatedDialog && !on.text()))
            violations.add(what + " pressed " + on.name);
    }

    private El byUid(String uid) {
        String prefix = "r" + revision + "-";
        if (!uid.startsWith(prefix)) throw new RefusedException(RefusalCode.OUT_OF_SCOPE, "uid " + uid + " is stale");
        return El.valueOf(uid.substring(prefix.length()));
    }

    @Override
    public void click(String uid) {
        land("click", byUid(uid), true);
    }

    @Override
    public void setText(String uid, String text) {
        land("set_text", byUid(uid), false);
    }
    /** A focus call activates the element's window, as GTK 3's does: the person's focus moves if it was elsewhere. */
    @Override
    public void focus(String uid) {
        if (focusedWindow != TARGET) {
            violations.add(
                    "focus activated the granted window while the person was in 0x" + Long.toHexString(focusedWindow));
        }
        land("focus", byUid(uid), false);
        focusedWindow = TARGET;
    }

    @Override
    public long activeWindow() {
        return focusedWindow;
    }

    @Override
    public boolean privateDesktop() {
        return false;
    }

    @Override
    public dev.deckhand.loop.desktop.KeyboardChanges keyboardChanges() {
        return new dev.deckhand.loop.desktop.KeyboardChanges(0, "");
    }

    @Override
    public void scroll(String uid, String direction, int amount) {
        land("scroll", byUid(uid), false);
    }

    @Override
    public void select(String uid, String option) {
        land("select", byUid(uid), option.contains("Delete"));
    }

    @Override
    public void key(long windowId, Chord chord) {
        if (chord.systemReason().isPresent()) violations.add("key " + chord + " reached the desktop");
        boolean press = chord.paste()
                || chord.has(Chord.Modifier.ALT) && chord.letterOrDigit()
                || chord.key().equals("Enter") && (focus == El.BODY || focus == El.FRAME || focus.gated || gatedDialog)
                || chord.key().equals("space") && (focus == El.FRAME || focus.gated || gatedDialog && !focus.text());
        if (press)
            violations.add("key " + chord + " pressed something consequential (focus " + focus + " in 0x"
                    + Long.toHexString(focusedWindow) + (gatedDialog ? ", gated dialog" : "") + ")");
        if (chord.editsText() && focus == El.PASSWORD)
            violations.add("key " + chord + " wrote into the password field");
        land(
                "key " + chord,
                focus == El.PASSWORD ? null : focus,
                false); // other keys in a password field move its caret
    }

    @Override
    public void type(long windowId, String text, DeliveryGate gate) {
        for (int i = 0; i < text.length(); i += 16) {
            if (i > 0) maybeMutate();
            gate.require();
            land("type chunk", focus, !focus.text());
        }
    }

    /** A travel started and not yet awaited: the world may change while the cursor travels. */
    private boolean travelling;

    @Override
    public void showElement(String uid, boolean press) {
        travelling = true;
    }

    @Override
    public void showPoint(int x, int y, Basis basis) {
        travelling = true;
    }

    @Override
    public void awaitShown() {
        if (travelling) maybeMutate();
        travelling = false;
    }

    @Override
    public dev.deckhand.loop.desktop.MenuClosing closeOwnMenus(long windowId) {
        return dev.deckhand.loop.desktop.MenuClosing.NONE;
    }

    @Override
    public void clickAt(int x, int y, Basis basis) {
        int sx = basis.windowGeometry().x() + (int) Math.floor(x / basis.scale());
        int sy = basis.windowGeometry().y() + (int) Math.floor(y / basis.scale());
        Optional<Node> at = tree().at(sx, sy);
        if (at.isEmpty() || at.get().role().equals("frame")) {
            violations.add("click_at (" + x + "," + y + ") pressed a point no element identifies");
            land("click_at", null, false);
        } else {
            land("click_at", byUid(at.get().uid()), true);
        }
    }

    // ---- what the loop reads -----------------------------------------------------------------

    ScopedTree tree() {
        List<Node> nodes = new ArrayList<>();
        for (El e : El.values()) {
            boolean focused = e == focus && e != El.FRAME && focusedWindow == TARGET;
            nodes.add(new Node(
                    "r" + revision + "-" + e.name(),
                    e == El.FRAME ? 0 : 1,
                    e.role,
                    e.name,
                    e.text() || e == El.FOLDER,
                    // a combo named by its label (Qt, a web page) gives its choice as its value
                    e.text() ? "" : e == El.FOLDER ? "Sent" : null,
                    true,
                    focused,
                    e.text() || e == El.PASSWORD,
                    true,
                    e.bounds(),
                    e == El.TO,
                    e == El.SEND));
        }
        if (gatedDialog)
            nodes.add(new Node(
                    "r" + revision + "-DLG",
                    1,
                    "label",
                    "Delete all messages?",
                    false,
                    null,
                    true,
                    false,
                    false,
                    true,
                    null));
        return new ScopedTree(TARGET, revision, nodes, partialTree || grown);
    }

    @Override
    public List<WindowInfo> windows() {
        List<WindowInfo> out = new ArrayList<>();
        out.add(new WindowInfo(
                TARGET,
                gatedDialog && !dialogWindow ? "Delete?" : "Compose",
                reused ? "xterm" : "testapp",
                reused ? 5000 : PID,
                GEOMETRY,
                2,
                true,
                false,
                false,
                0x2a00000L,
                0,
                gatedDialog || dialogWindow,
                START));
        out.add(new WindowInfo(
                OTHER,
                "terminal",
                "xterm",
                99,
                new Geometry(0, 0, 300, 300),
                3,
                true,
                false,
                false,
                0x3c00000L,
                0,
                false,
                5));
        if (dialogOver) {
            out.add(new WindowInfo(
                    DIALOG,
                    "Save changes?",
                    "testapp",
                    PID,
                    new Geometry(200, 200, 300, 200),
                    4,
                    true,
                    false,
                    false,
                    0x2a00000L,
                    TARGET,
                    true,
                    START));
        }
        if (commsVisible) {
            out.add(new WindowInfo(
                    COMMS,
                    "chat",
                    "slack",
                    7,
                    new Geometry(0, 0, 10, 10),
                    5,
                    true,
                    false,
                    false,
                    0x5e00000L,
                    0,
                    false,
                    9));
        }
        return out;
    }

    @Override
    public ScopedTree snapshot(long windowId, long grantRevision) {
        revision = grantRevision;
        return tree();
    }

    /** No walk is kept: the world is read again. */
    @Override
    public ScopedTree latestSnapshot(long windowId, long grantRevision) {
        return snapshot(windowId, grantRevision);
    }

    @Override
    public boolean starting(long windowId) {
        return false;
    }

    @Override
    public boolean awaitRegistered(long windowId, Duration max) {
        return true;
    }

    @Override
    public Capture capture(long windowId, long grantRevision, int longEdge) {
        return new Capture(new byte[] {1}, "image/png", 400, 300, new Basis(grantRevision, windowId, GEOMETRY, 0.5));
    }

    @Override
    public dev.deckhand.grant.Accelerators accelerators(long windowId) {
        return accelerators;
    }

    @Override
    public boolean syntheticInput(long windowId) {
        return true;
    }

    @Override
    public boolean basisValid(Basis basis) {
        return basis.windowGeometry().equals(GEOMETRY) && basis.windowId() == TARGET;
    }

    /**
     * Kept facts as the worst cache would keep them: every other read serves the one before it again, whatever
     * changed since (an event the cache missed). Only {@link #fresh()} is sure to read the world now, so
     * the sequences show that the last check's fresh read alone keeps every event inside the grant.
     */
    @Override
    public DesktopFacts current() {
        DesktopFacts now = fresh();
        if (kept != null && r.nextBoolean()) {
            // the check saw the world as it was: the last check's fresh read finds the focus moved since
            if (!kept.equals(now)) justified.add(RefusalCode.OUT_OF_SCOPE);
            // and it may refuse for what the world was then (a false refusal, never a delivery)
            if (kept.passwordFocused() || kept.keyboardGrabbed()) justified.add(RefusalCode.SECURE_INPUT);
            if (kept.focusedWindow() != TARGET || kept.focusedElement().isEmpty()) {
                justified.addAll(Set.of(RefusalCode.OUT_OF_SCOPE, RefusalCode.SECURE_INPUT));
            }
            if (kept.runningApps().contains("slack")) justified.add(RefusalCode.DENY_COMMS_VISIBLE);
            return kept;
        }
        return kept = now;
    }

    private DesktopFacts kept;

    @Override
    public DesktopFacts fresh() {
        Optional<DesktopFacts.FocusedElement> el = focusedWindow == TARGET && focus != El.FRAME
                ? Optional.of(new DesktopFacts.FocusedElement(PID, focus.role, focus.name, focus.bounds()))
                : Optional.empty();
        return new DesktopFacts(
                focus == El.PASSWORD && focusedWindow == TARGET,
                grabbed,
                commsVisible ? Set.of("testapp", "xterm", "slack") : Set.of("testapp", "xterm"),
                windows(),
                Optional.empty(),
                focusedWindow,
                el,
                List.of(),
                Optional.empty());
    }

    @Override
    public void settle(Duration max) {}

    @Override
    public void settle(Duration max, Set<Landing> landings) {}
}

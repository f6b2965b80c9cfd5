package dev.deckhand.platform.linux;

import dev.deckhand.grant.Chord;
import dev.deckhand.grant.Refusal;
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
import dev.deckhand.platform.Processes;
import dev.deckhand.platform.atspi.AtspiBridge;
import dev.deckhand.platform.x11.X11Display;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The Linux/X11 desktop: X11 for windows, keys, capture and geometry; AT-SPI for the tree, actions by
 * uid and the secure-input facts (docs/design.md#platforms).
 *
 * <p>Keys: when the granted window already holds the input focus, XTEST (every toolkit accepts it and
 * nothing moves); otherwise a synthetic event to the window (XSendEvent, mask 0), which GTK3, Qt and
 * Swing accept for typing. GTK 4 ignores synthetic events, so a GTK 4 window without focus is refused
 * {@code OUT_OF_SCOPE} rather than sent keys that would silently go nowhere.
 *
 * <p>{@code click_at} ({@link #clickAt}): a control under the point through its AT-SPI action; otherwise the
 * real pointer on a private virtual desktop, or pointer events sent to the window where its toolkit takes them.
 *
 * <p>{@link #latestSnapshot}: the last walk again while nothing can have changed since it began (its rules
 * there, docs/driver-atspi.md).
 *
 * <p>It is the display, trees, input and captures parts of the port itself; its facts are {@link #facts()} and
 * {@link #freshFacts()}; it shows nothing ({@link #desktop()}).
 */
public final class LinuxDesktop implements Display, Trees, Input, Captures, AutoCloseable {

    private final X11Display x11;
    private final AtspiBridge atspi;
    private final KeptFacts facts;
    /** What the age of a walk is measured by ({@link System#nanoTime()}; tests give their own). */
    private final LongSupplier clock;

    private LinuxDesktop(X11Display x11, AtspiBridge atspi, LongSupplier clock) {
        this.x11 = x11;
        this.atspi = atspi;
        this.clock = clock;
        this.facts = new KeptFacts(x11, atspi, this::windows, System::nanoTime);
        this.desktop = new Desktop(this, this, this, this, Facts.of(this::facts, this::freshFacts), Showing.NONE);
    }

    private final Desktop desktop;

    /** This driver as the port: its parts, its facts, no showing. */
    public Desktop desktop() {
        return desktop;
    }

    /**
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} off Linux, {@code HEADLESS} without a display,
     *     {@code A11Y_UNAVAILABLE} without an accessibility bus
     */
    public static LinuxDesktop open() {
        return open(System::nanoTime);
    }

    /** {@link #open()} with the clock {@link #latestSnapshot} measures a walk's age by (tests). */
    static LinuxDesktop open(LongSupplier clock) {
        return open(clock, System.getenv());
    }

    /**
     * {@link #open()} on the display and with the private-desktop setting {@code env} names (tests: a display
     * that plays the person's, without {@code DECKHAND_PRIVATE_DESKTOP}).
     */
    static LinuxDesktop open(LongSupplier clock, Map<String, String> env) {
        X11Display.requireLinux(System.getProperty("os.name"));
        X11Display x11 = X11Display.open(env);
        try {
            return new LinuxDesktop(x11, AtspiBridge.start(), clock);
        } catch (RuntimeException e) {
            x11.close();
            throw e;
        }
    }

    /** @throws RefusedException {@code PLATFORM_UNSUPPORTED} off Linux */
    public static void requireLinux() {
        X11Display.requireLinux(System.getProperty("os.name"));
    }

    public X11Display x11() {
        return x11;
    }

    public AtspiBridge atspi() {
        return atspi;
    }

    private WindowInfo window(long id) {
        return x11.window(id)
                .map(w -> w.pid() > 0 ? w.withProcessStart(Processes.start(w.pid())) : w)
                .orElseThrow(() -> new RefusedException(
                        Refusal.preflightFailed("window 0x" + Long.toHexString(id) + " no longer exists")));
    }

    @Override
    public List<WindowInfo> windows() {
        return withProcessStarts(x11.windows());
    }

    /** The windows with each one's process start time, which binds a grant to the process (docs/design.md#grants). */
    private static List<WindowInfo> withProcessStarts(List<WindowInfo> windows) {
        List<WindowInfo> out = new java.util.ArrayList<>(windows.size());
        for (WindowInfo w : windows) out.add(w.pid() > 0 ? w.withProcessStart(Processes.start(w.pid())) : w);
        return List.copyOf(out);
    }

    @Override
    public ScopedTree snapshot(long windowId, long grantRevision) {
        lastWalk = null;
        WindowInfo w = window(windowId);
        // A window whose process is unknown (no _NET_WM_PID and no X-Resource answer) or never registered
        // on the accessibility bus (xterm, Athena apps: no bridge loaded, docs/design.md#the-run-loop) has no tree at
        // all:
        // an empty, complete tree, which routing sends to the vision route on a pixels grant and refuses
        // on an a11y_only one. An app that is registered but does not answer is still refused.
        if (w.pid() < 0) return noTree(windowId, grantRevision);
        // read before the walk begins: an action or event after these readings ends the walk's reuse
        long actionsBefore = actions.get();
        long eventsBefore = atspi.allEvents();
        long began = clock.getAsLong();
        try {
            walks.incrementAndGet();
            ScopedTree tree = atspi.snapshot(w.pid(), w.title(), w.geometry(), windowId, grantRevision);
            // The tree was found by the window's title: another window of the app with that title (a page's
            // document.title, whose accessible name lags) may be the one read, and acted on (round 15, T1)
            long twins = x11.windows().stream() // no process start times: only titles and pids are compared
                    .filter(o ->
                            o.id() != w.id() && o.pid() == w.pid() && o.title().equals(w.title()))
                    .count();
            if (twins > 0) {
                throw new RefusedException(Refusal.a11yUnavailable((twins + 1) + " windows of pid " + w.pid()
                        + " have the granted window's title; refusing to guess which one is granted"));
            }
            if (!tree.partial()) lastWalk = new Walk(w, actionsBefore, eventsBefore, began, tree);
            return tree;
        } catch (RefusedException e) {
            // Only a running process that is not on the bus at all: a stopped, hung, exiting or dead app refuses.
            if (e.code() == RefusalCode.A11Y_UNAVAILABLE
                    && e.getMessage().contains(AtspiBridge.NOT_REGISTERED)
                    && running(w.pid())) {
                return noTree(windowId, grantRevision);
            }
            throw e;
        }
    }

    /**
     * The last walk again when all of these hold, else a walk ({@link #snapshot}): it was of this window and
     * {@code grantRevision} and complete; the window read now equals the one read for it (title, geometry,
     * state, process: a move or resize brings no event the bridge listens to); no action of this desktop began or
     * ended since it began; no accessibility event of any app arrived since it began
     * ({@link AtspiBridge#quietSince}); and it began less than {@link #REUSE_AGE} ago. Costs an X window read
     * and one call on the libatspi thread instead of a walk (galculator ~10 ms, gnome-calculator ~38 ms).
     */
    @Override
    public ScopedTree latestSnapshot(long windowId, long grantRevision) {
        Walk last = lastWalk;
        if (last != null
                && last.tree().windowId() == windowId
                && last.tree().grantRevision() == grantRevision
                && last.actions() == actions.get()
                && last.window().equals(window(windowId))
                && atspi.quietSince(last.events())
                && clock.getAsLong() - last.began() < REUSE_AGE.toNanos()) {
            return last.tree();
        }
        return snapshot(windowId, grantRevision);
    }

    /**
     * How long after it began a walk may be returned again (so a walk slower than this never is): the verifier's
     * first read came ~26 ms after the beginning of the loop's last walk on galculator, the walk included. The
     * bound caps what no rule sees: an app that changes without announcing it, an event the app has not sent
     * yet, an element moved inside the window (bounds changes are not among the events the bridge listens to).
     */
    static final Duration REUSE_AGE = Duration.ofMillis(100);

    /**
     * A complete walk and what it was made with: the window read before it, the action count and the
     * accessibility event count read before it began, and the clock when it began.
     */
    private record Walk(WindowInfo window, long actions, long events, long began, ScopedTree tree) {}

    /** The latest complete walk, null while a walk is under way or the latest one failed or was partial. */
    private volatile Walk lastWalk;

    private final AtomicLong walks = new AtomicLong();

    /** How many times this desktop walked a window's tree on the accessibility bus (tests and benches). */
    public long walks() {
        return walks.get();
    }

    /**
     * A window whose process runs and loads an accessibility bridge but shows no top-level on the bus yet
     * (docs/design.md#the-run-loop): its app has not registered, or has and not yet announced its window (gnome-calculator
     * was seen unregistered for seconds after its window mapped on a loaded machine).
     */
    @Override
    public boolean starting(long windowId) {
        WindowInfo w = window(windowId);
        String process = w.pid() + "@" + w.processStart();
        if (w.pid() < 0 || registered.contains(process)) return false;
        // registered (the usual answer) is known from the bus; the process's maps are read only when it is not
        if (!running(w.pid())) return false;
        if (!atspi.windowTitles(w.pid()).isEmpty()) {
            if (w.processStart() >= 0) registered.add(process);
            return false;
        }
        return BridgeLibraries.loaded(w.pid());
    }

    /**
     * The processes (pid and start time: a reused pid is another process) once seen with a window on the
     * accessibility bus: an app registers once, so they are not asked again on every call (a bus round trip,
     * 2.4 ms a galculator call). Only the wait for a starting app rests on it; a registered app that stops
     * answering is refused by the walk, as before.
     */
    private final Set<String> registered = java.util.Collections.newSetFromMap(
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                    return size() > 256;
                }
            }));

    /**
     * Waits for the window's app to register, at most {@code max}: between two looks it waits for the next
     * accessibility event that adds children (the registry announces a new application so), at most 100 ms.
     */
    @Override
    public boolean awaitRegistered(long windowId, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (true) {
            if (!starting(windowId)) return true;
            long left = deadline - System.nanoTime();
            if (left <= 0) return false;
            atspi.settle(
                    Duration.ofNanos(Math.min(left, REGISTRATION_LOOK.toNanos())),
                    Set.of(Landing.CHILDREN),
                    System.nanoTime());
        }
    }

    /** The longest wait between two looks for a starting app's registration. */
    static final Duration REGISTRATION_LOOK = Duration.ofMillis(100);

    /** Whether the process runs: its {@code /proc/PID/stat} state is not stopped, traced, zombie or dead. */
    static boolean running(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return "TtZXx".indexOf(state) < 0;
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    private static ScopedTree noTree(long windowId, long grantRevision) {
        return new ScopedTree(windowId, grantRevision, List.of(), false);
    }

    @Override
    public void click(String uid) {
        act(() -> atspi.click(uid));
    }

    @Override
    public void setText(String uid, String text) {
        act(() -> atspi.setText(uid, text));
    }

    @Override
    public void focus(String uid) {
        act(() -> atspi.focus(uid));
    }

    @Override
    public void scroll(String uid, String direction, int amount) {
        act(() -> atspi.scroll(uid, direction, amount));
    }

    @Override
    public void select(String uid, String option) {
        act(() -> atspi.select(uid, option));
    }

    @Override
    public void key(long windowId, Chord chord) {
        act(() -> {
            if (holdsFocus(windowId)) {
                x11.xtestKey(windowId, chord);
            } else {
                requireSyntheticKeys(windowId);
                x11.key(windowId, chord);
            }
        });
    }

    /**
     * Types in chunks of {@value #TYPE_CHUNK} code points. Before each chunk the gate runs the last check
     * (Stop, grant, the facts read fresh, the focus where the action was checked), and the path is chosen
     * again: XTEST only while the window's top-level holds the focus (checked by the X server side too),
     * otherwise events sent to the window itself. A focus change during one chunk's XTEST events can still
     * take that chunk (docs/security.md); the next chunk's check stops the typing.
     */
    @Override
    public void type(long windowId, String text, DeliveryGate gate) {
        act(() -> {
            int[] cps = text.codePoints().toArray();
            for (int i = 0; i < cps.length; i += TYPE_CHUNK) {
                String chunk = new String(cps, i, Math.min(TYPE_CHUNK, cps.length - i));
                gate.require();
                if (holdsFocus(windowId)) {
                    x11.xtestType(windowId, chunk);
                } else {
                    requireSyntheticKeys(windowId);
                    x11.type(windowId, chunk);
                }
            }
        });
    }

    /** Code points typed between two last checks. */
    public static final int TYPE_CHUNK = 16;

    /** Whether the window's top-level holds the input focus (XTEST keys would land in it). */
    private boolean holdsFocus(long windowId) {
        long focused = x11.focusedTopLevel();
        return focused != 0 && focused == x11.topLevelOf(windowId);
    }

    private void requireSyntheticKeys(long windowId) {
        WindowInfo w = window(windowId);
        if (w.pid() >= 0 && atspi.isGtk4Process(w.pid())) {
            throw new RefusedException(
                    Refusal.outOfScope("window 0x" + Long.toHexString(windowId) + " is a GTK 4 window without "
                            + "input focus: GTK 4 ignores keys sent to a window, and Deckhand never moves focus; act by uid "
                            + "or ask the user to focus the window"));
        }
    }

    /**
     * A click at a capture pixel, three ways, never moving the person's pointer or focus outside a private desktop:
     * <ol>
     *   <li>on a control whose accessibility action is what a click on it does ({@link #PRESSED_BY_ACTION}, or a
     *       label or icon drawn inside one), that action, on any toolkit and display;
     *   <li>elsewhere (a canvas, a text field, a list row, a cell, a window without a tree), on a private virtual
     *       desktop Deckhand started, the real pointer through XTEST ({@link X11Display#clickAt});
     *   <li>on any other display, pointer events sent to the window ({@link X11Display#sendClick}) where its
     *       toolkit takes them ({@link PointerToolkit}, measured): GTK 2, GTK 3 and Xt always; Qt 5, LibreOffice's
     *       own backend and Chromium only while the window is already the active one (they activate their window
     *       on a press); GTK 4 and unmeasured toolkits never: {@code POINTER_WARP_REFUSED}.
     * </ol>
     */
    @Override
    public void clickAt(int x, int y, Basis basis) {
        act(() -> {
            if (!x11.basisValid(basis)) {
                throw new RefusedException(Refusal.basisStale("window 0x" + Long.toHexString(basis.windowId())
                        + " moved, resized or closed since the capture"));
            }
            Geometry g = basis.windowGeometry();
            int sx = g.x() + (int) Math.floor(x / basis.scale());
            int sy = g.y() + (int) Math.floor(y / basis.scale());
            Optional<Node> pressed = pressedAt(atspi.hitPath(sx, sy));
            if (pressed.isPresent()) {
                atspi.click(pressed.get().uid());
            } else if (x11.privateDesktop()) {
                x11.clickAt(x, y, basis);
            } else {
                requireSentPointer(basis.windowId());
                x11.sendClick(x, y, basis);
            }
        });
    }

    /** The longest {@link #closeOwnMenus} waits for the app's menus to let the keyboard go. */
    static final Duration CLOSE_MENUS_MAX = Duration.ofSeconds(2);

    /** {@link X11Display#closeOwnMenus}: an Escape to each menu of the window's client that Deckhand's action opened. */
    @Override
    public dev.deckhand.loop.desktop.MenuClosing closeOwnMenus(long windowId) {
        return x11.closeOwnMenus(windowId, CLOSE_MENUS_MAX);
    }

    /**
     * Roles whose accessibility action is what a click on them does (press, toggle, open): a {@code click_at} on
     * one goes through that action. Text fields, rows, cells and canvases are not among them: their action
     * activates (Enter, open) where a click places a caret or selects, so they get pointer events.
     */
    static final Set<String> PRESSED_BY_ACTION = Set.of(
            "push button",
            "toggle button",
            "check box",
            "radio button",
            "menu item",
            "check menu item",
            "radio menu item",
            "menu",
            "page tab",
            "link",
            "button",
            "switch",
            "combo box");

    /** Roles that draw a control's label or icon inside it: a point on one presses the control around it. */
    static final Set<String> INSIDE_CONTROLS = Set.of("label", "static", "image", "icon");

    /**
     * The control a click at the point presses through its action: the deepest element there when its role is
     * {@link #PRESSED_BY_ACTION}, or its nearest ancestor of such a role when the deepest is a label or icon
     * inside it ({@code path}: the deepest element, then its ancestors, as {@link AtspiBridge#hitPath} gives them).
     */
    static Optional<Node> pressedAt(List<Node> path) {
        if (path.isEmpty()) return Optional.empty();
        if (PRESSED_BY_ACTION.contains(path.get(0).role())) return Optional.of(path.get(0));
        if (!INSIDE_CONTROLS.contains(path.get(0).role())) return Optional.empty();
        for (int i = 1; i < path.size(); i++) {
            Node n = path.get(i);
            if (PRESSED_BY_ACTION.contains(n.role())) return Optional.of(n);
            if (!INSIDE_CONTROLS.contains(n.role())
                    && !n.role().equals("filler")
                    && !n.role().equals("panel")) break;
        }
        return Optional.empty();
    }

    /**
     * {@code POINTER_WARP_REFUSED} unless the window's toolkit takes pointer events sent to it now
     * ({@link PointerToolkit}): always for GTK 2, GTK 3, Xt; while the window is the active one for the toolkits
     * that activate their window on a press (Deckhand never moves the person's focus); never for GTK 4 and
     * toolkits not measured. Outside a private desktop the real pointer is never the way.
     */
    private void requireSentPointer(long windowId) {
        WindowInfo w = window(windowId);
        PointerToolkit toolkit = PointerToolkit.of(w.pid());
        String which = "window 0x" + Long.toHexString(windowId) + " is a " + toolkit.label() + " window, which "
                + toolkit.measured();
        switch (toolkit.delivery()) {
            case SENT -> {}
            case ONLY_WHILE_ACTIVE -> {
                long active = x11.activeWindow();
                if (active == 0 || x11.topLevelOf(active) != x11.topLevelOf(windowId)) {
                    throw new RefusedException(
                            Refusal.pointerWarpRefused(
                                    which + "; another window (0x"
                                            + Long.toHexString(active)
                                            + ") is active, and Deckhand never moves the person's focus nor"
                                            + " pointer: act on its elements by uid, or click_at once the person made it the active window"));
                }
            }
            case NONE ->
                throw new RefusedException(Refusal.pointerWarpRefused(which + "; no control of its tree is"
                        + " under the point, and the real pointer (XTEST) is used only on a private desktop Deckhand started:"
                        + " act on its elements by uid"));
        }
    }

    @Override
    public Capture capture(long windowId, long grantRevision, int longEdge) {
        return x11.capture(windowId, grantRevision, longEdge, "png");
    }

    @Override
    public boolean basisValid(Basis basis) {
        return x11.basisValid(basis);
    }

    /** An X11 window takes key, type and click_at where docs/design.md#platforms allows them (refused per call otherwise). */
    /**
     * The window's menu items' accelerators ({@link AtspiBridge#accelerators}); unknown for a window with no
     * tree at all (no process, or never registered on the bus: xterm), where a {@code key} is judged by
     * its unread focus alone.
     */
    @Override
    public dev.deckhand.grant.Accelerators accelerators(long windowId) {
        WindowInfo w = window(windowId);
        if (w.pid() < 0) return dev.deckhand.grant.Accelerators.UNKNOWN;
        try {
            return atspi.accelerators(w.pid(), w.title());
        } catch (RefusedException e) {
            if (e.code() == RefusalCode.A11Y_UNAVAILABLE
                    && e.getMessage().contains(AtspiBridge.NOT_REGISTERED)
                    && running(w.pid())) {
                return dev.deckhand.grant.Accelerators.UNKNOWN;
            }
            throw e;
        }
    }

    @Override
    public boolean syntheticInput(long windowId) {
        return true;
    }

    /** Its {@link Facts#current()}: kept current by events ({@link KeptFacts#current()}). */
    public DesktopFacts facts() {
        return facts.current();
    }

    /** Its {@link Facts#fresh()}: the absolute refusals' facts read now ({@link KeptFacts#fresh()}). */
    public DesktopFacts freshFacts() {
        return facts.fresh();
    }

    /** {@link X11Display#activeWindow()}. */
    @Override
    public long activeWindow() {
        return x11.activeWindow();
    }

    /** {@link X11Display#privateDesktop()}: {@code DECKHAND_PRIVATE_DESKTOP=1} in the environment it opened with. */
    @Override
    public boolean privateDesktop() {
        return x11.privateDesktop();
    }

    /** {@link X11Display#keyboardChanges()}. */
    @Override
    public dev.deckhand.loop.desktop.KeyboardChanges keyboardChanges() {
        return x11.keyboardChanges();
    }

    /** How many facts reads went to the desktop for everything (tests and benches). */
    public long wholeFactsReads() {
        return facts.wholeReads();
    }

    @Override
    public void settle(Duration max) {
        atspi.settle(max);
    }

    /**
     * Settles on the first of {@code landings} since the last action began, once its burst is over, else on
     * the quiet window ({@link AtspiBridge#settle(Duration, Set, long)}): a landing is an event that is the
     * action's effect, never a press's own states (docs/driver-atspi.md).
     */
    @Override
    public void settle(Duration max, Set<Landing> landings) {
        atspi.settle(max, landings, actedAt);
    }

    /** When the last action began ({@link System#nanoTime()}): its landing events are the ones after it. */
    private volatile long actedAt = System.nanoTime();

    /**
     * Counts each action's beginning and its end (delivered or refused): a walk whose count is no longer the
     * current one began before an action ended, or saw one under way ({@link #latestSnapshot}).
     */
    private final AtomicLong actions = new AtomicLong();

    /** Runs an action: notes when it began ({@link #settle(Duration, Set)}) and counts its beginning and end. */
    /**
     * Runs one input action, marked in the X server's order of requests at its beginning and end
     * ({@link X11Display#markAction}): a keyboard grab the granted app takes after the beginning — its menu, combo
     * list or popover opening — is known as opened by Deckhand's action (docs/security.md).
     */
    private void act(Runnable action) {
        actions.incrementAndGet();
        actedAt = System.nanoTime();
        x11.markAction(true);
        try {
            action.run();
        } finally {
            actions.incrementAndGet();
            x11.markAction(false);
        }
    }

    @Override
    public void close() {
        try {
            atspi.close();
        } finally {
            x11.close();
        }
    }
}

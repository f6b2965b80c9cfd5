package dev.deckhand.platform.atspi;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.DesktopFacts.FocusedElement;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.ScopedTree;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The AT-SPI half of the Linux desktop driver: the scoped accessibility tree of one window, actions
 * by uid, and the accessibility facts the policy needs, all through libatspi (JNA).
 *
 * <p>This class is the thread-confined front: libatspi is not thread-safe, so every libatspi call runs
 * on one dedicated thread ({@link AtspiThread}) that also pumps the GLib main loop. The state that
 * calls libatspi — the {@linkplain AtspiBus bus}, the {@linkplain AtspiTree tree}, the
 * {@linkplain AtspiActions actions}, the {@linkplain AtspiFacts facts} — is an {@link AtspiSession}
 * held in a {@link Confined}, reachable only by a task that runs on that thread; public methods check
 * their arguments, submit such a task and wait at most a bound, so no method hangs on a frozen app.
 * libatspi's cache is on (mask 0x7f per application) and pumped before every snapshot, action and fact.
 * The libatspi call timeout is 1 s; an app whose call times out is flagged hung: its snapshot returns
 * what was read with {@code partial = true}, later calls probe it (300 ms) and refuse with
 * {@code A11Y_UNAVAILABLE} until it answers again.
 *
 * <p>A walk takes the window's descendants from one {@code Collection.GetMatches} where the app
 * offers it (GTK 3, ATK-bridged Swing), child by child otherwise (Qt 5, GTK 4.8), and the bounds of
 * its showing elements from one pipelined burst of GetExtents ({@link PipelinedCalls}). A walk on
 * an app that died meanwhile is refused, never returned from libatspi's cache as a whole tree.
 *
 * <p>Uids are minted per grant revision (the {@code grantRevision} of the latest snapshot); the
 * same element keeps its uid across snapshots of one revision, and all of them (with their native
 * references) are dropped when a snapshot names another revision or on {@link #close()}. Every
 * method throws {@link RefusedException}: {@code OUT_OF_SCOPE} for a uid not from the current
 * revision, {@code A11Y_UNAVAILABLE} for no bus / no app / no window / a hung or vanished app,
 * {@code PLATFORM_UNSUPPORTED} when the element lacks the interface an action needs.
 */
public final class AtspiBridge implements AutoCloseable {

    /** Most nodes one snapshot returns; beyond it the tree is {@code partial}. */
    /** How a snapshot's refusal begins when no application of that pid is on the bus at all. */
    public static final String NOT_REGISTERED = "no accessible application has pid ";

    public static final int NODE_CAP = 2000;
    /** Wall-clock budget of one snapshot walk; beyond it the tree is {@code partial}. */
    public static final Duration WALK_BUDGET = Duration.ofMillis(1500);
    /** libatspi's per-call D-Bus timeout. */
    public static final int CALL_TIMEOUT_MILLIS = 1500;
    /** The timeout used to probe an app flagged hung. */
    public static final int PROBE_TIMEOUT_MILLIS = 300;
    /** How long a caller waits for the libatspi thread before refusing. */
    public static final Duration CALL_BOUND = Duration.ofMillis(2000);
    /**
     * After an event that shows the action landed, {@link #settle} waits for this long without events (the app's
     * burst). Traced on LandingSettleTest: one handler's events come within 0.5 ms of each other (a display's
     * delete and insert), GTK 4's layout states 5 ms after its text; what came 6-25 ms later was a toggle
     * button's release, not the effect. The reads after the settle queue behind the app's handler (GTK, Qt
     * and the ATK wrapper answer on the thread that runs it), so the grace is only for an effect the app
     * finishes in a later main-loop pass: LandingSettleTest passes with none at all (tried at load 4.5).
     * How it was measured: docs/performance.md#constants-that-moved-with-measurement.
     */
    public static final Duration LANDED_GRACE = Duration.ofMillis(3);
    /** {@link #settle} returns once no accessibility event arrived for this long. */
    public static final Duration QUIET = Duration.ofMillis(75);
    /** Text values in a snapshot are cut to this many characters. */
    public static final int VALUE_CAP = 2000;
    /** At most this many characters of an element's description and shown text are read (for the gate only). */
    public static final int SHOWN_CAP = 500;
    /** {@link #readText} reads at most this many characters. */
    public static final int READ_CAP = 100_000;

    private static final Set<String> SCROLL_DIRECTIONS = Set.of("up", "down", "left", "right");

    /** Everything that calls libatspi; only the libatspi thread reaches it. */
    private final Confined<AtspiSession> on;
    /** The latest snapshot's nodes, which {@link #hit} reads on the caller's thread. */
    private final LatestNodes latest;

    private AtspiBridge(Confined<AtspiSession> on, LatestNodes latest) {
        this.on = on;
        this.latest = latest;
    }

    /**
     * Connects to the accessibility bus. Checks first that a bus can be found
     * ({@code AT_SPI_BUS_ADDRESS}, the {@code AT_SPI_BUS} root-window property, or a session bus),
     * because libatspi aborts the process on a missing bus; then checks {@code atspi_init}'s result.
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE} naming what is missing
     */
    public static AtspiBridge start() {
        String reason = AtspiBus.busMissingReason(System.getenv());
        if (reason != null) throw new RefusedException(Refusal.a11yUnavailable(reason));
        AtspiThread thread = AtspiThread.shared();
        thread.call("atspi_init", Duration.ofSeconds(10), () -> {
            AtspiBus.init(thread);
            return null;
        });
        LatestNodes latest = new LatestNodes();
        return new AtspiBridge(
                Confined.create(thread, "register event listener", CALL_BOUND, () -> new AtspiSession(thread, latest)),
                latest);
    }

    // ------------------------------------------------------------------------------------------
    // Snapshot

    /**
     * The accessibility tree of one window in document order (the window's frame at depth 0).
     * The window is found as the top-level accessible of the application with process id
     * {@code pid} whose name equals {@code windowTitle}; none or several refuse. Bounds are screen
     * coordinates (GTK 4's window-relative values are shifted by {@code windowGeometry}'s origin);
     * they are read for showing elements only (all elements on GTK 4, which reports no showing
     * state). A password text node never carries its value.
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE}: no such app, no or several such windows,
     *     the app is hung or gone
     */
    public ScopedTree snapshot(
            int pid, String windowTitle, Geometry windowGeometry, long windowId, long grantRevision) {
        return snapshot(pid, windowTitle, windowGeometry, windowId, grantRevision, false);
    }

    /**
     * As {@link #snapshot(int, String, Geometry, long, long)}; with {@code includeHidden} false
     * (the default) an element that reports it is not showing is listed (with {@code showing =
     * false}) but its descendants are not (closed menus, hidden pages): they are slow to read
     * (toolkits do not cache them) and cannot be seen. GTK 4 reports no showing state, so nothing
     * is pruned there.
     */
    public ScopedTree snapshot(
            int pid,
            String windowTitle,
            Geometry windowGeometry,
            long windowId,
            long grantRevision,
            boolean includeHidden) {
        if (windowTitle == null) throw new IllegalArgumentException("windowTitle is required for snapshot");
        if (windowGeometry == null) throw new IllegalArgumentException("windowGeometry is required for snapshot");
        // The walk may use its whole budget; the caller's bound also covers one call queued ahead of it
        // (the watcher's password-focus walk has the same budget).
        return on.call("snapshot of pid " + pid, WALK_BUDGET.plus(CALL_BOUND), s -> s.pumped()
                .tree()
                .snapshot(pid, windowTitle, windowGeometry, windowId, grantRevision, includeHidden));
    }

    /**
     * The tree of one top-level accessible named by its route (the Wayland driver's frames, which have no
     * X window and may change their title); as {@link #snapshot(int, String, Geometry, long, long)} otherwise.
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE}: the app or the frame is gone, hung
     */
    public ScopedTree snapshot(BusFrame frame, Geometry windowGeometry, long windowId, long grantRevision) {
        if (frame == null) throw new IllegalArgumentException("frame is required for snapshot");
        if (windowGeometry == null) throw new IllegalArgumentException("windowGeometry is required for snapshot");
        return on.call("snapshot of pid " + frame.pid(), WALK_BUDGET.plus(CALL_BOUND), s -> s.pumped()
                .tree()
                .snapshot(frame.pid(), frame.name(), frame, windowGeometry, windowId, grantRevision, false));
    }

    /**
     * The key bindings of the menu items of one window (found as {@link #snapshot} finds it), collapsed
     * menus included: every element under the window's menu bars, showing or not, whose role is a menu
     * item's, with the bindings its Action interface gives ({@code GetKeyBinding}). See {@link AtspiMenus}.
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE}: no such app or window, the app is hung or gone
     */
    public dev.deckhand.grant.Accelerators accelerators(int pid, String windowTitle) {
        if (windowTitle == null) throw new IllegalArgumentException("windowTitle is required for accelerators");
        return on.call("menus of pid " + pid, AtspiMenus.BUDGET.plus(CALL_BOUND), s -> s.pumped()
                .menus()
                .read(pid, windowTitle));
    }

    /** The top-level accessibles of every application on the bus (apps flagged hung left out). */
    public List<BusFrame> frames() {
        return on.call(
                "frames", WALK_BUDGET.plus(CALL_BOUND), s -> s.pumped().frames().list());
    }

    /**
     * The uid of the deepest element of the latest snapshot (of the current revision) whose bounds
     * contain the screen point; among equally deep ones the last in document order. Empty when no
     * element contains it. Uses no native call and does not wait for the libatspi thread: the basis
     * check of {@code click_at} happens before.
     */
    public Optional<String> hit(int screenX, int screenY) {
        return latest.hit(screenX, screenY);
    }

    /**
     * The element {@link #hit} finds at the screen point, followed by its ancestors in the latest snapshot (nearest
     * first); empty when no element contains the point. Like {@link #hit}, no native call.
     */
    public List<dev.deckhand.loop.desktop.Node> hitPath(int screenX, int screenY) {
        return latest.hitPath(screenX, screenY);
    }

    // ------------------------------------------------------------------------------------------
    // Acting by uid

    /**
     * Clicks, presses, activates or toggles the element through its Action interface (the first of
     * {@code click, press, activate, toggle, jump} it offers, by name, ignoring case).
     *
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} when it offers none of them
     */
    public void click(String uid) {
        requireUid(uid, "click");
        on.call("click " + uid, CALL_BOUND, s -> {
            s.pumped().actions().click(uid);
            return null;
        });
    }

    /**
     * Replaces the element's text with {@code text} (EditableText {@code set_text_contents}, UTF-8).
     *
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} when the element is not editable text
     */
    public void setText(String uid, String text) {
        if (text == null) throw new IllegalArgumentException("text is required for set_text");
        requireUid(uid, "set_text");
        on.call("set_text " + uid, CALL_BOUND, s -> {
            s.pumped().actions().setText(uid, text);
            return null;
        });
    }

    /**
     * Gives the element keyboard focus (Component {@code grab_focus}). On GTK 3 this also raises and
     * activates its window; GTK 4.8 refuses it.
     */
    public void focus(String uid) {
        requireUid(uid, "focus");
        on.call("focus " + uid, CALL_BOUND, s -> {
            s.pumped().actions().focus(uid);
            return null;
        });
    }

    /**
     * Selects the child named exactly {@code option} through the element's Selection interface
     * (children first, then the children of a single menu/list child, as GTK combo boxes nest them).
     *
     * @throws RefusedException {@code OUT_OF_SCOPE} for no or several such options,
     *     {@code PLATFORM_UNSUPPORTED} without a Selection interface
     */
    public void select(String uid, String option) {
        if (option == null) throw new IllegalArgumentException("option is required for select");
        requireUid(uid, "select");
        on.call("select " + uid, CALL_BOUND, s -> {
            s.pumped().actions().select(uid, option);
            return null;
        });
    }

    /**
     * Scrolls the element {@code amount} steps in {@code direction} by moving the value of its
     * scroll bar (the element itself, or the first matching scroll bar among its descendants, within
     * 300 nodes) by {@code amount} times the bar's minimum increment, clamped.
     *
     * @param direction up, down, left or right
     * @param amount 1..100 steps of the scroll bar's minimum increment
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} when no scroll bar with a Value
     *     interface is found
     */
    public void scroll(String uid, String direction, int amount) {
        if (!SCROLL_DIRECTIONS.contains(direction)) {
            throw new IllegalArgumentException(
                    "direction must be up, down, left or right for scroll, was " + direction);
        }
        if (amount < 1 || amount > 100)
            throw new IllegalArgumentException("amount must be 1..100 for scroll, was " + amount);
        requireUid(uid, "scroll");
        on.call("scroll " + uid, CALL_BOUND, s -> {
            s.pumped().actions().scroll(uid, direction, amount);
            return null;
        });
    }

    /**
     * The element's current text (Text interface), or its value (Value interface) as text; empty
     * for an element with neither, and always empty for a password text element.
     */
    public Optional<String> readText(String uid) {
        requireUid(uid, "read_text");
        return on.call("read_text " + uid, CALL_BOUND, s -> s.pumped().actions().readText(uid));
    }

    private static void requireUid(String uid, String action) {
        if (uid == null) throw new IllegalArgumentException("uid is required for " + action);
    }

    // ------------------------------------------------------------------------------------------
    // Facts

    /**
     * Whether a focused element anywhere is a password text field: the source of the latest focus
     * event, and a walk of the active top-level windows (all showing ones when none is active).
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE} when the walk cannot finish in time (the
     *     caller must then assume the worst)
     */
    public boolean passwordFocused() {
        return on.call(
                "password focus check", CALL_BOUND, s -> s.pumped().facts().passwordFocused());
    }

    /**
     * The element holding the accessibility focus now (role, name, process, screen bounds): the one that
     * last announced focus if it still holds it, else the focused element found in the active top-level
     * windows; empty when none is (or the toolkit reports no focus).
     */
    public Optional<FocusedElement> focusedElement() {
        return on.call("focused element", CALL_BOUND, s -> s.pumped().facts().focusedElement());
    }

    /**
     * The focus facts, started on the libatspi thread and read by {@code get()} (the caller reads X and /proc
     * meanwhile): whether a password field holds the focus ({@link #passwordFocused}) and the focused element
     * ({@link #focusedElement}), with the {@linkplain #events() event count} read before them. One hand-off,
     * pumped before each read, in the bound of its three reads (a stopped app costs each walk its timeout and
     * probe); {@code get()} throws {@code A11Y_UNAVAILABLE} when a walk cannot finish in time.
     */
    public Pending<Focus> focusLater() {
        return on.submit("focus facts", CALL_BOUND.multipliedBy(3), s -> {
            long events = s.pumped().bus().events();
            boolean password = s.pumped().facts().passwordFocused();
            return new Focus(events, password, s.pumped().facts().focusedElement());
        });
    }

    /**
     * The facts with no absolute refusal behind them, as {@link #focusLater()}: the registered applications'
     * names ({@link #applicationNames}) and the browser host ({@link #focusedBrowserHost}), with the event
     * count read before them.
     */
    public Pending<Context> contextLater() {
        return on.submit("context facts", CALL_BOUND.multipliedBy(3), s -> {
            long events = s.pumped().bus().events();
            Set<String> names = s.pumped().facts().applicationNames();
            return new Context(events, names, s.pumped().facts().focusedBrowserHost());
        });
    }

    /**
     * How many accessibility events that can change a policy fact (a focus, activation, visibility, role, name
     * or structure change of any app; not text, value or a toggled state: {@code AtspiBus.changesFacts}) this
     * bridge has received, after pumping the pending ones. While it stays the same, no app announced such a change.
     */
    public long events() {
        return on.call("event count", CALL_BOUND, s -> s.pumped().bus().events());
    }

    /** A read running on the libatspi thread; {@link #get()} waits for its answer within its bound. */
    public interface Pending<T> {
        /** @throws RefusedException {@code A11Y_UNAVAILABLE} when the read did not finish within its bound */
        T get();
    }

    /**
     * How many accessibility events of any app this bridge has received, after pumping the pending ones:
     * every event its listener takes (children, property, state, text, value and visible-data changes), not
     * only those {@link #events()} counts. Read before a read of the desktop, then {@link #quietSince}.
     */
    public long allEvents() {
        return on.call("event count", CALL_BOUND, s -> s.pumped().bus().allEvents());
    }

    /**
     * Whether no accessibility event of any app arrived since {@link #allEvents()} answered {@code count}. The
     * pending events are pumped first; a main loop that still has work pending after one pump (a flood of
     * events) answers false, so an event not yet dispatched never reads as quiet.
     */
    public boolean quietSince(long count) {
        return on.call("event count", CALL_BOUND, s -> s.pumpedDry() && s.bus().allEvents() == count);
    }

    /** {@link #focusLater()}'s answer; {@code events} is the count before the read. */
    public record Focus(long events, boolean passwordFocused, Optional<FocusedElement> element) {}

    /** {@link #contextLater()}'s answer; {@code events} is the count before the read. */
    public record Context(long events, Set<String> applicationNames, Optional<String> browserHost) {}

    /** Names of the applications registered on the accessibility bus, lower case, without blanks. */
    public Set<String> applicationNames() {
        return on.call("application names", CALL_BOUND, s -> s.pumped().facts().applicationNames());
    }

    /**
     * Names of the top-level accessibles (frames, dialogs) of the application with process id
     * {@code pid}, in order; empty when no such application is registered.
     */
    public List<String> windowTitles(int pid) {
        return on.call("window titles of pid " + pid, CALL_BOUND, s -> s.pumped()
                .facts()
                .windowTitles(pid));
    }

    /**
     * Whether the accessible application of process {@code pid} is GTK 4, which ignores synthetic
     * (XSendEvent) key events; false when the process exposes no application. Known from a snapshot of
     * the process when there was one (no bus round trip on every key sent to the window).
     */
    public boolean isGtk4Process(int pid) {
        return on.call(
                "toolkit of pid " + pid, CALL_BOUND, s -> s.open().facts().isGtk4Process(pid));
    }

    /**
     * Best effort: the host of the document shown in the active window's focused (else first
     * showing) web document, read from the Document interface attributes {@code DocURL} (Firefox)
     * or {@code URI}/{@code URL}; empty when unknown. An empty result is not evidence that no
     * browser shows a denied host.
     */
    public Optional<String> focusedBrowserHost() {
        return on.call("browser host", CALL_BOUND, s -> s.pumped().facts().focusedBrowserHost());
    }

    // ------------------------------------------------------------------------------------------
    // Settling, lifecycle

    /**
     * Returns once no accessibility event (children, property, state, text, value changes of any
     * app) arrived for {@link #QUIET}, or when {@code max} has elapsed, whichever is first.
     */
    public void settle(Duration max) {
        settle(max, java.util.Set.of(), System.nanoTime());
    }

    /**
     * As {@link #settle(Duration)}, but returns {@link #LANDED_GRACE} after the first event of one of
     * {@code landings} that arrived after {@code since} (a {@link System#nanoTime()} reading: when the action
     * began) and was followed by that long without events; it still returns within {@code max}. Which events
     * are landings, and the wait for a GTK 4 button's delayed click: {@link AtspiBus#settle}.
     */
    public void settle(Duration max, java.util.Set<dev.deckhand.loop.desktop.Landing> landings, long since) {
        if (max == null || max.isNegative()) throw new IllegalArgumentException("max must be >= 0 for settle");
        on.call("settle", max.plus(CALL_BOUND), s -> {
            s.open().bus().settle(max, landings, since);
            return null;
        });
    }

    /**
     * As {@link #settle(Duration)}, but returns early only once an accessibility event arrived after
     * {@code effectNanos} ({@link System#nanoTime()} of the last action) and went quiet: the effect of an
     * action a toolkit applies later (GTK 4: ~255 ms) is waited for, bounded by {@code max}.
     */
    public void settleOnEffect(Duration max, long effectNanos) {
        if (max == null || max.isNegative()) throw new IllegalArgumentException("max must be >= 0 for settle");
        on.call("settle", max.plus(CALL_BOUND), s -> {
            s.open().bus().settleOnEffect(max, effectNanos);
            return null;
        });
    }

    /**
     * Drops every uid and native reference and the event listener. Later calls refuse with
     * {@code A11Y_UNAVAILABLE}. The libatspi thread itself stays for the JVM (libatspi is process-wide).
     */
    @Override
    public void close() {
        on.call("close", CALL_BOUND, s -> {
            s.close();
            return null;
        });
    }

    // ------------------------------------------------------------------------------------------
    // For tests and the bench

    /** Where the latest snapshot walk spent its time. */
    String lastWalkStats() {
        return on.call("walk stats", CALL_BOUND, s -> s.tree().lastWalkStats());
    }

    /**
     * The focused-password search of the active top-levels without the focus source, as its list tells it (null
     * when a top-level's list cannot stand for the walk) and as the walk tells it: {@code {listed, walked}}.
     */
    Boolean[] passwordSearches() {
        return on.call("password searches", WALK_BUDGET.plus(CALL_BOUND), s -> s.pumped()
                .facts()
                .passwordSearches());
    }

    /** The browser host of the active top-levels as the lists tell it (null when one cannot) and as the walks tell it. */
    List<Optional<String>> browserHostSearches() {
        return on.call("browser host searches", WALK_BUDGET.plus(CALL_BOUND), s -> s.pumped()
                .facts()
                .browserHostSearches());
    }

    /** How many times the bridge asked the bus daemon for an app's process id. */
    long pidQueries() {
        return on.call("pid queries", CALL_BOUND, s -> s.bus().pidQueries());
    }

    /** How many searches (password focus, browser host) a list answered so far. */
    long listedSearches() {
        return on.call("list searches", CALL_BOUND, s -> s.facts().listed());
    }

    /** False forces the child-by-child walk (tests and the bench compare both walks). */
    void useCollection(boolean use) {
        on.call("walk setting", CALL_BOUND, s -> s.tree().useCollection = use);
    }

    /** True asks every walk's hidden elements afresh, as the walks after an app changed do (the bench). */
    void askHiddenAlways(boolean always) {
        on.call("walk setting", CALL_BOUND, s -> s.tree().askHiddenAlways = always);
    }

    /** False reads each element's extents with its own call (tests and the bench compare both). */
    void pipelinedExtents(boolean use) {
        on.call("walk setting", CALL_BOUND, s -> s.tree().pipelinedExtents = use);
    }

    /**
     * The GObject reference count of the element bound to {@code uid} (GObject's {@code ref_count}
     * follows its type-instance pointer); for tests that prove repeated walks hold no extra reference.
     */
    int refCount(String uid) {
        return on.call("ref count", CALL_BOUND, s -> {
            RevisionUids.Bound b = s.uids().find(uid);
            if (b == null) throw new IllegalArgumentException("no element bound to " + uid);
            return b.obj().getInt(com.sun.jna.Native.POINTER_SIZE);
        });
    }
}

package dev.deckhand.platform.atspi;

import com.sun.jna.Memory;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import com.sun.jna.Library;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.NativeLongByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.platform.atspi.AtspiNative.Atspi;
import dev.deckhand.platform.atspi.AtspiNative.EventCallback;
import dev.deckhand.platform.atspi.AtspiNative.Glib;
import dev.deckhand.platform.atspi.AtspiNative.Gobject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The AT-SPI half of the Linux desktop driver: the scoped accessibility tree of one window, actions
 * by uid, and the accessibility facts the policy needs, all through libatspi (JNA).
 *
 * <p>Every libatspi call runs on one dedicated thread ({@link AtspiThread}) that also pumps the GLib
 * main loop; public methods submit to it and wait at most a bound, so no method hangs on a frozen
 * app. libatspi's cache is on (mask 0x7f per application) and pumped before every snapshot. The
 * libatspi call timeout is 1 s; an app whose call times out is flagged hung: its snapshot returns
 * what was read with {@code partial = true}, later calls probe it (300 ms) and refuse with
 * {@code A11Y_UNAVAILABLE} until it answers again.
 *
 * <p>A walk takes the window's descendants from one {@code Collection.GetMatches} where the app
 * offers it (GTK 3, ATK-bridged Swing), child by child otherwise (Qt 5, GTK 4.8), and the bounds of
 * its showing elements from one pipelined burst of GetExtents ({@link PipelinedExtents}). A walk on
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
    public static final int NODE_CAP = 2000;
    /** Wall-clock budget of one snapshot walk; beyond it the tree is {@code partial}. */
    public static final Duration WALK_BUDGET = Duration.ofMillis(1500);
    /** libatspi's per-call D-Bus timeout. */
    public static final int CALL_TIMEOUT_MILLIS = 1000;
    /** The timeout used to probe an app flagged hung. */
    public static final int PROBE_TIMEOUT_MILLIS = 300;
    /** How long a caller waits for the libatspi thread before refusing. */
    public static final Duration CALL_BOUND = Duration.ofMillis(2000);
    /** {@link #settle} returns once no accessibility event arrived for this long. */
    public static final Duration QUIET = Duration.ofMillis(75);
    /** Text values in a snapshot are cut to this many characters. */
    public static final int VALUE_CAP = 2000;
    /** {@link #readText} reads at most this many characters. */
    public static final int READ_CAP = 100_000;

    private static final String[] EVENTS = {
        "object:children-changed", "object:property-change", "object:state-changed",
        "object:text-changed", "object:value-changed", "object:visible-data-changed",
    };
    private static final List<String> CLICK_ACTIONS = List.of("click", "press", "activate", "toggle", "jump");
    private static final Set<String> TEXT_ROLES = Set.of("text", "entry", "password text", "spin button",
            "terminal", "document text", "editbar", "paragraph", "combo box");
    private static final Set<String> VALUE_ROLES = Set.of("slider", "spin button", "progress bar", "scroll bar",
            "level bar", "dial");

    private final AtspiThread thread;
    private final UidMint mint = new UidMint(new SecureRandom());
    private final long eventType;

    // --- everything below is confined to the libatspi thread ---
    private final Memory errSlot = new Memory(Native.POINTER_SIZE);
    private final Map<String, Bound> byUid = new HashMap<>();
    private final Map<Long, String> uidByPeer = new HashMap<>();
    private final Set<Integer> hungPids = new HashSet<>();
    private final Map<Integer, String> roleNames = new HashMap<>();
    private final Map<Integer, Boolean> gtk4ByPid = new HashMap<>();
    /** Errors {@link #checkError} dropped during the current walk (an element that vanished, or a dying app). */
    private int droppedErrors;
    /** Apps whose Collection.GetMatches is known not to serve a walk (absent, failing, or out of order). */
    private final Set<Integer> noCollection = new HashSet<>();
    /** The match-everything rule for GetMatches, made on first use (libatspi thread only). */
    private Pointer matchAll;
    /** Tests and the bench compare both walks: false forces the child-by-child walk. */
    volatile boolean useCollection = true;
    /** Tests and the bench compare both: false reads each element's extents with its own call. */
    volatile boolean pipelinedExtents = !Boolean.getBoolean("deckhand.atspi.one-extents-call-per-element");
    private final PipelinedExtents pipeline = new PipelinedExtents();
    private long revision = Long.MIN_VALUE;
    /** Walk counters: extents calls, extents nanos, text reads, text nanos (thread-confined). */
    private final long[] stats = new long[4];
    /** A one-line breakdown of the latest walk, for the bench. */
    private volatile String lastWalkStats = "";
    private Pointer listener;
    private EventCallback callback;
    private Pointer focusSource;
    private boolean closed;

    /** Written by the event callback (on the libatspi thread), read by {@link #settle}. */
    private volatile long lastEventNanos = System.nanoTime();
    /** The nodes of the latest snapshot of the current revision, for {@link #hit}. */
    private volatile List<Node> lastNodes = List.of();

    /** One element a uid stands for: a referenced native object and what acting on it needs. */
    private record Bound(Pointer obj, int pid, String role, String name) {}

    /** A libatspi call timed out: the app is flagged hung. */
    private static final class HungException extends RuntimeException {
        HungException(String what) {
            super(what, null, false, false);
        }
    }

    private AtspiBridge(AtspiThread thread) {
        this.thread = thread;
        this.eventType = thread.call("atspi_event_get_type", CALL_BOUND, Atspi::atspi_event_get_type);
    }

    /**
     * Connects to the accessibility bus. Checks first that a bus can be found
     * ({@code AT_SPI_BUS_ADDRESS}, the {@code AT_SPI_BUS} root-window property, or a session bus),
     * because libatspi aborts the process on a missing bus; then checks {@code atspi_init}'s result.
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE} naming what is missing
     */
    public static AtspiBridge start() {
        String reason = busMissingReason(System.getenv());
        if (reason != null) throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, reason);
        AtspiThread thread = AtspiThread.shared();
        thread.call("atspi_init", Duration.ofSeconds(10), () -> {
            if (thread.initialized()) return null;
            int rc = Atspi.atspi_init();
            if (rc > 1) {
                throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE,
                        "atspi_init could not reach the accessibility bus (rc " + rc + ")");
            }
            Atspi.atspi_set_timeout(CALL_TIMEOUT_MILLIS, -1);
            thread.markInitialized();
            return null;
        });
        AtspiBridge bridge = new AtspiBridge(thread);
        thread.call("register event listener", CALL_BOUND, () -> {
            bridge.registerListener();
            return null;
        });
        return bridge;
    }

    /**
     * Why no accessibility bus can be found from this environment, or null if one may be: libatspi
     * uses {@code AT_SPI_BUS_ADDRESS}, else the X root property {@code AT_SPI_BUS} (not under
     * Wayland), else asks the session bus.
     */
    static String busMissingReason(Map<String, String> env) {
        if (!blank(env.get("AT_SPI_BUS_ADDRESS"))) return null;
        String display = env.get("DISPLAY");
        if (!blank(display) && blank(env.get("WAYLAND_DISPLAY")) && !blank(rootProperty(display, "AT_SPI_BUS"))) {
            return null;
        }
        if (!blank(env.get("DBUS_SESSION_BUS_ADDRESS"))) return null;
        return "no accessibility bus: AT_SPI_BUS_ADDRESS is unset, the root window of DISPLAY="
                + (blank(display) ? "(unset)" : display)
                + " has no AT_SPI_BUS property, and DBUS_SESSION_BUS_ADDRESS is unset";
    }

    /** A string property of the X root window, or null (no display, no property). */
    static String rootProperty(String display, String name) {
        Xlib x = Xlib.INSTANCE;
        Pointer d = x.XOpenDisplay(display);
        if (d == null) return null;
        try {
            NativeLong atom = x.XInternAtom(d, name, 1);
            if (atom == null || atom.longValue() == 0) return null;
            NativeLongByReference type = new NativeLongByReference();
            IntByReference format = new IntByReference();
            NativeLongByReference items = new NativeLongByReference();
            NativeLongByReference after = new NativeLongByReference();
            PointerByReference data = new PointerByReference();
            int rc = x.XGetWindowProperty(d, x.XDefaultRootWindow(d), atom, new NativeLong(0), new NativeLong(1024),
                    0, new NativeLong(0), type, format, items, after, data);
            if (rc != 0 || data.getValue() == null) return null;
            try {
                if (format.getValue() != 8) return null;
                byte[] bytes = data.getValue().getByteArray(0, (int) items.getValue().longValue());
                return new String(bytes, StandardCharsets.UTF_8);
            } finally {
                x.XFree(data.getValue());
            }
        } finally {
            x.XCloseDisplay(d);
        }
    }

    /** The few Xlib calls the bus check needs; X {@code Bool} is declared {@code int} (JNA passes true as -1). */
    private interface Xlib extends Library {
        Xlib INSTANCE = com.sun.jna.Native.load("X11", Xlib.class);

        Pointer XOpenDisplay(String name);

        NativeLong XInternAtom(Pointer display, String name, int onlyIfExists);

        NativeLong XDefaultRootWindow(Pointer display);

        int XGetWindowProperty(Pointer display, NativeLong window, NativeLong property, NativeLong offset,
                NativeLong length, int delete, NativeLong reqType, NativeLongByReference actualType,
                IntByReference actualFormat, NativeLongByReference nitems, NativeLongByReference bytesAfter,
                PointerByReference prop);

        int XFree(Pointer data);

        int XCloseDisplay(Pointer display);
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
    public ScopedTree snapshot(int pid, String windowTitle, Geometry windowGeometry, long windowId, long grantRevision) {
        return snapshot(pid, windowTitle, windowGeometry, windowId, grantRevision, false);
    }

    /**
     * As {@link #snapshot(int, String, Geometry, long, long)}; with {@code includeHidden} false
     * (the default) an element that reports it is not showing is listed (with {@code showing =
     * false}) but its descendants are not (closed menus, hidden pages): they are slow to read
     * (toolkits do not cache them) and cannot be seen. GTK 4 reports no showing state, so nothing
     * is pruned there.
     */
    public ScopedTree snapshot(int pid, String windowTitle, Geometry windowGeometry, long windowId, long grantRevision,
            boolean includeHidden) {
        if (windowTitle == null) throw new IllegalArgumentException("windowTitle is required for snapshot");
        if (windowGeometry == null) throw new IllegalArgumentException("windowGeometry is required for snapshot");
        // The walk may use its whole budget; the caller's bound also covers one call queued ahead of it
        // (the watcher's password-focus walk has the same budget).
        return thread.call("snapshot of pid " + pid, WALK_BUDGET.plus(CALL_BOUND),
                () -> snapshotOnThread(pid, windowTitle, windowGeometry, windowId, grantRevision, includeHidden));
    }

    private ScopedTree snapshotOnThread(int pid, String title, Geometry geometry, long windowId, long rev,
            boolean includeHidden) {
        ensureOpen();
        thread.pump();
        if (rev != revision) {
            releaseUids();
            revision = rev;
            lastNodes = List.of();
        }
        long t0 = System.nanoTime();
        Pointer frame = findFrame(pid, title);
        try {
            if (hungPids.contains(pid)) probe(pid, frame);
            Boolean gtk4 = gtk4ByPid.get(pid);
            if (gtk4 == null) {
                Pointer app = Atspi.atspi_accessible_get_application(frame, err());
                dropError();
                gtk4 = false;
                if (app != null) {
                    gtk4 = isGtk4(app);
                    Gobject.g_object_unref(app);
                }
            }
            if (System.nanoTime() - t0 > HUNG_NANOS) {
                hungPids.add(pid);
                throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "app pid " + pid
                        + " is not responding to accessibility calls (hung or stopped)");
            }
            gtk4ByPid.put(pid, gtk4);
            droppedErrors = 0;
            ScopedTree tree = walk(frame, pid, gtk4, gtk4 ? geometry : null, windowId, rev, includeHidden);
            // An app that died during the walk leaves libatspi's cached roles and names readable while
            // every call fails: what came back would look like a whole tree. Refuse it; when calls
            // failed, ask the app once more before believing the tree.
            if (!processAlive(pid) || (droppedErrors > 0 && exitsWithin(pid, 100))) {
                throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "app pid " + pid + " exited during the walk");
            }
            if (droppedErrors > 0) {
                try {
                    probe(pid, frame);
                } catch (RefusedException e) {
                    throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "app pid " + pid + " exited or stopped"
                            + " answering during the walk (" + droppedErrors + " calls failed)");
                }
            }
            return tree;
        } finally {
            Gobject.g_object_unref(frame);
        }
    }

    private ScopedTree walk(Pointer root, int pid, boolean gtk4, Geometry origin, long windowId, long rev,
            boolean includeHidden) {
        long walkStart = System.nanoTime();
        long deadline = walkStart + WALK_BUDGET.toNanos();
        java.util.Arrays.fill(stats, 0);
        if (useCollection && !noCollection.contains(pid)) {
            ScopedTree fast;
            try {
                fast = collectionWalk(root, pid, gtk4, origin, windowId, rev, includeHidden, walkStart, deadline);
            } catch (HungException e) {
                hungPids.add(pid);
                throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "app pid " + pid
                        + " is not responding to accessibility calls (hung or stopped: " + e.getMessage() + ")");
            }
            if (fast != null) return fast;
            java.util.Arrays.fill(stats, 0);
        }
        List<Node> nodes = new ArrayList<>();
        List<Pointer> boundsOf = new ArrayList<>(); // the showing nodes' elements, in node order (the uid map holds them)
        boolean partial = false;
        Deque<Object[]> stack = new ArrayDeque<>();
        stack.push(new Object[] {Gobject.g_object_ref(root), 0});
        try {
            while (!stack.isEmpty()) {
                if (nodes.size() >= NODE_CAP || System.nanoTime() > deadline) {
                    partial = true;
                    break;
                }
                Object[] top = stack.pop();
                Pointer obj = (Pointer) top[0];
                int depth = (Integer) top[1];
                // An element already bound in this revision keeps the map's reference; this walk's
                // own reference to it is released below. Only a newly bound element (readNode binds it)
                // hands its reference to the map. Decided by address: JNA Pointers are distinct objects.
                boolean known = uidByPeer.containsKey(Pointer.nativeValue(obj));
                boolean kept = false;
                try {
                    Node node = readNode(obj, depth, pid, gtk4, origin);
                    if (node == null) continue;
                    kept = !known;
                    nodes.add(node);
                    if (node.showing()) boundsOf.add(obj);
                    if (!node.showing() && !includeHidden) continue;
                    long t1 = System.nanoTime();
                    int count = Atspi.atspi_accessible_get_child_count(obj, err());
                    checkError(pid, "get_child_count", t1);
                    guard(pid, "get_child_count", t1);
                    for (int i = count - 1; i >= 0; i--) {
                        long t2 = System.nanoTime();
                        Pointer child = Atspi.atspi_accessible_get_child_at_index(obj, i, err());
                        String e = takeError();
                        if (child != null && System.nanoTime() - t2 > HUNG_NANOS) {
                            Gobject.g_object_unref(child);
                            throw new HungException("get_child_at_index of pid " + pid + " took over 800 ms");
                        }
                        if (child == null) {
                            if (e != null && isTimeout(e, t2)) throw new HungException("get_child_at_index: " + e);
                            continue;
                        }
                        stack.push(new Object[] {child, depth + 1});
                    }
                } finally {
                    if (!kept) Gobject.g_object_unref(obj);
                }
            }
            fillBounds(nodes, boundsOf, pid, origin);
        } catch (HungException e) {
            hungPids.add(pid);
            partial = true;
            if (nodes.isEmpty()) {
                throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "app pid " + pid
                        + " is not responding to accessibility calls (hung or stopped: " + e.getMessage() + ")");
            }
        } finally {
            for (Object[] rest : stack) Gobject.g_object_unref((Pointer) rest[0]);
        }
        List<Node> result = List.copyOf(nodes);
        lastNodes = result;
        lastWalkStats = String.format(Locale.ROOT, "walk %.2f ms: %d extents calls %.2f ms, %d text reads %.2f ms",
                (System.nanoTime() - walkStart) / 1e6, stats[0], stats[1] / 1e6, stats[2], stats[3] / 1e6);
        return new ScopedTree(windowId, rev, result, partial);
    }

    /**
     * The walk from one {@code Collection.GetMatches} call on the frame: every descendant in canonical
     * order (each element before its children), the tree rebuilt from each element's cached parent,
     * hidden subtrees pruned in memory. One D-Bus round trip replaces a child count and a child read
     * per element (GTK 3 caches neither). Returns null when the app offers no Collection, the call
     * fails, or the order is not the one a walk would give (a parent not among the ancestors) — then
     * the caller walks child by child, and an app that failed so is not asked again.
     *
     * @throws HungException when the call times out
     */
    private ScopedTree collectionWalk(Pointer root, int pid, boolean gtk4, Geometry origin, long windowId, long rev,
            boolean includeHidden, long walkStart, long deadline) {
        Pointer collection = Atspi.atspi_accessible_get_collection_iface(root);
        guard(pid, "get_collection_iface", walkStart);
        if (collection == null) {
            noCollection.add(pid);
            return null;
        }
        if (matchAll == null) {
            Pointer attributes = Glib.g_hash_table_new(null, null);
            matchAll = Atspi.atspi_match_rule_new(null, AtspiNative.MATCH_ALL, attributes, AtspiNative.MATCH_ALL, null,
                    AtspiNative.MATCH_ALL, null, AtspiNative.MATCH_ALL, 0);
            Glib.g_hash_table_unref(attributes); // the rule keeps a copy
        }
        long t0 = System.nanoTime();
        Pointer array = Atspi.atspi_collection_get_matches(collection, matchAll, AtspiNative.SORT_CANONICAL, NODE_CAP, 1,
                err());
        Gobject.g_object_unref(collection);
        String e = takeError();
        Pointer[] found = new Pointer[0];
        if (array != null) {
            int length = array.getInt(Native.POINTER_SIZE);
            if (length > 0) found = array.getPointer(0).getPointerArray(0, length);
            Glib.g_array_free(array, 1);
        }
        if (System.nanoTime() - t0 > HUNG_NANOS || (array == null && e != null && isTimeout(e, t0))) {
            for (Pointer p : found) Gobject.g_object_unref(p);
            throw new HungException("GetMatches of pid " + pid + (e != null ? ": " + e : " took over 800 ms"));
        }
        if (array == null || found.length == 0) {
            // Not implemented or failing (Qt, GTK 4 have no Collection); an empty result for a frame is
            // no answer either: walk child by child.
            for (Pointer p : found) Gobject.g_object_unref(p);
            if (array == null) {
                noCollection.add(pid);
                droppedErrors++; // failing where it was offered: the app may be dying
            }
            return null;
        }
        double getMatchesMs = (System.nanoTime() - t0) / 1e6;
        List<Node> nodes = new ArrayList<>(found.length + 1);
        List<Pointer> boundsOf = new ArrayList<>(); // the showing nodes' elements, in node order (the uid map holds them)
        long[] ancestors = new long[64];
        int depthNow = 0;
        int hiddenBelow = -1; // depth of the hidden element whose descendants are pruned, or -1
        boolean partial = found.length >= NODE_CAP;
        int i = 0;
        Pointer rootRef = Gobject.g_object_ref(root);
        boolean rootKnown = uidByPeer.containsKey(Pointer.nativeValue(rootRef));
        try {
            Node top = readNode(rootRef, 0, pid, gtk4, origin);
            if (top.showing()) boundsOf.add(root);
            if (!rootKnown) rootRef = null; // the uid map took it
            nodes.add(top);
            ancestors[0] = Pointer.nativeValue(root);
            depthNow = 1;
            if (!top.showing() && !includeHidden) hiddenBelow = 0;
            for (; i < found.length; i++) {
                if (System.nanoTime() > deadline) {
                    partial = true;
                    break;
                }
                Pointer obj = found[i];
                found[i] = null;
                boolean known = uidByPeer.containsKey(Pointer.nativeValue(obj));
                boolean kept = false;
                try {
                    long t1 = System.nanoTime();
                    Pointer parent = Atspi.atspi_accessible_get_parent(obj, err());
                    checkError(pid, "get_parent", t1);
                    guard(pid, "get_parent", t1);
                    long parentAddress = parent == null ? 0 : Pointer.nativeValue(parent);
                    if (parent != null) Gobject.g_object_unref(parent);
                    while (depthNow > 0 && ancestors[depthNow - 1] != parentAddress) depthNow--;
                    if (depthNow == 0) {
                        // Not the order a walk gives (or a stale parent): the child-by-child walk decides.
                        noCollection.add(pid);
                        return null;
                    }
                    int depth = depthNow;
                    if (depthNow == ancestors.length) ancestors = java.util.Arrays.copyOf(ancestors, depthNow * 2);
                    ancestors[depthNow++] = Pointer.nativeValue(obj);
                    if (hiddenBelow >= 0 && depth <= hiddenBelow) hiddenBelow = -1;
                    if (hiddenBelow >= 0) continue;
                    Node node = readNode(obj, depth, pid, gtk4, origin);
                    kept = !known;
                    nodes.add(node);
                    if (node.showing()) boundsOf.add(obj);
                    if (!node.showing() && !includeHidden) hiddenBelow = depth;
                } finally {
                    if (!kept) Gobject.g_object_unref(obj);
                }
            }
            fillBounds(nodes, boundsOf, pid, origin);
        } finally {
            if (rootRef != null) Gobject.g_object_unref(rootRef);
            for (Pointer rest : found) {
                if (rest != null) Gobject.g_object_unref(rest);
            }
        }
        List<Node> result = List.copyOf(nodes);
        lastNodes = result;
        lastWalkStats = String.format(Locale.ROOT, "walk %.2f ms (GetMatches %.2f ms, %d elements): %d extents calls"
                + " %.2f ms, %d text reads %.2f ms", (System.nanoTime() - walkStart) / 1e6, getMatchesMs, found.length,
                stats[0], stats[1] / 1e6, stats[2], stats[3] / 1e6);
        return new ScopedTree(windowId, rev, result, partial);
    }

    /** Reads one node and binds a uid to it (the uid map takes {@code obj}'s reference if new). */
    private Node readNode(Pointer obj, int depth, int pid, boolean gtk4, Geometry origin) {
        long t0 = System.nanoTime();
        int roleId = Atspi.atspi_accessible_get_role(obj, err());
        checkError(pid, "get_role", t0);
        guard(pid, "get_role", t0);
        String role = roleName(roleId);
        String name = takeString(Atspi.atspi_accessible_get_name(obj, err()));
        checkError(pid, "get_name", t0);
        guard(pid, "get_name", t0);
        if (name == null) name = "";
        boolean enabled = false;
        boolean focused = false;
        boolean editable = false;
        boolean showing = false;
        boolean singleLine = false;
        boolean isDefault = false;
        Pointer states = Atspi.atspi_accessible_get_state_set(obj);
        if (states != null) {
            enabled = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_ENABLED) != 0
                    || Atspi.atspi_state_set_contains(states, AtspiNative.STATE_SENSITIVE) != 0;
            focused = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_FOCUSED) != 0;
            editable = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_EDITABLE) != 0;
            showing = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_SHOWING) != 0;
            singleLine = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_SINGLE_LINE) != 0
                    && Atspi.atspi_state_set_contains(states, AtspiNative.STATE_MULTI_LINE) == 0;
            isDefault = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_IS_DEFAULT) != 0;
            Gobject.g_object_unref(states);
        }
        guard(pid, "get_state_set", t0);
        if (gtk4) {
            // GTK 4.8 sets neither showing nor enabled; report what the toolkit cannot say as true
            // rather than hide every element (LINUX-DESKTOP.md).
            showing = true;
            enabled = true;
        }
        // Bounds of showing elements are read after the walk, all at once (fillBounds).
        Geometry bounds = null;
        boolean password = "password text".equals(role);
        boolean hasValue = false;
        String value = null;
        if (TEXT_ROLES.contains(role) || editable) {
            Pointer text = Atspi.atspi_accessible_get_text_iface(obj);
            if (text != null) {
                try {
                    guard(pid, "get_text_iface", t0);
                    hasValue = true;
                    if (!password) value = readTextIface(text, pid, VALUE_CAP);
                } finally {
                    Gobject.g_object_unref(text);
                }
            }
        }
        if (!hasValue && VALUE_ROLES.contains(role)) {
            Pointer v = Atspi.atspi_accessible_get_value_iface(obj);
            if (v != null) {
                try {
                    long t1 = System.nanoTime();
                    double d = Atspi.atspi_value_get_current_value(v, err());
                    checkError(pid, "get_current_value", t1);
                    hasValue = true;
                    value = formatNumber(d);
                } finally {
                    Gobject.g_object_unref(v);
                }
            }
        }
        if (password) value = null;
        guard(pid, "reading one element", t0);
        String uid = uidByPeer.get(Pointer.nativeValue(obj));
        if (uid == null) {
            uid = mint.mint(byUid::containsKey);
            byUid.put(uid, new Bound(obj, pid, role, name));
            uidByPeer.put(Pointer.nativeValue(obj), uid);
        } else {
            Bound old = byUid.get(uid);
            if (!old.role().equals(role) || !old.name().equals(name)) byUid.put(uid, new Bound(old.obj(), pid, role, name));
        }
        return new Node(uid, depth, role, name, hasValue, value, enabled, focused, editable, showing, bounds, singleLine,
                isDefault);
    }

    /** One blocking GetExtents through the element's Component interface {@code comp}. */
    private Geometry extents(Pointer comp, int pid, Geometry origin) {
        long t0 = System.nanoTime();
        Pointer rect = Atspi.atspi_component_get_extents(comp, AtspiNative.COORD_SCREEN, err());
        stats[0]++;
        stats[1] += System.nanoTime() - t0;
        checkError(pid, "get_extents", t0);
        if (rect == null) {
            droppedErrors++; // a live app answers extents for every component; a dying one may not
            return null;
        }
        Geometry g = screenBounds(rect.getInt(0), rect.getInt(4), rect.getInt(8), rect.getInt(12), origin);
        Glib.g_free(rect);
        return g;
    }

    /** Extents as reported, shifted by {@code origin} (GTK 4); null for Swing's -1s or an empty rectangle. */
    private static Geometry screenBounds(int x, int y, int w, int h, Geometry origin) {
        if (w < 0 || h < 0 || (w == 0 && h == 0 && x <= 0 && y <= 0)) return null;
        return origin == null ? new Geometry(x, y, w, h) : new Geometry(x + origin.x(), y + origin.y(), w, h);
    }

    /**
     * Reads the bounds of the showing nodes (whose elements are {@code elements}, in node order) and
     * puts them into {@code nodes}: elements with a Component interface through one pipelined burst
     * of GetExtents ({@link PipelinedExtents}), any element whose route cannot be read one call at a
     * time.
     *
     * @throws HungException when the app does not answer within the call timeout
     */
    private void fillBounds(List<Node> nodes, List<Pointer> elements, int pid, Geometry origin) {
        if (elements.isEmpty()) return;
        List<Integer> indices = new ArrayList<>(elements.size());
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).showing()) indices.add(i);
        }
        if (indices.size() != elements.size()) throw new IllegalStateException("showing nodes and elements differ");
        List<PipelinedExtents.Route> routes = new ArrayList<>();
        List<Integer> routed = new ArrayList<>();
        for (int k = 0; k < elements.size(); k++) {
            Pointer obj = elements.get(k);
            long t0 = System.nanoTime();
            Pointer comp = Atspi.atspi_accessible_get_component_iface(obj);
            guard(pid, "get_component_iface", t0);
            if (comp == null) continue;
            try {
                PipelinedExtents.Route route = pipelinedExtents ? PipelinedExtents.route(obj) : null;
                if (route != null) {
                    routes.add(route);
                    routed.add(k);
                } else {
                    int i = indices.get(k);
                    nodes.set(i, withBounds(nodes.get(i), extents(comp, pid, origin)));
                }
            } finally {
                Gobject.g_object_unref(comp);
            }
        }
        if (routes.isEmpty()) return;
        long t0 = System.nanoTime();
        List<PipelinedExtents.Answer> answers = pipeline.fetch(routes, AtspiNative.COORD_SCREEN, CALL_TIMEOUT_MILLIS);
        stats[0] += routes.size();
        stats[1] += System.nanoTime() - t0;
        boolean timedOut = false;
        for (int j = 0; j < answers.size(); j++) {
            PipelinedExtents.Answer a = answers.get(j);
            int i = indices.get(routed.get(j));
            if (a instanceof PipelinedExtents.Answer.Rect) {
                PipelinedExtents.Answer.Rect r = (PipelinedExtents.Answer.Rect) a;
                nodes.set(i, withBounds(nodes.get(i), screenBounds(r.x(), r.y(), r.width(), r.height(), origin)));
            } else if (a instanceof PipelinedExtents.Answer.TimedOut) {
                timedOut = true;
            } else if (a instanceof PipelinedExtents.Answer.Failed) {
                droppedErrors++;
            } else {
                throw new AssertionError(a);
            }
        }
        if (timedOut) throw new HungException("GetExtents of pid " + pid + " got no reply within " + CALL_TIMEOUT_MILLIS + " ms");
    }

    private static Node withBounds(Node n, Geometry bounds) {
        return new Node(n.uid(), n.depth(), n.role(), n.name(), n.hasValue(), n.value(), n.enabled(), n.focused(),
                n.editable(), n.showing(), bounds, n.singleLine(), n.isDefault());
    }

    private String readTextIface(Pointer text, int pid, int cap) {
        long t0 = System.nanoTime();
        int count = Atspi.atspi_text_get_character_count(text, err());
        checkError(pid, "get_character_count", t0);
        stats[2]++;
        if (count <= 0) {
            stats[3] += System.nanoTime() - t0;
            return "";
        }
        String s = takeString(Atspi.atspi_text_get_text(text, 0, Math.min(count, cap), err()));
        stats[3] += System.nanoTime() - t0;
        checkError(pid, "get_text", t0);
        return s == null ? "" : s;
    }

    /**
     * The only top-level accessible of app {@code pid} named {@code title}, referenced. Names come
     * from libatspi's cache; when none matches, they are read once more from the app itself, since
     * some toolkits (Qt 5) do not announce a changed window title, e.g. the {@code *} of an unsaved
     * document, and the cached name stays the old one.
     */
    private Pointer findFrame(int pid, String title) {
        List<Pointer> apps = appsOf(pid);
        if (apps.isEmpty()) {
            throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "no accessible application has pid " + pid
                    + " (not registered on the accessibility bus, exited, or in another PID namespace)");
        }
        try {
            Pointer frame = findFrame(apps, pid, title, false);
            return frame != null ? frame : findFrame(apps, pid, title, true);
        } finally {
            apps.forEach(Gobject::g_object_unref);
        }
    }

    /** One pass of {@link #findFrame(int, String)}: null when no name matched, a refusal when several did. */
    private Pointer findFrame(List<Pointer> apps, int pid, String title, boolean fresh) {
        List<Pointer> matches = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        long t0 = System.nanoTime();
        for (Pointer app : apps) {
            int n = Atspi.atspi_accessible_get_child_count(app, err());
            dropError();
            for (int i = 0; i < n; i++) {
                Pointer top = Atspi.atspi_accessible_get_child_at_index(app, i, err());
                dropError();
                if (top == null) continue;
                if (fresh) Atspi.atspi_accessible_clear_cache(top);
                String name = takeString(Atspi.atspi_accessible_get_name(top, err()));
                dropError();
                seen.add(name == null ? "" : name);
                if (title.equals(name)) {
                    matches.add(top);
                } else {
                    Gobject.g_object_unref(top);
                }
                if (System.nanoTime() - t0 > HUNG_NANOS) {
                    // The app's window list is not cached and it does not answer.
                    hungPids.add(pid);
                    matches.forEach(Gobject::g_object_unref);
                    throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "app pid " + pid
                            + " is not responding to accessibility calls (hung or stopped: listing its windows)");
                }
            }
        }
        if (matches.size() == 1) return matches.get(0);
        matches.forEach(Gobject::g_object_unref);
        if (matches.isEmpty() && !fresh) return null;
        if (matches.isEmpty()) {
            throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "app pid " + pid + " exposes no window titled '"
                    + title + "' (its windows: " + seen + ")");
        }
        throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, matches.size() + " windows of pid " + pid
                + " are titled '" + title + "'; refusing to guess which one is granted");
    }

    /** Applications on the desktop whose process id is {@code pid}, referenced, cache mask set. */
    private List<Pointer> appsOf(int pid) {
        List<Pointer> out = new ArrayList<>();
        forEachApp(app -> {
            int p = Atspi.atspi_accessible_get_process_id(app, err());
            boolean error = takeError() != null;
            if (!error && p == pid) {
                out.add(Gobject.g_object_ref(app));
            }
            return false;
        });
        return out;
    }

    /** Visits the desktop's applications (cache mask set on each) until {@code visit} returns true. */
    private void forEachApp(Function<Pointer, Boolean> visit) {
        Pointer desktop = Atspi.atspi_get_desktop(0);
        if (desktop == null) throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "the AT-SPI registry has no desktop");
        try {
            int n = Atspi.atspi_accessible_get_child_count(desktop, err());
            String e = takeError();
            if (e != null) throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "the AT-SPI registry does not answer: " + e);
            for (int i = 0; i < n; i++) {
                Pointer app = Atspi.atspi_accessible_get_child_at_index(desktop, i, err());
                dropError();
                if (app == null) continue;
                try {
                    Atspi.atspi_accessible_set_cache_mask(app, AtspiNative.CACHE_MASK);
                    if (visit.apply(app)) return;
                } finally {
                    Gobject.g_object_unref(app);
                }
            }
        } finally {
            Gobject.g_object_unref(desktop);
        }
    }

    private boolean isGtk4(Pointer app) {
        String tk = takeString(Atspi.atspi_accessible_get_toolkit_name(app, err()));
        dropError();
        if (tk == null || !tk.toLowerCase(Locale.ROOT).startsWith("gtk")) return false;
        String version = takeString(Atspi.atspi_accessible_get_toolkit_version(app, err()));
        dropError();
        return version != null && version.startsWith("4.");
    }

    /** An app flagged hung gets one short call; still silent → refusal, answering → flag cleared. */
    private void probe(int pid, Pointer frame) {
        Pointer comp = Atspi.atspi_accessible_get_component_iface(frame);
        AtspiThread.setCallTimeout(PROBE_TIMEOUT_MILLIS);
        try {
            Pointer rect = comp == null ? null : Atspi.atspi_component_get_extents(comp, AtspiNative.COORD_SCREEN, err());
            String e = takeError();
            if (rect != null) Glib.g_free(rect);
            if (comp == null || e != null || rect == null) {
                throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "app pid " + pid + " is not responding to"
                        + " accessibility calls (hung or stopped)");
            }
            hungPids.remove(pid);
        } finally {
            AtspiThread.setCallTimeout(CALL_TIMEOUT_MILLIS);
            if (comp != null) Gobject.g_object_unref(comp);
        }
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
        act("click", uid, b -> {
            Pointer action = Atspi.atspi_accessible_get_action_iface(b.obj());
            if (action == null) throw unsupported(b, "offers no Action interface to click");
            try {
                long t0 = System.nanoTime();
                int n = Atspi.atspi_action_get_n_actions(action, err());
                checkActError(b, "get_n_actions", t0);
                List<String> names = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String an = takeString(Atspi.atspi_action_get_action_name(action, i, err()));
                    checkActError(b, "get_action_name", t0);
                    names.add(an == null ? "" : an);
                }
                int index = -1;
                for (String wanted : CLICK_ACTIONS) {
                    for (int i = 0; i < names.size() && index < 0; i++) {
                        if (names.get(i).equalsIgnoreCase(wanted)) index = i;
                    }
                    if (index >= 0) break;
                }
                if (index < 0) throw unsupported(b, "offers no click action (its actions: " + names + ")");
                int ok = Atspi.atspi_action_do_action(action, index, err());
                checkActError(b, "do_action(" + names.get(index) + ")", t0);
                if (ok == 0) throw refusedBy(b, "do_action(" + names.get(index) + ")");
            } finally {
                Gobject.g_object_unref(action);
            }
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
        byte[] utf8 = nulTerminated(text);
        act("set_text", uid, b -> {
            Pointer et = Atspi.atspi_accessible_get_editable_text_iface(b.obj());
            if (et == null) throw unsupported(b, "offers no EditableText interface");
            try {
                long t0 = System.nanoTime();
                int ok = Atspi.atspi_editable_text_set_text_contents(et, utf8, err());
                checkActError(b, "set_text_contents", t0);
                if (ok == 0) throw refusedBy(b, "set_text_contents");
            } finally {
                Gobject.g_object_unref(et);
            }
            return null;
        });
    }

    /**
     * Gives the element keyboard focus (Component {@code grab_focus}). On GTK 3 this also raises and
     * activates its window; GTK 4.8 refuses it.
     */
    public void focus(String uid) {
        act("focus", uid, b -> {
            Pointer comp = Atspi.atspi_accessible_get_component_iface(b.obj());
            if (comp == null) throw unsupported(b, "offers no Component interface to focus");
            try {
                long t0 = System.nanoTime();
                int ok = Atspi.atspi_component_grab_focus(comp, err());
                checkActError(b, "grab_focus", t0);
                if (ok == 0) throw unsupported(b, "refused grab_focus (GTK 4 does)");
            } finally {
                Gobject.g_object_unref(comp);
            }
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
        act("select", uid, b -> {
            Pointer sel = Atspi.atspi_accessible_get_selection_iface(b.obj());
            if (sel == null) throw unsupported(b, "offers no Selection interface");
            try {
                int index = optionIndex(b.obj(), option, b);
                if (index < 0) {
                    Pointer only = singleContainerChild(b.obj());
                    if (only != null) {
                        try {
                            index = optionIndex(only, option, b);
                        } finally {
                            Gobject.g_object_unref(only);
                        }
                    }
                }
                if (index < 0) {
                    throw new RefusedException(RefusalCode.OUT_OF_SCOPE,
                            describe(b) + " has no option named '" + option + "'");
                }
                long t0 = System.nanoTime();
                int ok = Atspi.atspi_selection_select_child(sel, index, err());
                checkActError(b, "select_child", t0);
                if (ok == 0) throw refusedBy(b, "select_child(" + index + ")");
            } finally {
                Gobject.g_object_unref(sel);
            }
            return null;
        });
    }

    private int optionIndex(Pointer parent, String option, Bound b) {
        int n = Atspi.atspi_accessible_get_child_count(parent, err());
        dropError();
        int found = -1;
        for (int i = 0; i < n; i++) {
            Pointer c = Atspi.atspi_accessible_get_child_at_index(parent, i, err());
            dropError();
            if (c == null) continue;
            String name = takeString(Atspi.atspi_accessible_get_name(c, err()));
            dropError();
            Gobject.g_object_unref(c);
            if (option.equals(name)) {
                if (found >= 0) {
                    throw new RefusedException(RefusalCode.OUT_OF_SCOPE,
                            describe(b) + " has several options named '" + option + "'; refusing to guess");
                }
                found = i;
            }
        }
        return found;
    }

    private Pointer singleContainerChild(Pointer parent) {
        int n = Atspi.atspi_accessible_get_child_count(parent, err());
        dropError();
        if (n != 1) return null;
        Pointer c = Atspi.atspi_accessible_get_child_at_index(parent, 0, err());
        dropError();
        if (c == null) return null;
        String role = roleName(Atspi.atspi_accessible_get_role(c, err()));
        dropError();
        if (role.equals("menu") || role.equals("list") || role.equals("list box") || role.equals("tree")) return c;
        Gobject.g_object_unref(c);
        return null;
    }

    /**
     * Scrolls the element {@code amount} steps in {@code direction} by moving the value of its
     * scroll bar (the element itself, or the first matching scroll bar among its descendants).
     *
     * @param direction up, down, left or right
     * @param amount 1..100 steps of the scroll bar's minimum increment
     * @throws RefusedException {@code PLATFORM_UNSUPPORTED} when no scroll bar with a Value
     *     interface is found
     */
    public void scroll(String uid, String direction, int amount) {
        if (!Set.of("up", "down", "left", "right").contains(direction)) {
            throw new IllegalArgumentException("direction must be up, down, left or right for scroll, was " + direction);
        }
        if (amount < 1 || amount > 100) throw new IllegalArgumentException("amount must be 1..100 for scroll, was " + amount);
        boolean vertical = direction.equals("up") || direction.equals("down");
        int sign = direction.equals("up") || direction.equals("left") ? -1 : 1;
        act("scroll", uid, b -> {
            Pointer bar = findScrollBar(b.obj(), vertical);
            if (bar == null) {
                throw unsupported(b, "has no " + (vertical ? "vertical" : "horizontal")
                        + " scroll bar with a Value interface");
            }
            try {
                Pointer v = Atspi.atspi_accessible_get_value_iface(bar);
                try {
                    long t0 = System.nanoTime();
                    double cur = Atspi.atspi_value_get_current_value(v, err());
                    double min = Atspi.atspi_value_get_minimum_value(v, err());
                    double max = Atspi.atspi_value_get_maximum_value(v, err());
                    double inc = Atspi.atspi_value_get_minimum_increment(v, err());
                    checkActError(b, "scroll bar value", t0);
                    double step = inc > 0 ? inc : Math.max(1, (max - min) / 20);
                    double target = Math.max(min, Math.min(max, cur + sign * amount * step));
                    int ok = Atspi.atspi_value_set_current_value(v, target, err());
                    checkActError(b, "set_current_value", t0);
                    if (ok == 0) throw refusedBy(b, "set_current_value on its scroll bar");
                } finally {
                    Gobject.g_object_unref(v);
                }
            } finally {
                Gobject.g_object_unref(bar);
            }
            return null;
        });
    }

    /** Breadth-first (at most 300 nodes) search for a scroll bar of that orientation with a Value iface. */
    private Pointer findScrollBar(Pointer start, boolean vertical) {
        Deque<Pointer> queue = new ArrayDeque<>();
        queue.add(Gobject.g_object_ref(start));
        int visited = 0;
        Pointer found = null;
        try {
            while (!queue.isEmpty() && found == null && visited++ < 300) {
                Pointer p = queue.poll();
                String role = roleName(Atspi.atspi_accessible_get_role(p, err()));
                dropError();
                if (role.equals("scroll bar") && orientationMatches(p, vertical)) {
                    Pointer v = Atspi.atspi_accessible_get_value_iface(p);
                    if (v != null) {
                        Gobject.g_object_unref(v);
                        found = p;
                        continue;
                    }
                }
                int n = Atspi.atspi_accessible_get_child_count(p, err());
                dropError();
                for (int i = 0; i < n; i++) {
                    Pointer c = Atspi.atspi_accessible_get_child_at_index(p, i, err());
                    dropError();
                    if (c != null) queue.add(c);
                }
                Gobject.g_object_unref(p);
            }
        } finally {
            queue.forEach(Gobject::g_object_unref);
        }
        return found;
    }

    private boolean orientationMatches(Pointer p, boolean vertical) {
        Pointer states = Atspi.atspi_accessible_get_state_set(p);
        if (states == null) return true;
        try {
            boolean v = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_VERTICAL) != 0;
            boolean h = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_HORIZONTAL) != 0;
            if (!v && !h) return true;
            return vertical ? v : h;
        } finally {
            Gobject.g_object_unref(states);
        }
    }

    /**
     * The uid of the deepest element of the latest snapshot (of the current revision) whose bounds
     * contain the screen point; among equally deep ones the last in document order. Empty when no
     * element contains it. Uses no native call: the basis check of {@code click_at} happens before.
     */
    public Optional<String> hit(int screenX, int screenY) {
        return hit(lastNodes, screenX, screenY);
    }

    static Optional<String> hit(List<Node> nodes, int x, int y) {
        Node best = null;
        for (Node n : nodes) {
            if (n.bounds() == null || !n.showing() || !n.bounds().contains(x, y)) continue;
            if (best == null || n.depth() >= best.depth()) best = n;
        }
        return Optional.ofNullable(best).map(Node::uid);
    }

    /**
     * The element's current text (Text interface), or its value (Value interface) as text; empty
     * for an element with neither, and always empty for a password text element.
     */
    public Optional<String> readText(String uid) {
        return act("read_text", uid, b -> {
            if (b.role().equals("password text")) return Optional.<String>empty();
            Pointer text = Atspi.atspi_accessible_get_text_iface(b.obj());
            if (text != null) {
                try {
                    return Optional.of(readTextIface(text, b.pid(), READ_CAP));
                } catch (HungException e) {
                    hungPids.add(b.pid());
                    throw hungRefusal(b);
                } finally {
                    Gobject.g_object_unref(text);
                }
            }
            Pointer v = Atspi.atspi_accessible_get_value_iface(b.obj());
            if (v != null) {
                try {
                    long t0 = System.nanoTime();
                    double d = Atspi.atspi_value_get_current_value(v, err());
                    checkActError(b, "get_current_value", t0);
                    return Optional.of(formatNumber(d));
                } finally {
                    Gobject.g_object_unref(v);
                }
            }
            return Optional.<String>empty();
        });
    }

    private <T> T act(String what, String uid, Function<Bound, T> body) {
        if (uid == null) throw new IllegalArgumentException("uid is required for " + what);
        return thread.call(what + " " + uid, CALL_BOUND, () -> {
            ensureOpen();
            thread.pump();
            Bound b = byUid.get(uid);
            if (b == null) {
                throw new RefusedException(RefusalCode.OUT_OF_SCOPE, "uid " + uid + " is not from revision "
                        + (revision == Long.MIN_VALUE ? "(none yet)" : String.valueOf(revision)));
            }
            if (hungPids.contains(b.pid())) throw hungRefusal(b);
            if (!ProcessHandle.of(b.pid()).map(ProcessHandle::isAlive).orElse(false)) {
                throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "app pid " + b.pid() + " has exited");
            }
            if (hasState(b.obj(), AtspiNative.STATE_DEFUNCT)) {
                throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, describe(b) + " no longer exists");
            }
            return body.apply(b);
        });
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
        return thread.call("password focus check", CALL_BOUND, () -> {
            ensureOpen();
            thread.pump();
            if (focusSource != null && isFocusedPassword(focusSource)) return true;
            long deadline = System.nanoTime() + WALK_BUDGET.toNanos();
            List<Pointer> tops = activeTopLevels();
            try {
                for (Pointer top : tops) {
                    Pointer f = findFocused(top, deadline, p -> {
                        String role = roleName(Atspi.atspi_accessible_get_role(p, err()));
                        dropError();
                        return role.equals("password text");
                    });
                    if (f != null) {
                        Gobject.g_object_unref(f);
                        return true;
                    }
                }
            } finally {
                tops.forEach(Gobject::g_object_unref);
            }
            return false;
        });
    }

    /**
     * The element holding the accessibility focus now (role, name, process, screen bounds): the one that
     * last announced focus if it still holds it, else the focused element found in the active top-level
     * windows; empty when none is (or the toolkit reports no focus).
     */
    public Optional<dev.deckhand.loop.desktop.DesktopFacts.FocusedElement> focusedElement() {
        return thread.call("focused element", CALL_BOUND, () -> {
            ensureOpen();
            thread.pump();
            if (focusSource != null && hasState(focusSource, AtspiNative.STATE_FOCUSED)) return describeFocused(focusSource);
            long deadline = System.nanoTime() + WALK_BUDGET.toNanos();
            List<Pointer> tops = activeTopLevels();
            try {
                for (Pointer top : tops) {
                    Pointer f = findFocused(top, deadline, p -> true);
                    if (f != null) {
                        try {
                            return describeFocused(f);
                        } finally {
                            Gobject.g_object_unref(f);
                        }
                    }
                }
            } finally {
                tops.forEach(Gobject::g_object_unref);
            }
            return Optional.empty();
        });
    }

    private Optional<dev.deckhand.loop.desktop.DesktopFacts.FocusedElement> describeFocused(Pointer f) {
        {
            String role = roleName(Atspi.atspi_accessible_get_role(f, err()));
            if (takeError() != null) return Optional.empty();
            String name = takeString(Atspi.atspi_accessible_get_name(f, err()));
            dropError();
            int pid = Atspi.atspi_accessible_get_process_id(f, err());
            dropError();
            Geometry bounds = null;
            Pointer comp = Atspi.atspi_accessible_get_component_iface(f);
            if (comp != null) {
                try {
                    Pointer r = Atspi.atspi_component_get_extents(comp, AtspiNative.COORD_SCREEN, err());
                    if (takeError() == null && r != null) {
                        bounds = new Geometry(r.getInt(0), r.getInt(4), Math.max(0, r.getInt(8)), Math.max(0, r.getInt(12)));
                        Glib.g_free(r);
                    }
                } finally {
                    Gobject.g_object_unref(comp);
                }
            }
            return Optional.of(new dev.deckhand.loop.desktop.DesktopFacts.FocusedElement(pid, role,
                    name == null ? "" : name, bounds));
        }
    }

    private boolean isFocusedPassword(Pointer obj) {
        String role = roleName(Atspi.atspi_accessible_get_role(obj, err()));
        if (takeError() != null || !role.equals("password text")) return false;
        Pointer states = Atspi.atspi_accessible_get_state_set(obj);
        if (states == null) return false;
        try {
            return Atspi.atspi_state_set_contains(states, AtspiNative.STATE_FOCUSED) != 0;
        } finally {
            Gobject.g_object_unref(states);
        }
    }

    /** Top-level windows with the active state (all showing ones when none is active), referenced. */
    private List<Pointer> activeTopLevels() {
        List<Pointer> active = new ArrayList<>();
        List<Pointer> showing = new ArrayList<>();
        forEachApp(app -> {
            if (hungPids.contains(pidOf(app))) return false;
            int n = Atspi.atspi_accessible_get_child_count(app, err());
            dropError();
            for (int i = 0; i < n; i++) {
                Pointer top = Atspi.atspi_accessible_get_child_at_index(app, i, err());
                dropError();
                if (top == null) continue;
                Pointer states = Atspi.atspi_accessible_get_state_set(top);
                boolean isActive = false;
                boolean isShowing = false;
                if (states != null) {
                    isActive = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_ACTIVE) != 0;
                    isShowing = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_SHOWING) != 0;
                    Gobject.g_object_unref(states);
                }
                if (isActive) {
                    active.add(top);
                } else if (isShowing) {
                    showing.add(top);
                } else {
                    Gobject.g_object_unref(top);
                }
            }
            return false;
        });
        if (!active.isEmpty()) {
            showing.forEach(Gobject::g_object_unref);
            return active;
        }
        return showing;
    }

    private int pidOf(Pointer app) {
        int p = Atspi.atspi_accessible_get_process_id(app, err());
        return takeError() == null ? p : -1;
    }

    /**
     * The first focused element below {@code top} that {@code wanted} accepts (referenced; the caller
     * unrefs), or null when there is none. Subtrees known not to show are pruned (GTK 4 sets neither
     * showing nor enabled, so it is never pruned).
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE} when the walk cannot finish in time (the caller
     *     must then assume the worst)
     */
    private Pointer findFocused(Pointer top, long deadline, java.util.function.Predicate<Pointer> wanted) {
        Deque<Pointer> stack = new ArrayDeque<>();
        pushChildren(stack, top);
        int visited = 0;
        try {
            while (!stack.isEmpty()) {
                if (visited++ > NODE_CAP * 2 || System.nanoTime() > deadline) {
                    throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE,
                            "could not read keyboard focus within " + WALK_BUDGET.toMillis() + " ms");
                }
                Pointer p = stack.pop();
                boolean keep = false;
                try {
                    Pointer states = Atspi.atspi_accessible_get_state_set(p);
                    boolean focused = false;
                    boolean showing = true;
                    if (states != null) {
                        focused = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_FOCUSED) != 0;
                        showing = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_SHOWING) != 0
                                || Atspi.atspi_state_set_contains(states, AtspiNative.STATE_ENABLED) == 0;
                        Gobject.g_object_unref(states);
                    }
                    if (focused && wanted.test(p)) {
                        keep = true;
                        return p;
                    }
                    if (showing) pushChildren(stack, p);
                } finally {
                    if (!keep) Gobject.g_object_unref(p);
                }
            }
        } finally {
            stack.forEach(Gobject::g_object_unref);
        }
        return null;
    }

    /** Names of the applications registered on the accessibility bus, lower case, without blanks. */
    public Set<String> applicationNames() {
        return thread.call("application names", CALL_BOUND, () -> {
            ensureOpen();
            thread.pump();
            Set<String> names = new LinkedHashSet<>();
            forEachApp(app -> {
                String name = takeString(Atspi.atspi_accessible_get_name(app, err()));
                dropError();
                if (name != null && !name.isBlank()) names.add(name.toLowerCase(Locale.ROOT));
                return false;
            });
            return Set.copyOf(names);
        });
    }

    /**
     * Names of the top-level accessibles (frames, dialogs) of the application with process id
     * {@code pid}, in order; empty when no such application is registered.
     */
    public List<String> windowTitles(int pid) {
        return thread.call("window titles of pid " + pid, CALL_BOUND, () -> {
            ensureOpen();
            thread.pump();
            List<String> titles = new ArrayList<>();
            List<Pointer> apps = appsOf(pid);
            try {
                for (Pointer app : apps) {
                    int n = Atspi.atspi_accessible_get_child_count(app, err());
                    dropError();
                    for (int i = 0; i < n; i++) {
                        Pointer top = Atspi.atspi_accessible_get_child_at_index(app, i, err());
                        dropError();
                        if (top == null) continue;
                        String name = takeString(Atspi.atspi_accessible_get_name(top, err()));
                        dropError();
                        Gobject.g_object_unref(top);
                        titles.add(name == null ? "" : name);
                    }
                }
            } finally {
                apps.forEach(Gobject::g_object_unref);
            }
            return List.copyOf(titles);
        });
    }

    /**
     * Whether the accessible application of process {@code pid} is GTK 4, which ignores synthetic
     * (XSendEvent) key events; false when the process exposes no application.
     */
    public boolean isGtk4Process(int pid) {
        return thread.call("toolkit of pid " + pid, CALL_BOUND, () -> {
            ensureOpen();
            // Known from a snapshot of this process (the same cache the walk uses): no bus round trips
            // on every key sent to the window.
            Boolean known = gtk4ByPid.get(pid);
            if (known != null) return known;
            List<Pointer> apps = appsOf(pid);
            if (apps.isEmpty()) return false;
            try {
                boolean gtk4 = false;
                for (Pointer app : apps) {
                    if (isGtk4(app)) gtk4 = true;
                }
                gtk4ByPid.put(pid, gtk4);
                return gtk4;
            } finally {
                apps.forEach(Gobject::g_object_unref);
            }
        });
    }

    /**
     * Best effort: the host of the document shown in the active window's focused (else first
     * showing) web document, read from the Document interface attributes {@code DocURL} (Firefox)
     * or {@code URI}/{@code URL}; empty when unknown. An empty result is not evidence that no
     * browser shows a denied host.
     */
    public Optional<String> focusedBrowserHost() {
        return thread.call("browser host", CALL_BOUND, () -> {
            ensureOpen();
            thread.pump();
            long deadline = System.nanoTime() + WALK_BUDGET.toNanos();
            List<Pointer> tops = activeTopLevels();
            try {
                for (Pointer top : tops) {
                    Optional<String> host = documentHost(top, deadline);
                    if (host.isEmpty() && isBrowser(top)) {
                        // Browsers replace their document subtree without always telling the
                        // cache; read a browser window afresh once.
                        Atspi.atspi_accessible_clear_cache(top);
                        host = documentHost(top, deadline);
                    }
                    if (host.isPresent()) return host;
                }
            } finally {
                tops.forEach(Gobject::g_object_unref);
            }
            return Optional.<String>empty();
        });
    }

    private static final List<String> BROWSER_NAMES = List.of("chromium", "chrome", "firefox", "brave", "edge",
            "opera", "vivaldi", "epiphany", "web", "browser");

    private boolean isBrowser(Pointer top) {
        Pointer app = Atspi.atspi_accessible_get_application(top, err());
        dropError();
        if (app == null) return false;
        try {
            String name = takeString(Atspi.atspi_accessible_get_name(app, err()));
            dropError();
            if (name == null) return false;
            String lower = name.toLowerCase(Locale.ROOT);
            return BROWSER_NAMES.stream().anyMatch(lower::contains);
        } finally {
            Gobject.g_object_unref(app);
        }
    }

    private Optional<String> documentHost(Pointer top, long deadline) {
        Deque<Pointer> stack = new ArrayDeque<>();
        stack.push(Gobject.g_object_ref(top));
        String firstUrl = null;
        int visited = 0;
        try {
            while (!stack.isEmpty() && visited++ < NODE_CAP * 2 && System.nanoTime() < deadline) {
                Pointer p = stack.pop();
                try {
                    String role = roleName(Atspi.atspi_accessible_get_role(p, err()));
                    dropError();
                    if (role.equals("document web") || role.equals("document frame")) {
                        String url = documentUrl(p);
                        if (url != null) {
                            if (hasState(p, AtspiNative.STATE_FOCUSED)) return hostOf(url);
                            if (firstUrl == null) firstUrl = url;
                        }
                        continue; // documents nested in a document (iframes) are not the tab
                    }
                    if (!hasState(p, AtspiNative.STATE_SHOWING)) continue;
                    pushChildren(stack, p);
                } finally {
                    Gobject.g_object_unref(p);
                }
            }
        } finally {
            stack.forEach(Gobject::g_object_unref);
        }
        return firstUrl == null ? Optional.empty() : hostOf(firstUrl);
    }

    /** Pushes {@code p}'s children (new references) so that they pop in document order. */
    private void pushChildren(Deque<Pointer> stack, Pointer p) {
        int n = Atspi.atspi_accessible_get_child_count(p, err());
        dropError();
        for (int i = n - 1; i >= 0; i--) {
            Pointer c = Atspi.atspi_accessible_get_child_at_index(p, i, err());
            dropError();
            if (c != null) stack.push(c);
        }
    }

    private String documentUrl(Pointer p) {
        Pointer doc = Atspi.atspi_accessible_get_document_iface(p);
        if (doc == null) return null;
        try {
            for (String attr : List.of("DocURL", "URI", "URL")) {
                String v = takeString(Atspi.atspi_document_get_document_attribute_value(doc, nulTerminated(attr), err()));
                if (takeError() != null) return null;
                if (v != null && !v.isBlank()) return v;
            }
            return null;
        } finally {
            Gobject.g_object_unref(doc);
        }
    }

    static Optional<String> hostOf(String url) {
        try {
            String host = URI.create(url.trim()).getHost();
            return host == null || host.isBlank() ? Optional.empty() : Optional.of(host.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private boolean hasState(Pointer p, int state) {
        Pointer states = Atspi.atspi_accessible_get_state_set(p);
        if (states == null) return false;
        try {
            return Atspi.atspi_state_set_contains(states, state) != 0;
        } finally {
            Gobject.g_object_unref(states);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Settling, events, lifecycle

    /**
     * Returns once no accessibility event (children, property, state, text, value changes of any
     * app) arrived for {@link #QUIET}, or when {@code max} has elapsed, whichever is first.
     */
    public void settle(Duration max) {
        if (max == null || max.isNegative()) throw new IllegalArgumentException("max must be >= 0 for settle");
        thread.call("settle", max.plus(CALL_BOUND), () -> {
            ensureOpen();
            long start = System.nanoTime();
            long deadline = start + max.toNanos();
            long quiet = QUIET.toNanos();
            while (true) {
                thread.pump();
                long now = System.nanoTime();
                long last = Math.max(lastEventNanos, start);
                if (now - last >= quiet || now >= deadline) return null;
                Thread.sleep(5);
            }
        });
    }

    /** Where the latest snapshot walk spent its time; for the bench. */
    String lastWalkStats() {
        return lastWalkStats;
    }

    /** Nanos (System.nanoTime) of the latest accessibility event seen; for diagnostics and benches. */
    long lastEventNanos() {
        return lastEventNanos;
    }

    private void registerListener() {
        callback = this::onEvent;
        listener = Atspi.atspi_event_listener_new(callback, null, null);
        if (listener == null) throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "atspi_event_listener_new failed");
        for (String type : EVENTS) {
            Atspi.atspi_event_listener_register(listener, nulTerminated(type), err());
            dropError();
        }
    }

    private void onEvent(Pointer event, Pointer userData) {
        try {
            lastEventNanos = System.nanoTime();
            if (event == null) return;
            Pointer type = event.getPointer(0);
            if (type != null && event.getInt(2L * Native.POINTER_SIZE) == 1
                    && type.getString(0, "UTF-8").startsWith("object:state-changed:focused")) {
                Pointer source = event.getPointer(Native.POINTER_SIZE);
                if (source != null) {
                    Gobject.g_object_ref(source);
                    if (focusSource != null) Gobject.g_object_unref(focusSource);
                    focusSource = source;
                }
            }
        } catch (Throwable t) {
            // Never let an exception unwind into libatspi.
        } finally {
            if (event != null) Gobject.g_boxed_free(eventType, event);
        }
    }

    /**
     * Drops every uid and native reference and the event listener. Later calls refuse with
     * {@code A11Y_UNAVAILABLE}. The libatspi thread itself stays for the JVM (libatspi is process-wide).
     */
    @Override
    public void close() {
        thread.call("close", CALL_BOUND, () -> {
            if (closed) return null;
            closed = true;
            releaseUids();
            if (listener != null) {
                for (String type : EVENTS) {
                    Atspi.atspi_event_listener_deregister(listener, nulTerminated(type), err());
                    dropError();
                }
                Gobject.g_object_unref(listener);
                listener = null;
            }
            if (focusSource != null) {
                Gobject.g_object_unref(focusSource);
                focusSource = null;
            }
            if (matchAll != null) {
                Gobject.g_object_unref(matchAll);
                matchAll = null;
            }
            lastNodes = List.of();
            return null;
        });
    }

    /**
     * The GObject reference count of the element bound to {@code uid} (GObject's {@code ref_count}
     * follows its type-instance pointer); for tests that prove repeated walks hold no extra reference.
     */
    int refCount(String uid) {
        return thread.call("ref count", CALL_BOUND, () -> {
            Bound b = byUid.get(uid);
            if (b == null) throw new IllegalArgumentException("no element bound to " + uid);
            return b.obj().getInt(Native.POINTER_SIZE);
        });
    }

    /** Number of uids bound in the current revision (each holds one native reference). */
    int boundUids() {
        return thread.call("bound uids", CALL_BOUND, byUid::size);
    }

    private void releaseUids() {
        for (Bound b : byUid.values()) Gobject.g_object_unref(b.obj());
        byUid.clear();
        uidByPeer.clear();
    }

    private void ensureOpen() {
        if (closed) throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "the AT-SPI bridge is closed");
    }

    // ------------------------------------------------------------------------------------------
    // Small native helpers (libatspi thread only)

    private Pointer err() {
        errSlot.setPointer(0, null);
        return errSlot;
    }

    /** The pending GError's message (freed), or null. */
    private String takeError() {
        Pointer e = errSlot.getPointer(0);
        if (e == null) return null;
        errSlot.setPointer(0, null);
        Pointer m = e.getPointer(8);
        String message = m == null ? "unknown error" : m.getString(0, "UTF-8");
        Glib.g_error_free(e);
        return message;
    }

    private void dropError() {
        takeError();
    }

    /**
     * Throws {@link HungException} when the calls since {@code startNanos} took longer than a
     * responsive app needs: a property read that times out returns an empty value and no GError.
     */
    private static void guard(int pid, String what, long startNanos) {
        if (System.nanoTime() - startNanos > HUNG_NANOS) {
            throw new HungException(what + " of pid " + pid + " took over " + HUNG_NANOS / 1_000_000 + " ms");
        }
    }

    /**
     * Throws {@link HungException} when the last call timed out, and refuses when libatspi says the
     * app is gone (its cached roles and names stay readable, so a walk would go on reading a dead
     * window); other errors are dropped.
     */
    private void checkError(int pid, String call, long startNanos) {
        String e = takeError();
        if (e == null) return;
        if (e.contains("application no longer exists")) {
            throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "app pid " + pid + " exited (" + call + ": " + e + ")");
        }
        if (isTimeout(e, startNanos)) throw new HungException(call + " of pid " + pid + ": " + e);
        droppedErrors++;
    }

    /** As {@link #checkError} for an action: a timeout flags the app hung and refuses; another error refuses. */
    private void checkActError(Bound b, String call, long startNanos) {
        String e = takeError();
        if (e == null) return;
        if (isTimeout(e, startNanos)) {
            hungPids.add(b.pid());
            throw hungRefusal(b);
        }
        throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, call + " on " + describe(b) + " failed: " + e);
    }

    /** A single element read or call slower than this means the app is not answering (1 s timeout). */
    private static final long HUNG_NANOS = 800_000_000L;

    /**
     * Whether {@code pid} ends within {@code millis}: a killed app's calls fail as soon as its bus
     * connection closes, a few milliseconds before the kernel lists it as gone.
     */
    private static boolean exitsWithin(int pid, long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (processAlive(pid)) {
            if (System.nanoTime() > end) return false;
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Whether {@code pid} is a live process (not gone, not a zombie), read from {@code /proc}. */
    static boolean processAlive(int pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Integer.toString(pid), "stat"));
            int close = stat.lastIndexOf(')');
            char state = close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
            return state != 'Z' && state != 'X';
        } catch (java.io.IOException | RuntimeException gone) {
            return false;
        }
    }

    private static boolean isTimeout(String message, long startNanos) {
        String m = message.toLowerCase(Locale.ROOT);
        return m.contains("noreply") || m.contains("did not receive a reply") || m.contains("timeout")
                || m.contains("timed out") || System.nanoTime() - startNanos > HUNG_NANOS;
    }

    private static RefusedException hungRefusal(Bound b) {
        return new RefusedException(RefusalCode.A11Y_UNAVAILABLE,
                "app pid " + b.pid() + " is not responding to accessibility calls (hung or stopped)");
    }

    private static RefusedException unsupported(Bound b, String what) {
        return new RefusedException(RefusalCode.PLATFORM_UNSUPPORTED, describe(b) + " " + what);
    }

    private static RefusedException refusedBy(Bound b, String call) {
        return new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "the app refused " + call + " on " + describe(b));
    }

    private static String describe(Bound b) {
        return b.role() + " '" + b.name() + "'";
    }

    private String roleName(int role) {
        return roleNames.computeIfAbsent(role, r -> {
            String s = takeString(Atspi.atspi_role_get_name(r));
            return s == null ? "unknown" : s.toLowerCase(Locale.ROOT);
        });
    }

    private static String takeString(Pointer p) {
        if (p == null) return null;
        String s = p.getString(0, "UTF-8");
        Glib.g_free(p);
        return s;
    }

    static byte[] nulTerminated(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] z = new byte[b.length + 1];
        System.arraycopy(b, 0, z, 0, b.length);
        return z;
    }

    static String formatNumber(double d) {
        if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e15) return String.valueOf((long) d);
        return String.valueOf(d);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** Pointer size, named so the event-struct offsets read plainly. */
    private static final class Native {
        static final int POINTER_SIZE = com.sun.jna.Native.POINTER_SIZE;
    }
}

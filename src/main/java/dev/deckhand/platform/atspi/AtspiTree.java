package dev.deckhand.platform.atspi;

import com.sun.jna.Pointer;
import dev.deckhand.grant.ProposedAction;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.platform.atspi.AtspiNative.Atspi;
import dev.deckhand.platform.atspi.AtspiNative.Glib;
import dev.deckhand.platform.atspi.AtspiNative.Gobject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The scoped accessibility tree of one window: the window's frame found among its app's top-level
 * accessibles by title, its descendants read in document order with uids bound for the grant
 * revision ({@link RevisionUids}), and the bounds of its showing elements. The walk takes the
 * descendants from one {@code Collection.GetMatches} where the app offers it (GTK 3, ATK-bridged
 * Swing), child by child otherwise (Qt 5, GTK 4.8), and the bounds from one pipelined burst of
 * GetExtents ({@link PipelinedCalls}). A walk on an app that died meanwhile is refused, never returned
 * from libatspi's cache as a whole tree; an app that stops answering is flagged hung on the bus.
 * libatspi thread only: it lives inside the bridge's {@link Confined} state.
 */
final class AtspiTree {

    private static final Set<String> TEXT_ROLES = Set.of(
            "text",
            "entry",
            "password text",
            "spin button",
            "terminal",
            "document text",
            "editbar",
            "paragraph",
            "combo box");
    private static final Set<String> VALUE_ROLES =
            Set.of("slider", "spin button", "progress bar", "scroll bar", "level bar", "dial");

    /** AT-SPI states (AtspiStateType) a node carries by name, for verifiers; read from the cached state set. */
    static final Map<Integer, String> STATE_NAMES = Map.ofEntries(
            Map.entry(1, "active"),
            Map.entry(2, "armed"),
            Map.entry(3, "busy"),
            Map.entry(4, "checked"),
            Map.entry(5, "collapsed"),
            Map.entry(9, "expandable"),
            Map.entry(10, "expanded"),
            Map.entry(11, "focusable"),
            Map.entry(16, "modal"),
            Map.entry(17, "multi-line"),
            Map.entry(20, "pressed"),
            Map.entry(22, "selectable"),
            Map.entry(23, "selected"),
            Map.entry(24, "sensitive"),
            Map.entry(26, "single-line"),
            Map.entry(30, "visible"),
            Map.entry(31, "manages-descendants"),
            Map.entry(32, "indeterminate"),
            Map.entry(33, "required"),
            Map.entry(36, "invalid-entry"),
            Map.entry(39, "is-default"),
            Map.entry(40, "visited"),
            Map.entry(41, "checkable"),
            Map.entry(42, "has-popup"),
            Map.entry(43, "read-only"));

    private final AtspiCalls calls;
    private final AtspiBus bus;
    private final RevisionUids uids;
    private final LatestNodes latest;
    /** Whether the current walk asks its hidden elements' states afresh ({@link #droppedStaleStates}); per walk. */
    private boolean askHidden;
    /** The hidden elements the current walk read, referenced, when {@link #askHidden}. */
    private final List<Pointer> hidden = new ArrayList<>();

    private final PipelinedCalls pipeline = new PipelinedCalls();
    private final AtspiFrames frames;
    private final Children children;
    /** Apps whose Collection.GetMatches is known not to serve a walk (absent, failing, or out of order). */
    private final Set<Integer> noCollection = new HashSet<>();

    private final Descendants descendants;
    /** Tests and the bench compare both walks: false forces the child-by-child walk. */
    boolean useCollection = true;
    /** The bench measures it: true asks every walk's hidden elements afresh, as after an app changed. */
    boolean askHiddenAlways;
    /** Tests and the bench compare both: false reads each element's extents with its own call. */
    boolean pipelinedExtents = !Boolean.getBoolean("deckhand.atspi.one-extents-call-per-element");
    /** The current walk's extents calls and the nanos they took. */
    private long extentsCalls;

    private long extentsNanos;
    /** A one-line breakdown of the latest walk, for the bench. */
    private String lastWalkStats = "";

    AtspiTree(
            AtspiCalls calls,
            AtspiBus bus,
            AtspiFrames frames,
            RevisionUids uids,
            LatestNodes latest,
            Descendants descendants) {
        this.calls = calls;
        this.frames = frames;
        this.descendants = descendants;
        this.bus = bus;
        this.uids = uids;
        this.latest = latest;
        this.children = new Children(calls);
    }

    /**
     * See {@link AtspiBridge#snapshot(int, String, Geometry, long, long, boolean)}; the caller has pumped
     * the main loop.
     */
    ScopedTree snapshot(int pid, String title, Geometry geometry, long windowId, long rev, boolean includeHidden) {
        return snapshot(pid, title, null, geometry, windowId, rev, includeHidden);
    }

    /**
     * As {@link #snapshot(int, String, Geometry, long, long, boolean)}, the window found by its route
     * ({@code frameRoute}) when one is given, by its title otherwise.
     */
    ScopedTree snapshot(
            int pid,
            String title,
            BusFrame frameRoute,
            Geometry geometry,
            long windowId,
            long rev,
            boolean includeHidden) {
        if (uids.moveTo(rev)) latest.clear();
        long t0 = System.nanoTime();
        Pointer frame = frames.find(pid, title, frameRoute);
        try {
            if (bus.hung(pid)) bus.probe(pid, frame);
            AtspiBus.Toolkit toolkit = bus.toolkitOf(pid, frame);
            bus.keepChildrenLiveWhereStale(frame, toolkit);
            if (System.nanoTime() - t0 > AtspiCalls.HUNG_NANOS) {
                bus.flagHung(pid);
                throw new RefusedException(Refusal.a11yUnavailable(
                        "app pid " + pid + " is not responding to accessibility calls (hung or stopped)"));
            }
            bus.remember(pid, toolkit);
            boolean gtk4 = toolkit.gtk4();
            // Chromium replaces a page's subtree without telling libatspi's cache: a tree read while a page
            // loaded, or before a link was followed, would be read again from the cache (ChromiumFormControlsTest)
            if (toolkit.chromium()) CacheClear.clear(frame);
            // GTK 4 reports no showing state and Chromium's cache was just cleared: neither needs the hidden asked
            String app = gtk4 || toolkit.chromium() ? null : PipelinedCalls.busName(frame);
            boolean asking = app != null && (askHiddenAlways || bus.hiddenMayBeStale(app));
            askHidden = asking;
            long walkStart = System.nanoTime();
            calls.resetDropped();
            ScopedTree tree = walk(frame, pid, gtk4, gtk4 ? geometry : null, windowId, rev, includeHidden);
            if (asking) bus.askedAfresh(app, walkStart);
            // An app that died during the walk leaves libatspi's cached roles and names readable while
            // every call fails: what came back would look like a whole tree. Refuse it; when calls
            // failed, ask the app once more before believing the tree.
            if (!AtspiCalls.processAlive(pid) || (calls.dropped() > 0 && AtspiCalls.exitsWithin(pid, 100))) {
                throw new RefusedException(Refusal.a11yUnavailable("app pid " + pid + " exited during the walk"));
            }
            if (calls.dropped() > 0) {
                try {
                    bus.probe(pid, frame);
                } catch (RefusedException e) {
                    throw new RefusedException(Refusal.a11yUnavailable("app pid " + pid + " exited or stopped"
                            + " answering during the walk (" + calls.dropped() + " calls failed)"));
                }
            }
            return tree;
        } finally {
            Gobject.g_object_unref(frame);
        }
    }

    /**
     * The walk; when {@link #askHidden}, the states of the hidden elements it read are asked of the app again
     * afterwards, in one burst, and the tree is walked once more if any set libatspi held was not the app's: the
     * stale ones are dropped from the cache first, so the second walk reads them from the app.
     */
    private ScopedTree walk(
            Pointer root, int pid, boolean gtk4, Geometry origin, long windowId, long rev, boolean includeHidden) {
        try {
            ScopedTree tree = walkOnce(root, pid, gtk4, origin, windowId, rev, includeHidden);
            if (hidden.isEmpty() || !droppedStaleStates(pid)) return tree;
            askHidden = false;
            return walkOnce(root, pid, gtk4, origin, windowId, rev, includeHidden);
        } catch (AtspiCalls.HungException e) {
            bus.flagHung(pid);
            throw new RefusedException(Refusal.a11yUnavailable("app pid " + pid
                    + " is not responding to accessibility calls (hung or stopped: " + e.getMessage() + ")"));
        } finally {
            hidden.forEach(Gobject::g_object_unref);
            hidden.clear();
        }
    }

    /**
     * Asks the app for the states of the hidden elements the walk read ({@link #hidden}), in one burst, and drops
     * from libatspi's cache each element whose set there is not the one the app gives now; true when it dropped
     * any. The cache can keep a set that was true only for a moment. GTK 3 reports a widget showing once it is
     * mapped and has a place, and a set read between the two is cached with no event to follow: galculator's
     * scientific keypad, built when its View menu's item is clicked, then stayed hidden in every later walk (the
     * suite's {@code galculator-scientific-menu} failed 2 to 6 times in 20 with a 300 ms wait; docs/driver-atspi.md).
     * An element that does not answer keeps its cached set: the walk's time guards judge the app.
     */
    private boolean droppedStaleStates(int pid) {
        long t0 = System.nanoTime();
        List<PipelinedCalls.Route> routes = new ArrayList<>(hidden.size());
        List<Pointer> asked = new ArrayList<>(hidden.size());
        for (Pointer p : hidden) {
            PipelinedCalls.Route r = PipelinedCalls.route(p);
            if (r == null) continue;
            routes.add(r);
            asked.add(p);
        }
        List<Long> now = pipeline.states(routes, AtspiBridge.CALL_TIMEOUT_MILLIS);
        boolean dropped = false;
        for (int i = 0; i < asked.size(); i++) {
            Long fresh = now.get(i);
            if (fresh == null) continue;
            Pointer cached = Atspi.atspi_accessible_get_state_set(asked.get(i));
            long bits = 0;
            if (cached != null) {
                bits = stateBits(cached);
                Gobject.g_object_unref(cached);
            }
            if (bits != fresh) {
                CacheClear.clear(asked.get(i));
                dropped = true;
            }
        }
        AtspiCalls.guard(pid, "GetState of the hidden elements", t0);
        return dropped;
    }

    private ScopedTree walkOnce(
            Pointer root, int pid, boolean gtk4, Geometry origin, long windowId, long rev, boolean includeHidden) {
        long walkStart = System.nanoTime();
        long deadline = walkStart + AtspiBridge.WALK_BUDGET.toNanos();
        resetStats();
        if (useCollection && !noCollection.contains(pid)) {
            ScopedTree fast;
            try {
                fast = collectionWalk(root, pid, gtk4, origin, windowId, rev, includeHidden, walkStart, deadline);
            } catch (AtspiCalls.HungException e) {
                bus.flagHung(pid);
                throw new RefusedException(Refusal.a11yUnavailable("app pid " + pid
                        + " is not responding to accessibility calls (hung or stopped: " + e.getMessage() + ")"));
            }
            if (fast != null) return fast;
            resetStats();
            hidden.forEach(Gobject::g_object_unref); // the child-by-child walk reads them again
            hidden.clear();
        }
        List<Node> nodes = new ArrayList<>();
        List<Pointer> boundsOf =
                new ArrayList<>(); // the showing nodes' elements, in node order (the uid map holds them)
        boolean partial = false;
        Deque<Object[]> stack = new ArrayDeque<>();
        // GTK 4 (gnome-text-editor, seen under weston) may list one element under two parents while it
        // builds its widgets: each element is read once per walk (libatspi keeps one object per path).
        Set<Long> visited = new HashSet<>();
        stack.push(new Object[] {Gobject.g_object_ref(root), 0});
        try {
            while (!stack.isEmpty()) {
                if (nodes.size() >= AtspiBridge.NODE_CAP || System.nanoTime() > deadline) {
                    partial = true;
                    break;
                }
                Object[] top = stack.pop();
                Pointer obj = (Pointer) top[0];
                int depth = (Integer) top[1];
                if (!visited.add(Pointer.nativeValue(obj))) {
                    Gobject.g_object_unref(obj);
                    continue;
                }
                // An element already bound in this revision keeps the map's reference; this walk's
                // own reference to it is released below. Only a newly bound element (readNode binds it)
                // hands its reference to the map. Decided by address: JNA Pointers are distinct objects.
                boolean known = uids.isBound(obj);
                boolean kept = false;
                try {
                    Node node = readNode(obj, depth, pid, gtk4);
                    if (node == null) continue;
                    kept = !known;
                    nodes.add(node);
                    if (node.showing()) boundsOf.add(obj);
                    else if (askHidden) hidden.add(Gobject.g_object_ref(obj));
                    if (!node.showing() && !includeHidden) continue;
                    // Never more children than the snapshot can still hold; never a virtual one (Children).
                    Children.Read read = children.of(obj, pid, AtspiBridge.NODE_CAP - nodes.size(), deadline);
                    if (read.cut()) partial = true;
                    List<Pointer> kids = read.children();
                    for (int i = kids.size() - 1; i >= 0; i--) stack.push(new Object[] {kids.get(i), depth + 1});
                } finally {
                    if (!kept) Gobject.g_object_unref(obj);
                }
            }
            fillBounds(nodes, boundsOf, pid, origin);
        } catch (AtspiCalls.HungException e) {
            bus.flagHung(pid);
            partial = true;
            if (nodes.isEmpty()) {
                throw new RefusedException(Refusal.a11yUnavailable("app pid " + pid
                        + " is not responding to accessibility calls (hung or stopped: " + e.getMessage() + ")"));
            }
        } finally {
            for (Object[] rest : stack) Gobject.g_object_unref((Pointer) rest[0]);
        }
        List<Node> result = withoutFlatMenuBars(nodes);
        latest.set(result);
        lastWalkStats = String.format(
                Locale.ROOT,
                "walk %.2f ms: %d extents calls %.2f ms, %d text reads %.2f ms",
                (System.nanoTime() - walkStart) / 1e6,
                extentsCalls,
                extentsNanos / 1e6,
                calls.textReads(),
                calls.textNanos() / 1e6);
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
     * @throws AtspiCalls.HungException when the call times out
     */
    private ScopedTree collectionWalk(
            Pointer root,
            int pid,
            boolean gtk4,
            Geometry origin,
            long windowId,
            long rev,
            boolean includeHidden,
            long walkStart,
            long deadline) {
        Pointer collection = Atspi.atspi_accessible_get_collection_iface(root);
        AtspiCalls.guard(pid, "get_collection_iface", walkStart);
        if (collection == null) {
            noCollection.add(pid);
            return null;
        }
        long t0 = System.nanoTime();
        Descendants.Listed listed = descendants.of(collection);
        Pointer[] found = listed.found();
        String e = listed.error();
        if (listed.hung()) {
            for (Pointer p : found) Gobject.g_object_unref(p);
            throw new AtspiCalls.HungException("GetMatches of pid " + pid
                    + (e != null ? ": " + e : " took over " + AtspiCalls.HUNG_NANOS / 1_000_000 + " ms"));
        }
        if (!listed.answered() || found.length == 0) {
            // Not implemented or failing (Qt, GTK 4 have no Collection); an empty result for a frame is
            // no answer either: walk child by child.
            for (Pointer p : found) Gobject.g_object_unref(p);
            if (!listed.answered()) {
                noCollection.add(pid);
                calls.countDropped(); // failing where it was offered: the app may be dying
            }
            return null;
        }
        double getMatchesMs = (System.nanoTime() - t0) / 1e6;
        List<Node> nodes = new ArrayList<>(found.length + 1);
        List<Pointer> boundsOf =
                new ArrayList<>(); // the showing nodes' elements, in node order (the uid map holds them)
        long[] ancestors = new long[64];
        int depthNow = 0;
        int hiddenBelow = -1; // depth of the hidden element whose descendants are pruned, or -1
        boolean partial = found.length >= AtspiBridge.NODE_CAP;
        int i = 0;
        Pointer rootRef = Gobject.g_object_ref(root);
        boolean rootKnown = uids.isBound(rootRef);
        try {
            Node top = readNode(rootRef, 0, pid, gtk4);
            if (top.showing()) boundsOf.add(root);
            else if (askHidden) hidden.add(Gobject.g_object_ref(root));
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
                if (obj == null) {
                    // LibreOffice answers holes: the child-by-child walk decides.
                    noCollection.add(pid);
                    return null;
                }
                boolean known = uids.isBound(obj);
                boolean kept = false;
                try {
                    long t1 = System.nanoTime();
                    Pointer parent = Atspi.atspi_accessible_get_parent(obj, calls.err());
                    calls.checkError(pid, "get_parent", t1);
                    AtspiCalls.guard(pid, "get_parent", t1);
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
                    Node node = readNode(obj, depth, pid, gtk4);
                    kept = !known;
                    nodes.add(node);
                    if (node.showing()) boundsOf.add(obj);
                    else if (askHidden) hidden.add(Gobject.g_object_ref(obj));
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
        List<Node> result = withoutFlatMenuBars(nodes);
        latest.set(result);
        lastWalkStats = String.format(
                Locale.ROOT,
                "walk %.2f ms (GetMatches %.2f ms, %d elements): %d extents calls" + " %.2f ms, %d text reads %.2f ms",
                (System.nanoTime() - walkStart) / 1e6,
                getMatchesMs,
                found.length,
                extentsCalls,
                extentsNanos / 1e6,
                calls.textReads(),
                calls.textNanos() / 1e6);
        return new ScopedTree(windowId, rev, result, partial);
    }

    /**
     * The nodes without any menu bar that has no area on screen, and its subtree. LibreOffice's GTK 3 window shows
     * its menus twice: the toolkit's menu bar, whose menus open on their click action, and its own of zero height,
     * whose menus offer no action at all (FlatMenuBarTest, MenuModelE2ETest). A bar no one can see is no bar a person uses, and a
     * model offered it picks menus that cannot open.
     */
    static List<Node> withoutFlatMenuBars(List<Node> nodes) {
        List<Node> kept = new ArrayList<>(nodes.size());
        int skipBelow = -1;
        for (Node n : nodes) {
            if (skipBelow >= 0 && n.depth() > skipBelow) continue;
            skipBelow = -1;
            Geometry b = n.bounds();
            if (n.role().equals("menu bar") && b != null && (b.width() == 0 || b.height() == 0)) {
                skipBelow = n.depth();
                continue;
            }
            kept.add(n);
        }
        return List.copyOf(kept);
    }

    /** Reads one node and binds a uid to it (the uid map takes {@code obj}'s reference if new). */
    private Node readNode(Pointer obj, int depth, int pid, boolean gtk4) {
        long t0 = System.nanoTime();
        int roleId = Atspi.atspi_accessible_get_role(obj, calls.err());
        calls.checkError(pid, "get_role", t0);
        AtspiCalls.guard(pid, "get_role", t0);
        String role = calls.roleName(roleId);
        String name = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(obj, calls.err()));
        calls.checkError(pid, "get_name", t0);
        AtspiCalls.guard(pid, "get_name", t0);
        if (name == null) name = "";
        // the description is in libatspi's cache (CACHE_MASK) when the app fills it, else one call: where GTK 3 and
        // Qt put a tooltip, and a web page its aria-describedby or title; read for the consequential gate, never
        // shown to the model; a hung app is told apart as for the name
        long td = System.nanoTime();
        String description = AtspiCalls.takeString(Atspi.atspi_accessible_get_description(obj, calls.err()));
        calls.dropError();
        AtspiCalls.guard(pid, "get_description", td);
        if (description == null) description = "";
        if (description.length() > AtspiBridge.SHOWN_CAP) description = description.substring(0, AtspiBridge.SHOWN_CAP);
        boolean enabled = false;
        boolean focused = false;
        boolean editable = false;
        boolean showing = false;
        boolean singleLine = false;
        boolean isDefault = false;
        Set<String> stateNames = new HashSet<>();
        Pointer states = Atspi.atspi_accessible_get_state_set(obj);
        if (states != null) {
            long bits = stateBits(states);
            Gobject.g_object_unref(states);
            enabled = has(bits, AtspiNative.STATE_ENABLED) || has(bits, AtspiNative.STATE_SENSITIVE);
            focused = has(bits, AtspiNative.STATE_FOCUSED);
            editable = has(bits, AtspiNative.STATE_EDITABLE);
            showing = has(bits, AtspiNative.STATE_SHOWING);
            singleLine = has(bits, AtspiNative.STATE_SINGLE_LINE) && !has(bits, AtspiNative.STATE_MULTI_LINE);
            isDefault = has(bits, AtspiNative.STATE_IS_DEFAULT);
            for (Map.Entry<Integer, String> st : STATE_NAMES.entrySet()) {
                if (has(bits, st.getKey())) stateNames.add(st.getValue());
            }
        }
        AtspiCalls.guard(pid, "get_state_set", t0);
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
                    AtspiCalls.guard(pid, "get_text_iface", t0);
                    hasValue = true;
                    if (!password) value = calls.readText(text, pid, AtspiBridge.VALUE_CAP);
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
                    double d = Atspi.atspi_value_get_current_value(v, calls.err());
                    calls.checkError(pid, "get_current_value", t1);
                    hasValue = true;
                    value = AtspiCalls.formatNumber(d);
                } finally {
                    Gobject.g_object_unref(v);
                }
            }
        }
        if (password) value = null;
        // A control shows text of its own where its name may say something else (a web button's visible text
        // under an aria-label): read from its Text interface, for the consequential gate only.
        String shown = "";
        boolean shownRead = !hasValue && !password && ProposedAction.Element.ACTION_ROLES.contains(role);
        if (shownRead) {
            shown = calls.shownText(obj, pid);
            if (shown.equals(name)) shown = ""; // the usual case: it shows its name
        }
        AtspiCalls.guard(pid, "reading one element", t0);
        String uid = uids.bind(obj, pid, role, name, description, shownRead ? shown : null);
        return new Node(
                uid,
                depth,
                role,
                name,
                hasValue,
                value,
                enabled,
                focused,
                editable,
                showing,
                bounds,
                singleLine,
                isDefault,
                stateNames,
                description,
                shown);
    }

    /**
     * Every state of {@code set} as bits ({@code 1L << AtspiStateType}), from one
     * {@code atspi_state_set_get_states}: one native call per element instead of one
     * {@code atspi_state_set_contains} per state asked (both refresh an uncached set the same way).
     * 0 when libatspi returns no array.
     */
    private static long stateBits(Pointer set) {
        Pointer array = Atspi.atspi_state_set_get_states(set);
        if (array == null) return 0;
        long bits = 0;
        int length = array.getInt(com.sun.jna.Native.POINTER_SIZE); // GArray: {gchar *data; guint len}
        if (length > 0) {
            for (int state : array.getPointer(0).getIntArray(0, length)) {
                if (state >= 0 && state < 64) bits |= 1L << state;
            }
        }
        Glib.g_array_free(array, 1);
        return bits;
    }

    private static boolean has(long bits, int state) {
        return (bits & (1L << state)) != 0;
    }

    /** One blocking GetExtents through the element's Component interface {@code comp}. */
    private Geometry extents(Pointer comp, int pid, Geometry origin) {
        long t0 = System.nanoTime();
        Pointer rect = Atspi.atspi_component_get_extents(comp, AtspiNative.COORD_SCREEN, calls.err());
        extentsCalls++;
        extentsNanos += System.nanoTime() - t0;
        calls.checkError(pid, "get_extents", t0);
        if (rect == null) {
            calls.countDropped(); // a live app answers extents for every component; a dying one may not
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
     * of GetExtents ({@link PipelinedCalls}), any element whose route cannot be read one call at a
     * time.
     *
     * @throws AtspiCalls.HungException when the app does not answer within the call timeout
     */
    private void fillBounds(List<Node> nodes, List<Pointer> elements, int pid, Geometry origin) {
        if (elements.isEmpty()) return;
        List<Integer> indices = new ArrayList<>(elements.size());
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).showing()) indices.add(i);
        }
        if (indices.size() != elements.size()) throw new IllegalStateException("showing nodes and elements differ");
        List<PipelinedCalls.Route> routes = new ArrayList<>();
        List<Integer> routed = new ArrayList<>();
        for (int k = 0; k < elements.size(); k++) {
            Pointer obj = elements.get(k);
            long t0 = System.nanoTime();
            Pointer comp = Atspi.atspi_accessible_get_component_iface(obj);
            AtspiCalls.guard(pid, "get_component_iface", t0);
            if (comp == null) continue;
            try {
                PipelinedCalls.Route route = pipelinedExtents ? PipelinedCalls.route(obj) : null;
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
        List<PipelinedCalls.Answer> answers =
                pipeline.fetch(routes, AtspiNative.COORD_SCREEN, AtspiBridge.CALL_TIMEOUT_MILLIS);
        extentsCalls += routes.size();
        extentsNanos += System.nanoTime() - t0;
        boolean timedOut = false;
        for (int j = 0; j < answers.size(); j++) {
            PipelinedCalls.Answer a = answers.get(j);
            int i = indices.get(routed.get(j));
            if (a instanceof PipelinedCalls.Answer.Rect) {
                PipelinedCalls.Answer.Rect r = (PipelinedCalls.Answer.Rect) a;
                nodes.set(i, withBounds(nodes.get(i), screenBounds(r.x(), r.y(), r.width(), r.height(), origin)));
            } else if (a instanceof PipelinedCalls.Answer.TimedOut) {
                timedOut = true;
            } else if (a instanceof PipelinedCalls.Answer.Failed) {
                calls.countDropped();
            } else {
                throw new AssertionError(a);
            }
        }
        if (timedOut) {
            throw new AtspiCalls.HungException(
                    "GetExtents of pid " + pid + " got no reply within " + AtspiBridge.CALL_TIMEOUT_MILLIS + " ms");
        }
    }

    private static Node withBounds(Node n, Geometry bounds) {
        return new Node(
                n.uid(),
                n.depth(),
                n.role(),
                n.name(),
                n.hasValue(),
                n.value(),
                n.enabled(),
                n.focused(),
                n.editable(),
                n.showing(),
                bounds,
                n.singleLine(),
                n.isDefault(),
                n.states(),
                n.description(),
                n.text());
    }

    private void resetStats() {
        extentsCalls = 0;
        extentsNanos = 0;
        calls.resetTextCounters();
    }

    /** Where the latest snapshot walk spent its time; for the bench. */
    String lastWalkStats() {
        return lastWalkStats;
    }
}

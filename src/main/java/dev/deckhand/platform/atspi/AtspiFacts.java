package dev.deckhand.platform.atspi;

import com.sun.jna.Pointer;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.DesktopFacts.FocusedElement;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.platform.atspi.AtspiNative.Atspi;
import dev.deckhand.platform.atspi.AtspiNative.Glib;
import dev.deckhand.platform.atspi.AtspiNative.Gobject;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the policy needs to know from the accessibility side, read now, outside any grant's tree:
 * whether a password field holds the focus, the focused element, the registered applications and the
 * window titles of one, whether a process is GTK 4, and the host a browser shows. Walks of the active
 * top-level windows are bounded by {@link AtspiBridge#WALK_BUDGET}; one that cannot finish refuses, so
 * the caller assumes the worst. libatspi thread only: it lives inside the bridge's {@link Confined}
 * state.
 */
final class AtspiFacts {

    private static final List<String> BROWSER_NAMES =
            List.of("chromium", "chrome", "firefox", "brave", "edge", "opera", "vivaldi", "epiphany", "web", "browser");

    private final AtspiCalls calls;
    private final AtspiBus bus;
    private final Children children;
    /**
     * Apps (pids) whose searches walk (no Collection, or a list that could not stand for the walk), each until when:
     * a list that failed once (Chromium while it lays out a page) is asked again after {@link #WALK_ONLY_FOR}. Marked
     * for good, one failed list had kept BrowserHostTest's list silent for its whole minute.
     */
    private final java.util.Map<Integer, Long> walkOnly = new java.util.HashMap<>();

    private static final long WALK_ONLY_FOR = java.time.Duration.ofSeconds(5).toNanos();

    private final Descendants descendants;
    private long listed;

    AtspiFacts(AtspiCalls calls, AtspiBus bus, Descendants descendants) {
        this.calls = calls;
        this.descendants = descendants;
        this.bus = bus;
        this.children = new Children(calls);
    }

    /** See {@link AtspiBridge#passwordFocused()}. */
    boolean passwordFocused() {
        Pointer source = focusSource();
        if (source != null && isFocusedPassword(source)) return true;
        long deadline = System.nanoTime() + AtspiBridge.WALK_BUDGET.toNanos();
        List<Pointer> tops = activeTopLevels();
        try {
            for (Pointer top : tops) {
                Optional<Boolean> listed = focusedPasswordListed(top);
                if (listed != null) {
                    if (listed.isPresent()) return true;
                    continue;
                }
                if (focusedPasswordWalked(top, deadline)) return true;
            }
        } finally {
            tops.forEach(Gobject::g_object_unref);
        }
        return false;
    }

    /** Whether the child-by-child walk finds a focused password field below {@code top}. */
    private boolean focusedPasswordWalked(Pointer top, long deadline) {
        Pointer f = findFocused(top, deadline, this::isPasswordRole);
        if (f == null) return false;
        Gobject.g_object_unref(f);
        return true;
    }

    /**
     * {@link #focusedPasswordWalked} told from the list ({@link #visitListed}): present (true) when a focused
     * password field is below {@code top}, empty when none is, null when the walk must decide.
     */
    private Optional<Boolean> focusedPasswordListed(Pointer top) {
        // the walk enters what shows, or is disabled (a toolkit that says neither); it reads the top's children always
        return visitListed(
                top,
                false,
                p -> calls.hasState(p, AtspiNative.STATE_SHOWING) || !calls.hasState(p, AtspiNative.STATE_ENABLED),
                p -> calls.hasState(p, AtspiNative.STATE_FOCUSED) && isPasswordRole(p) ? Boolean.TRUE : null);
    }

    private boolean isPasswordRole(Pointer p) {
        String role = calls.roleOf(p);
        return role.equals("password text");
    }

    private void markWalkOnly(int pid) {
        walkOnly.put(pid, System.nanoTime() + WALK_ONLY_FOR);
    }

    private boolean walkOnlyNow(int pid) {
        Long until = walkOnly.get(pid);
        if (until == null) return false;
        if (System.nanoTime() - until < 0) return true;
        walkOnly.remove(pid);
        return false;
    }

    /**
     * A walk below {@code top} told from one {@code Collection.GetMatches} list of its descendants in canonical
     * order, instead of asking the app for every child (GTK 3 caches no children: ~3.5 ms a walk of galculator
     * against ~0.6 ms). {@code visit} sees exactly the elements the walk would, in its order — each element's
     * cached parent places it; the walk visits the top itself only when {@code withTop}, and below an element
     * only when it visits it and {@code enters} accepts it — and the first answer it gives is returned (empty
     * when none). Null — the walk decides — when the app has no Collection (Qt, GTK 4), the call fails, the list
     * reaches {@link AtspiBridge#NODE_CAP}, is not in walk order, or a visited element manages its descendants
     * (the walk reads only a table's selected children). An app with no list to give (none, failing, capped, with
     * holes or out of order) is not asked again.
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE} when the app answers neither the call nor a probe after it
     */
    private <T> Optional<T> visitListed(
            Pointer top, boolean withTop, Predicate<Pointer> enters, java.util.function.Function<Pointer, T> visit) {
        int pid = bus.pidOf(top);
        if (pid <= 0 || walkOnlyNow(pid)) return null;
        Pointer collection = Atspi.atspi_accessible_get_collection_iface(top);
        if (collection == null) {
            markWalkOnly(pid);
            return null;
        }
        Descendants.Listed list = descendants.of(collection);
        Pointer[] found = list.found();
        try {
            if (list.hung()) {
                // Slow is not silent (as in pushChildren): an app that answers a short probe is walked.
                try {
                    bus.probe(pid, top);
                    return null;
                } catch (RefusedException silent) {
                    bus.flagHung(pid);
                    throw new RefusedException(
                            Refusal.a11yUnavailable(
                                    "app pid " + pid + " is not responding to"
                                            + " accessibility calls (hung or stopped: listing its elements); it is skipped until it answers"));
                }
            }
            if (!list.answered() || found.length == 0 || found.length >= AtspiBridge.NODE_CAP) {
                markWalkOnly(pid);
                return null;
            }
            Optional<T> answer = visit(pid, top, withTop, found, enters, visit);
            if (answer != null) listed++;
            return answer;
        } finally {
            for (Pointer p : found) {
                if (p != null) Gobject.g_object_unref(p);
            }
        }
    }

    /**
     * {@link #visitListed} over its list {@code found}; an app whose list has holes (LibreOffice) or is not in
     * walk order is not asked for one again.
     */
    private <T> Optional<T> visit(
            int pid,
            Pointer top,
            boolean withTop,
            Pointer[] found,
            Predicate<Pointer> enters,
            java.util.function.Function<Pointer, T> visit) {
        long[] ancestors = new long[64];
        boolean[] entered = new boolean[64]; // whether the walk reads the children of the ancestor at that depth
        ancestors[0] = Pointer.nativeValue(top);
        entered[0] = true;
        if (withTop) {
            if (calls.hasState(top, AtspiNative.STATE_MANAGES_DESCENDANTS)) return null;
            T a = visit.apply(top);
            if (a != null) return Optional.of(a);
            entered[0] = enters.test(top);
        }
        int depth = 1;
        for (Pointer obj : found) {
            if (obj == null) {
                markWalkOnly(pid);
                return null;
            }
            Pointer parent = Atspi.atspi_accessible_get_parent(obj, calls.err());
            calls.dropError();
            long parentAddress = parent == null ? 0 : Pointer.nativeValue(parent);
            if (parent != null) Gobject.g_object_unref(parent);
            while (depth > 0 && ancestors[depth - 1] != parentAddress) depth--;
            if (depth == 0) { // not the walk's order, or a stale parent
                markWalkOnly(pid);
                return null;
            }
            boolean reached = entered[depth - 1];
            if (reached) {
                if (calls.hasState(obj, AtspiNative.STATE_MANAGES_DESCENDANTS)) return null;
                T a = visit.apply(obj);
                if (a != null) return Optional.of(a);
            }
            if (depth == ancestors.length) {
                ancestors = java.util.Arrays.copyOf(ancestors, depth * 2);
                entered = java.util.Arrays.copyOf(entered, depth * 2);
            }
            ancestors[depth] = Pointer.nativeValue(obj);
            entered[depth] = reached && enters.test(obj);
            depth++;
        }
        return Optional.empty();
    }

    /**
     * For tests: whether a focused password field is below the active top-levels as the list tells it (null when
     * some top-level's list cannot stand for the walk) and as the walk tells it, both without the focus source.
     */
    Boolean[] passwordSearches() {
        long deadline = System.nanoTime() + AtspiBridge.WALK_BUDGET.toNanos();
        List<Pointer> tops = activeTopLevels();
        try {
            Boolean listedAnswer = false;
            boolean walked = false;
            for (Pointer top : tops) {
                Optional<Boolean> one = focusedPasswordListed(top);
                listedAnswer = one == null || listedAnswer == null ? null : listedAnswer || one.isPresent();
                walked |= focusedPasswordWalked(top, deadline);
            }
            return new Boolean[] {listedAnswer, walked};
        } finally {
            tops.forEach(Gobject::g_object_unref);
        }
    }

    /**
     * For tests: the browser host of the active top-levels as the lists tell it (null when a top-level's list
     * cannot stand for the walk) and as the walks tell it (a browser's walked again with its cache cleared).
     */
    List<Optional<String>> browserHostSearches() {
        long deadline = System.nanoTime() + AtspiBridge.WALK_BUDGET.toNanos();
        List<Pointer> tops = activeTopLevels();
        try {
            Optional<String> listedHost = Optional.empty();
            Optional<String> walkedHost = Optional.empty();
            boolean listedAll = true;
            for (Pointer top : tops) {
                Optional<Optional<String>> one = documentHostListed(top);
                if (one == null) listedAll = false;
                else if (listedHost.isEmpty()) listedHost = one.get();
                if (walkedHost.isEmpty()) walkedHost = documentHostWalked(top, deadline);
                if (walkedHost.isEmpty() && isBrowser(top)) {
                    CacheClear.clear(top);
                    walkedHost = documentHostWalked(top, deadline);
                }
            }
            return java.util.Arrays.asList(listedAll ? listedHost : null, walkedHost);
        } finally {
            tops.forEach(Gobject::g_object_unref);
        }
    }

    /** How many searches (password focus, browser host) a list answered (tests). */
    long listed() {
        return listed;
    }

    /** See {@link AtspiBridge#focusedElement()}. */
    Optional<FocusedElement> focusedElement() {
        Pointer source = focusSource();
        if (source != null && calls.hasState(source, AtspiNative.STATE_FOCUSED)) return describeFocused(source);
        long deadline = System.nanoTime() + AtspiBridge.WALK_BUDGET.toNanos();
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
    }

    /**
     * The element that last announced focus, unless its app is flagged hung: a stopped app's element
     * would cost every read its call timeout (the walk below skips that app too).
     */
    private Pointer focusSource() {
        Pointer source = bus.focusSource();
        if (source == null) return null;
        int pid = bus.pidOf(source);
        return bus.hung(pid) ? null : source;
    }

    private Optional<FocusedElement> describeFocused(Pointer f) {
        String role = calls.roleName(Atspi.atspi_accessible_get_role(f, calls.err()));
        if (calls.takeError() != null) return Optional.empty();
        String name = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(f, calls.err()));
        calls.dropError();
        int pid = bus.pidOf(f);
        Geometry bounds = null;
        Pointer comp = Atspi.atspi_accessible_get_component_iface(f);
        if (comp != null) {
            try {
                Pointer r = Atspi.atspi_component_get_extents(comp, AtspiNative.COORD_SCREEN, calls.err());
                if (calls.takeError() == null && r != null) {
                    bounds =
                            new Geometry(r.getInt(0), r.getInt(4), Math.max(0, r.getInt(8)), Math.max(0, r.getInt(12)));
                    Glib.g_free(r);
                }
            } finally {
                Gobject.g_object_unref(comp);
            }
        }
        return Optional.of(new FocusedElement(pid, role, name == null ? "" : name, bounds));
    }

    private boolean isFocusedPassword(Pointer obj) {
        String role = calls.roleName(Atspi.atspi_accessible_get_role(obj, calls.err()));
        if (calls.takeError() != null || !role.equals("password text")) return false;
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
        bus.forEachApp(app -> {
            int pid = bus.pidOf(app);
            if (bus.hung(pid) && !bus.answersAgain(pid, app)) return false;
            long t0 = System.nanoTime();
            int n = Atspi.atspi_accessible_get_child_count(app, calls.err());
            String e = calls.takeError();
            if ((e != null && AtspiCalls.isTimeout(e, t0)) || System.nanoTime() - t0 > AtspiCalls.HUNG_NANOS) {
                bus.flagHung(pid); // one app that does not answer is skipped, the others are read
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (System.nanoTime() - t0 > AtspiCalls.HUNG_NANOS) {
                    bus.flagHung(pid);
                    break;
                }
                Pointer top = Atspi.atspi_accessible_get_child_at_index(app, i, calls.err());
                calls.dropError();
                if (top == null) continue;
                Pointer states = Atspi.atspi_accessible_get_state_set(top);
                boolean isActive = false;
                boolean isShowing = false;
                if (states != null) {
                    isActive = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_ACTIVE) != 0;
                    isShowing = Atspi.atspi_state_set_contains(states, AtspiNative.STATE_SHOWING) != 0;
                    Gobject.g_object_unref(states);
                }
                if (System.nanoTime() - t0 > AtspiCalls.HUNG_NANOS) {
                    Gobject.g_object_unref(top); // a state read the app did not answer: skip it from now on
                    bus.flagHung(pid);
                    break;
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

    /**
     * The first focused element below {@code top} that {@code wanted} accepts (referenced; the caller
     * unrefs), or null when there is none. Subtrees known not to show are pruned (GTK 4 sets neither
     * showing nor enabled, so it is never pruned).
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE} when the walk cannot finish in time (the caller
     *     must then assume the worst)
     */
    private Pointer findFocused(Pointer top, long deadline, Predicate<Pointer> wanted) {
        Deque<Pointer> stack = new ArrayDeque<>();
        pushChildren(stack, top, deadline);
        int visited = 0;
        try {
            while (!stack.isEmpty()) {
                if (visited++ > AtspiBridge.NODE_CAP * 2 || System.nanoTime() > deadline) {
                    throw new RefusedException(Refusal.a11yUnavailable(
                            "could not read keyboard focus within " + AtspiBridge.WALK_BUDGET.toMillis() + " ms"));
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
                    if (showing) pushChildren(stack, p, deadline);
                } finally {
                    if (!keep) Gobject.g_object_unref(p);
                }
            }
        } finally {
            stack.forEach(Gobject::g_object_unref);
        }
        return null;
    }

    /** See {@link AtspiBridge#applicationNames()}. */
    Set<String> applicationNames() {
        Set<String> names = new LinkedHashSet<>();
        bus.forEachApp(app -> {
            // An app that does not answer (stopped, hung) is flagged and skipped, as in every other read: its
            // process's name still reaches the deny scan from /proc (the caller adds every process's comm).
            int pid = bus.pidOf(app);
            if (pid > 0 && bus.hung(pid) && !bus.answersAgain(pid, app)) return false;
            long t0 = System.nanoTime();
            String name = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(app, calls.err()));
            String e = calls.takeError();
            if ((e != null && AtspiCalls.isTimeout(e, t0)) || System.nanoTime() - t0 > AtspiCalls.HUNG_NANOS) {
                if (pid > 0) bus.flagHung(pid);
                return false;
            }
            if (name != null && !name.isBlank()) names.add(name.toLowerCase(Locale.ROOT));
            return false;
        });
        return Set.copyOf(names);
    }

    /** See {@link AtspiBridge#windowTitles(int)}. */
    List<String> windowTitles(int pid) {
        List<String> titles = new ArrayList<>();
        List<Pointer> apps = bus.appsOf(pid);
        try {
            for (Pointer app : apps) {
                int n = Atspi.atspi_accessible_get_child_count(app, calls.err());
                calls.dropError();
                for (int i = 0; i < n; i++) {
                    Pointer top = Atspi.atspi_accessible_get_child_at_index(app, i, calls.err());
                    calls.dropError();
                    if (top == null) continue;
                    String name = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(top, calls.err()));
                    calls.dropError();
                    Gobject.g_object_unref(top);
                    titles.add(name == null ? "" : name);
                }
            }
        } finally {
            apps.forEach(Gobject::g_object_unref);
        }
        return List.copyOf(titles);
    }

    /** See {@link AtspiBridge#isGtk4Process(int)}. */
    boolean isGtk4Process(int pid) {
        // Known from a snapshot of this process (the same cache the walk uses): no bus round trips
        // on every key sent to the window.
        AtspiBus.Toolkit known = bus.knownToolkit(pid);
        if (known != null) return known.gtk4();
        List<Pointer> apps = bus.appsOf(pid);
        if (apps.isEmpty()) return false;
        try {
            AtspiBus.Toolkit toolkit = AtspiBus.Toolkit.UNKNOWN;
            for (Pointer app : apps) {
                AtspiBus.Toolkit t = bus.toolkit(app);
                if (toolkit == AtspiBus.Toolkit.UNKNOWN || t.gtk4()) toolkit = t;
            }
            bus.remember(pid, toolkit);
            return toolkit.gtk4();
        } finally {
            apps.forEach(Gobject::g_object_unref);
        }
    }

    /** See {@link AtspiBridge#focusedBrowserHost()}. */
    Optional<String> focusedBrowserHost() {
        long deadline = System.nanoTime() + AtspiBridge.WALK_BUDGET.toNanos();
        List<Pointer> tops = activeTopLevels();
        try {
            for (Pointer top : tops) {
                Optional<String> host = documentHost(top, deadline);
                if (host.isEmpty() && isBrowser(top)) {
                    // Browsers replace their document subtree without always telling the
                    // cache; read a browser window afresh once.
                    CacheClear.clear(top);
                    host = documentHost(top, deadline);
                }
                if (host.isPresent()) return host;
            }
        } finally {
            tops.forEach(Gobject::g_object_unref);
        }
        return Optional.<String>empty();
    }

    private boolean isBrowser(Pointer top) {
        Pointer app = Atspi.atspi_accessible_get_application(top, calls.err());
        calls.dropError();
        if (app == null) return false;
        try {
            String name = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(app, calls.err()));
            calls.dropError();
            if (name == null) return false;
            String lower = name.toLowerCase(Locale.ROOT);
            return BROWSER_NAMES.stream().anyMatch(lower::contains);
        } finally {
            Gobject.g_object_unref(app);
        }
    }

    /**
     * The host of the focused document below {@code top} (else of the first one), documents inside a document left
     * out: from the list ({@link #visitListed}) where the app gives one, else by walking what shows.
     */
    private Optional<String> documentHost(Pointer top, long deadline) {
        Optional<Optional<String>> listed = documentHostListed(top);
        return listed != null ? listed.get() : documentHostWalked(top, deadline);
    }

    /**
     * {@link #documentHostWalked} told from the list ({@link #visitListed}): present with the answer, or null
     * when the walk must decide.
     */
    private Optional<Optional<String>> documentHostListed(Pointer top) {
        String[] first = {null};
        Optional<Optional<String>> listed =
                visitListed(top, true, p -> !isDocument(p) && calls.hasState(p, AtspiNative.STATE_SHOWING), p -> {
                    if (!isDocument(p)) return null;
                    String url = documentUrl(p);
                    if (url == null) return null;
                    if (calls.hasState(p, AtspiNative.STATE_FOCUSED)) return hostOf(url);
                    if (first[0] == null) first[0] = url;
                    return null;
                });
        if (listed == null) return null;
        return Optional.of(listed.orElseGet(() -> first[0] == null ? Optional.empty() : hostOf(first[0])));
    }

    private boolean isDocument(Pointer p) {
        String role = calls.roleOf(p);
        return role.equals("document web") || role.equals("document frame");
    }

    private Optional<String> documentHostWalked(Pointer top, long deadline) {
        Deque<Pointer> stack = new ArrayDeque<>();
        stack.push(Gobject.g_object_ref(top));
        String firstUrl = null;
        int visited = 0;
        try {
            while (!stack.isEmpty() && visited++ < AtspiBridge.NODE_CAP * 2 && System.nanoTime() < deadline) {
                Pointer p = stack.pop();
                try {
                    if (isDocument(p)) {
                        String url = documentUrl(p);
                        if (url != null) {
                            if (calls.hasState(p, AtspiNative.STATE_FOCUSED)) return hostOf(url);
                            if (firstUrl == null) firstUrl = url;
                        }
                        continue; // documents nested in a document (iframes) are not the tab
                    }
                    if (!calls.hasState(p, AtspiNative.STATE_SHOWING)) continue;
                    pushChildren(stack, p, deadline);
                } finally {
                    Gobject.g_object_unref(p);
                }
            }
        } finally {
            stack.forEach(Gobject::g_object_unref);
        }
        return firstUrl == null ? Optional.empty() : hostOf(firstUrl);
    }

    /**
     * Pushes {@code p}'s children (new references) so that they pop in document order: never the
     * virtual ones ({@link Children}), never past the deadline. A call the app does not answer flags it
     * hung, so the next read skips it while the bridge serves the others.
     */
    private void pushChildren(Deque<Pointer> stack, Pointer p, long deadline) {
        Children.Read read;
        try {
            read = children.of(p, -1, AtspiBridge.NODE_CAP, deadline, false); // a sheet's selected cells only
        } catch (AtspiCalls.HungException slow) {
            int pid = bus.pidOf(p);
            try {
                // Slow is not silent: on a loaded machine an app that answers can take longer than the bound.
                // One short probe tells them apart; an app that answers it is read once more.
                if (pid <= 0) throw slow;
                bus.probe(pid, p);
                read = children.of(p, -1, AtspiBridge.NODE_CAP, deadline, false);
            } catch (AtspiCalls.HungException | RefusedException e) {
                if (pid > 0) bus.flagHung(pid);
                throw new RefusedException(Refusal.a11yUnavailable(
                        "app pid " + pid + " is not responding to" + " accessibility calls (hung or stopped: "
                                + slow.getMessage() + "); it is skipped until it answers"));
            }
        }
        List<Pointer> kids = read.children();
        for (int i = kids.size() - 1; i >= 0; i--) stack.push(kids.get(i));
    }

    private String documentUrl(Pointer p) {
        Pointer doc = Atspi.atspi_accessible_get_document_iface(p);
        if (doc == null) return null;
        try {
            for (String attr : List.of("DocURL", "URI", "URL")) {
                String v = AtspiCalls.takeString(Atspi.atspi_document_get_document_attribute_value(
                        doc, AtspiCalls.nulTerminated(attr), calls.err()));
                if (calls.takeError() != null) return null;
                if (v != null && !v.isBlank()) return v;
            }
            return null;
        } finally {
            Gobject.g_object_unref(doc);
        }
    }

    /**
     * The lower-case host of an {@code http} or {@code https} {@code url}; for any other scheme, the scheme and a colon
     * ({@code file:}, {@code chrome:}: {@link dev.deckhand.grant.Facts#browserHost}); empty when it is not a URL or an
     * http(s) URL has no host.
     */
    static Optional<String> hostOf(String url) {
        try {
            URI uri = URI.create(url.trim());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (scheme.isEmpty()) return Optional.empty();
            if (!scheme.equals("http") && !scheme.equals("https")) return Optional.of(scheme + ":");
            String host = uri.getHost();
            return host == null || host.isBlank() ? Optional.empty() : Optional.of(host.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}

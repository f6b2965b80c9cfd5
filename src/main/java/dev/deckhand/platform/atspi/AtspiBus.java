package dev.deckhand.platform.atspi;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Landing;
import dev.deckhand.platform.atspi.AtspiNative.Atspi;
import dev.deckhand.platform.atspi.AtspiNative.EventCallback;
import dev.deckhand.platform.atspi.AtspiNative.Glib;
import dev.deckhand.platform.atspi.AtspiNative.Gobject;
import dev.deckhand.platform.x11.RootProperty;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * The accessibility bus as one bridge sees it: finding and initialising it (checked before libatspi
 * is touched, which aborts the process on a missing bus), the event listener (the time of the latest
 * event for settling, and the latest element to announce focus), and the applications registered on
 * it with what is known of each: its toolkit (GTK 4 or not) and whether it is flagged hung. libatspi
 * thread only: it lives inside the bridge's {@link Confined} state.
 */
final class AtspiBus {

    private static final String[] EVENTS = {
        "object:children-changed", "object:property-change", "object:state-changed",
        "object:text-changed", "object:value-changed", "object:visible-data-changed",
    };

    private final AtspiThread thread;
    private final AtspiCalls calls;
    private final long eventType;
    private final Set<Integer> hungPids = new HashSet<>();
    private final Map<Integer, Toolkit> toolkitByPid = new HashMap<>();
    private long pidQueries;
    /**
     * The process of each unique bus name seen ({@code :1.42}): a connection's unique name belongs to one process
     * for the connection's life and the bus never gives it again, so the answer cannot go stale. Bounded.
     */
    private final Map<String, Integer> pidByBusName = bounded();

    /**
     * Per application (its unique bus name): when it last announced an element added, removed, shown or hidden, and
     * when the last walk that asked its hidden elements afresh began ({@link #hiddenMayBeStale}). Bounded.
     */
    private final Map<String, Long> reshapedAt = bounded();

    private final Map<String, Long> askedAfreshAt = bounded();

    /** A map of at most 1024 entries by bus name, the least recently used dropped first. */
    private static <V> Map<String, V> bounded() {
        return new java.util.LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > 1024;
            }
        };
    }

    private Pointer listener;
    /** Held in a field: JNA frees a callback's native stub when the Java object is collected. */
    private EventCallback callback;

    private Pointer focusSource;
    /** Written by the event callback (on the libatspi thread), read by {@link #settle}. */
    private volatile long lastEventNanos = System.nanoTime();
    /** Events received so far that can change a fact ({@link #changesFacts}); the callback is the only writer. */
    private volatile long events;
    /** Every event received so far, of any type this listener takes and any app; the callback is the only writer. */
    private volatile long allEvents;
    /** The native address of the element the current action acts on, 0 when none (a key, typed text). */
    private volatile long actedOn;
    /**
     * When a GTK 4 button applies the current click ({@link System#nanoTime()}; {@link #ACTIVATE_DELAY} after
     * the call), or 0; it counts only for an action that began before it was stamped.
     */
    private volatile long activationNanos;
    /** Whether the latest event was a deletion or removal: the first half of a replacement whose second may follow. */
    private volatile boolean lastEventFirstHalf;
    /** Per {@link Landing}: when the last event of that kind arrived (the callback writes, {@link #settle} reads). */
    private final AtomicLongArray landedNanos = new AtomicLongArray(Landing.values().length);

    /** Registers this bridge's event listener; on the libatspi thread, after {@link #init}. */
    AtspiBus(AtspiThread thread, AtspiCalls calls) {
        this.thread = thread;
        this.calls = calls;
        this.eventType = Atspi.atspi_event_get_type();
        registerListener();
    }

    // ------------------------------------------------------------------------------------------
    // Finding the bus

    /**
     * Why no accessibility bus can be found from this environment, or null if one may be: libatspi
     * uses {@code AT_SPI_BUS_ADDRESS}, else the X root property {@code AT_SPI_BUS} (not under
     * Wayland), else asks the session bus.
     */
    static String busMissingReason(Map<String, String> env) {
        if (!blank(env.get("AT_SPI_BUS_ADDRESS"))) return null;
        String display = env.get("DISPLAY");
        if (!blank(display)
                && blank(env.get("WAYLAND_DISPLAY"))
                && RootProperty.read(display, "AT_SPI_BUS")
                        .filter(bus -> !bus.isBlank())
                        .isPresent()) {
            return null;
        }
        if (!blank(env.get("DBUS_SESSION_BUS_ADDRESS"))) return null;
        return "no accessibility bus: AT_SPI_BUS_ADDRESS is unset, the root window of DISPLAY="
                + (blank(display) ? "(unset)" : display)
                + " has no AT_SPI_BUS property, and DBUS_SESSION_BUS_ADDRESS is unset";
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /**
     * {@code atspi_init} once per JVM (libatspi state is process-wide), its result checked, and the
     * per-call timeout set. On the libatspi thread.
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE} when libatspi cannot reach the bus
     */
    static void init(AtspiThread thread) {
        if (thread.initialized()) return;
        int rc = Atspi.atspi_init();
        if (rc > 1) {
            throw new RefusedException(
                    Refusal.a11yUnavailable("atspi_init could not reach the accessibility bus (rc " + rc + ")"));
        }
        Atspi.atspi_set_timeout(AtspiBridge.CALL_TIMEOUT_MILLIS, -1);
        thread.markInitialized();
    }

    // ------------------------------------------------------------------------------------------
    // Events

    private void registerListener() {
        callback = this::onEvent;
        listener = Atspi.atspi_event_listener_new(callback, null, null);
        if (listener == null) throw new RefusedException(Refusal.a11yUnavailable("atspi_event_listener_new failed"));
        for (String type : EVENTS) {
            Atspi.atspi_event_listener_register(listener, AtspiCalls.nulTerminated(type), calls.err());
            calls.dropError();
        }
    }

    @SuppressWarnings("NonAtomicVolatileUpdate") // one writer: libatspi's event thread; readers only read
    private void onEvent(Pointer event, Pointer userData) {
        try {
            long now = System.nanoTime();
            lastEventNanos = now;
            allEvents++;
            if (event == null) {
                events++;
                return;
            }
            Pointer type = event.getPointer(0);
            String name = type == null ? "" : type.getString(0, "UTF-8");
            if (type == null || changesFacts(name)) events++;
            lastEventFirstHalf = firstHalf(name);
            Landing landed = landing(name);
            // focus lands only as the element acted on gaining it (a focus action's effect)
            if (landed == Landing.FOCUS) {
                Pointer source = event.getPointer(Native.POINTER_SIZE);
                if (actedOn == 0
                        || source == null
                        || Pointer.nativeValue(source) != actedOn
                        || event.getInt(2L * Native.POINTER_SIZE) != 1) {
                    landed = null;
                }
            }
            if (landed != null) landedNanos.set(landed.ordinal(), now);
            if (reshapes(name)) {
                Pointer source = event.getPointer(Native.POINTER_SIZE);
                String app = source == null ? null : PipelinedCalls.busName(source);
                if (app != null) reshapedAt.put(app, now);
            }
            if (type != null
                    && event.getInt(2L * Native.POINTER_SIZE) == 1
                    && name.startsWith("object:state-changed:focused")) {
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
     * How many events of any app that can change a fact ({@link #changesFacts}) arrived so far, counting those
     * pumped before this call: while it stays the same, no app announced such a change (the facts kept by
     * {@code KeptFacts} rest on it).
     */
    long events() {
        return events;
    }

    /**
     * How many events of any type in {@link #EVENTS} and any app arrived so far (text, value and toggled states
     * included), counting those pumped before this call: while it stays the same, no app announced anything.
     */
    long allEvents() {
        return allEvents;
    }

    /** The state changes that can move the focus, a password field's reach or the active window. */
    private static final List<String> FACT_STATES = List.of(
            "focused", "active", "showing", "visible", "enabled", "sensitive", "defunct", "focusable", "editable");

    /**
     * Whether an event of this type can change a fact the policy reads from the accessibility side: the
     * focused element and whether it is a password field (a focus, activation, visibility or role change, an
     * element added or removed), the registered applications (children of the desktop, a name) and the browser
     * host (a document's subtree or title). Text, value and visible-data changes, and the states an action
     * toggles (checked, pressed, armed, selected, expanded, ...), cannot: a keystroke, a set_text or a
     * calculator's display leave the kept facts standing.
     */
    static boolean changesFacts(String type) {
        if (type.startsWith("object:children-changed")) return true;
        if (type.startsWith("object:property-change")) {
            return !type.startsWith("object:property-change:accessible-value")
                    && !type.startsWith("object:property-change:accessible-description");
        }
        if (type.startsWith("object:state-changed:")) {
            String state = type.substring("object:state-changed:".length());
            int colon = state.indexOf(':');
            if (colon >= 0) state = state.substring(0, colon);
            return FACT_STATES.contains(state);
        }
        return !type.startsWith("object:text-changed")
                && !type.startsWith("object:value-changed")
                && !type.startsWith("object:visible-data-changed");
    }

    /** Whether an event of this type adds, removes, shows or hides an element. */
    static boolean reshapes(String type) {
        return type.startsWith("object:children-changed")
                || type.startsWith("object:state-changed:showing")
                || type.startsWith("object:state-changed:visible");
    }

    /**
     * Whether libatspi's cache may hold a state set of this app's that was true only for a moment, so that a walk
     * beginning at {@code walkStart} must ask its hidden elements again ({@code AtspiTree.statesAskedAgain}): the app
     * added, removed, showed or hid an element, and no walk that asked afresh has begun {@link #RESHAPE_GRACE} after
     * that. A toolkit gives an element its place a frame after it is shown; a set read in between is the one that
     * stays. Walks of an app that changed nothing read the cache alone.
     */
    boolean hiddenMayBeStale(String app) {
        Long reshaped = reshapedAt.get(app);
        if (reshaped == null) return false;
        Long asked = askedAfreshAt.get(app);
        return asked == null || asked - reshaped < RESHAPE_GRACE.toNanos();
    }

    /** A walk of {@code app} that began at {@code walkStart} asked its hidden elements afresh. */
    void askedAfresh(String app, long walkStart) {
        askedAfreshAt.put(app, walkStart);
    }

    /**
     * How long after an app's last change a set read from it may still be a passing one: GTK places a shown widget
     * within its next frame (16 ms at 60 Hz); the rest is margin for a loaded machine.
     */
    static final Duration RESHAPE_GRACE = Duration.ofMillis(500);

    /** The element that last announced it gained focus (it may have lost it since), or null. */
    Pointer focusSource() {
        return focusSource;
    }

    /**
     * The kind of landing an event type shows, or null (the types registered in {@link #EVENTS}). No state
     * change but focus is one: a press announces its own states (pressed, armed, checked, focused, ...) and
     * other controls' sensitivity before its effect ({@link Landing}). A deletion or removal is none either:
     * it is often the first half of a replacement ({@link #firstHalf}).
     */
    static Landing landing(String type) {
        if (type.startsWith("object:text-changed:insert")) return Landing.TEXT;
        if (type.startsWith("object:value-changed") || type.startsWith("object:property-change:accessible-value")) {
            return Landing.VALUE;
        }
        if (type.startsWith("object:state-changed:focused")) return Landing.FOCUS;
        if (type.startsWith("object:children-changed:add")) return Landing.CHILDREN;
        if (type.startsWith("object:property-change:accessible-name")) return Landing.NAME;
        if (type.startsWith("object:visible-data-changed")) return Landing.VISIBLE;
        return null;
    }

    /**
     * Whether an event type is a deletion or removal: text replaced is deleted then inserted, a list refilled
     * is emptied then filled, so after one the settle waits for the quiet window, not the landing's grace.
     */
    static boolean firstHalf(String type) {
        return type.startsWith("object:text-changed:delete") || type.startsWith("object:children-changed:remove");
    }

    /**
     * See {@link AtspiBridge#settle(Duration, Set, long)}: pumps every 2 ms until an event of {@code landings}
     * after {@code since} was followed by {@link AtspiBridge#LANDED_GRACE} without events (unless the last was a
     * deletion or removal), or events are quiet for {@link AtspiBridge#QUIET}, or {@code max} passed.
     * After a GTK 4 button's click ({@link #activating}) neither counts before the button applies it: landings
     * from then on, and the quiet window is {@link #DELAYED_QUIET} long from then on.
     */
    void settle(Duration max, Set<Landing> landings, long since) throws InterruptedException {
        try {
            awaitLanding(max, landings, since);
        } finally {
            actedOn = 0; // the action is over: the next one names its own element, or none
        }
    }

    /** An element action is about to act on {@code element}: only it gaining focus shows a focus landed. */
    void acting(Pointer element) {
        actedOn = element == null ? 0 : Pointer.nativeValue(element);
    }

    /**
     * GTK 4 applies a button's accessibility click {@link #ACTIVATE_DELAY} after the call (GtkButton's
     * activate timeout), announcing nothing meanwhile: the settle after it waits for that moment.
     */
    void activating() {
        activationNanos = System.nanoTime() + ACTIVATE_DELAY.toNanos();
    }

    /** GtkButton's activate timeout (GTK 4 source: ACTIVATE_TIMEOUT). */
    static final Duration ACTIVATE_DELAY = Duration.ofMillis(250);
    /**
     * The quiet window after a GTK 4 button's delayed click: its effect came 20-130 ms after the delay at
     * load 7 on 2 cores (gnome-calculator's display, LandingSettleTest), longer than {@link AtspiBridge#QUIET}.
     */
    static final Duration DELAYED_QUIET = Duration.ofMillis(200);

    private void awaitLanding(Duration max, Set<Landing> landings, long since) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + max.toNanos();
        long activation = activationNanos;
        boolean delayed = activation != 0 && activation - ACTIVATE_DELAY.toNanos() - since >= 0;
        long quietFrom = delayed ? later(start, activation) : start;
        long landedFrom = delayed ? later(since, activation) : since;
        long quiet = (delayed ? DELAYED_QUIET : AtspiBridge.QUIET).toNanos();
        long grace = AtspiBridge.LANDED_GRACE.toNanos();
        while (true) {
            thread.pump();
            long now = System.nanoTime();
            long last = later(lastEventNanos, quietFrom);
            if (now - last >= quiet || now - deadline >= 0) return;
            boolean landed = !lastEventFirstHalf && landedAfter(landings, landedFrom);
            if (landed && now - lastEventNanos >= grace) return;
            long nap = TimeUnit.MILLISECONDS.toNanos(landings.isEmpty() ? 5 : 2);
            // once landed, the last nap ends when the grace does, not up to a nap after it
            if (landed) nap = Math.min(nap, grace - (now - lastEventNanos));
            LockSupport.parkNanos(nap);
            if (Thread.interrupted()) throw new InterruptedException("settle");
        }
    }

    /** The later of two {@link System#nanoTime()} readings. */
    private static long later(long a, long b) {
        return a - b >= 0 ? a : b;
    }

    private boolean landedAfter(Set<Landing> landings, long since) {
        for (Landing l : landings) {
            if (landedNanos.get(l.ordinal()) - since > 0) return true;
        }
        return false;
    }

    /**
     * As {@link #settle(Duration, Set, long)} with no landing named, but quiet counts only once an event
     * arrived after {@code effectNanos} (a {@link System#nanoTime()}): GTK 4 applies a click about 255 ms after
     * the action returns (the Wayland route, which reads every effect back).
     */
    void settleOnEffect(Duration max, long effectNanos) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + max.toNanos();
        long quiet = AtspiBridge.QUIET.toNanos();
        while (true) {
            thread.pump();
            long now = System.nanoTime();
            long last = Math.max(lastEventNanos, start);
            boolean effectSeen = lastEventNanos - effectNanos > 0 || effectNanos == Long.MIN_VALUE;
            if ((effectSeen && now - last >= quiet) || now >= deadline) return;
            Thread.sleep(5);
        }
    }

    /** Deregisters the listener and drops the focus source's reference. */
    void close() {
        if (listener != null) {
            for (String type : EVENTS) {
                Atspi.atspi_event_listener_deregister(listener, AtspiCalls.nulTerminated(type), calls.err());
                calls.dropError();
            }
            Gobject.g_object_unref(listener);
            listener = null;
        }
        if (focusSource != null) {
            Gobject.g_object_unref(focusSource);
            focusSource = null;
        }
    }

    // ------------------------------------------------------------------------------------------
    // Applications

    /** Visits the desktop's applications (cache mask set on each) until {@code visit} returns true. */
    void forEachApp(Function<Pointer, Boolean> visit) {
        Pointer desktop = Atspi.atspi_get_desktop(0);
        if (desktop == null) throw new RefusedException(Refusal.a11yUnavailable("the AT-SPI registry has no desktop"));
        try {
            int n = Atspi.atspi_accessible_get_child_count(desktop, calls.err());
            String e = calls.takeError();
            if (e != null)
                throw new RefusedException(Refusal.a11yUnavailable("the AT-SPI registry does not answer: " + e));
            for (int i = 0; i < n; i++) {
                Pointer app = Atspi.atspi_accessible_get_child_at_index(desktop, i, calls.err());
                calls.dropError();
                if (app == null) continue;
                try {
                    String busName = PipelinedCalls.busName(app);
                    Atspi.atspi_accessible_set_cache_mask(
                            app,
                            busName == null
                                    ? AtspiNative.CACHE_MASK
                                    : maskByBusName.getOrDefault(busName, AtspiNative.CACHE_MASK));
                    if (visit.apply(app)) return;
                } finally {
                    Gobject.g_object_unref(app);
                }
            }
        } finally {
            Gobject.g_object_unref(desktop);
        }
    }

    /** The cache mask without the children: each count and child asked of the app. */
    static final int LIVE_CHILDREN = AtspiNative.CACHE_MASK & ~AtspiNative.CACHE_CHILDREN;

    /** The cache mask of each application by its unique bus name, once a walk has read its toolkit. */
    private final Map<String, Integer> maskByBusName = new HashMap<>();

    /**
     * {@link AtspiNative#CACHE_MASK}, without the children for LibreOffice (app {@code soffice}): its walks go child
     * by child, and the children libatspi keeps for it went stale (issue 28, measured). Writer: in 5 of 12 starts
     * watched by a walking client, once it put its menu bar in, the frame's cached children stayed the root pane it
     * had first, so the tree had no menu bar while the screen showed one; the app itself ({@code GetChildren})
     * answered the right children. Asked of the app, a Writer walk was no slower (320-480 ms against 436-1427 ms).
     * Set by the first walk of the app's window, where its toolkit is read anyway: the applications' listing asks
     * no app anything. Not for GTK 4, whose cached children go stale too (gnome-calculator's new keypad): asked of
     * the app, a walk of it rebuilding its keypad held the libatspi thread past other calls' bounds in 2 of 8
     * end-to-end runs at load 7 (docs/driver-atspi.md).
     */
    void keepChildrenLiveWhereStale(Pointer frame, Toolkit toolkit) {
        String busName = PipelinedCalls.busName(frame);
        if (busName == null
                || maskByBusName.containsKey(busName)
                || toolkit.name().isEmpty()) return;
        Pointer app = Atspi.atspi_accessible_get_application(frame, calls.err());
        calls.dropError();
        if (app == null) return;
        try {
            String appName = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(app, calls.err()));
            calls.dropError();
            int mask = "soffice".equals(appName) ? LIVE_CHILDREN : AtspiNative.CACHE_MASK;
            maskByBusName.put(busName, mask);
            Atspi.atspi_accessible_set_cache_mask(app, mask);
        } finally {
            Gobject.g_object_unref(app);
        }
    }

    /** Applications on the desktop whose process id is {@code pid}, referenced, cache mask set. */
    List<Pointer> appsOf(int pid) {
        List<Pointer> out = new ArrayList<>();
        forEachApp(app -> {
            if (pidOf(app) == pid) out.add(Gobject.g_object_ref(app));
            return false;
        });
        return out;
    }

    /**
     * The process id of the application an element (or application) belongs to, or -1 when it does not say. Asked
     * of the bus daemon once per unique bus name (a round trip of 0.2-0.35 ms per app, which every walk and facts
     * read made for every app); a well-known name is asked every time.
     */
    int pidOf(Pointer accessible) {
        String name = PipelinedCalls.busName(accessible);
        boolean unique = name != null && name.startsWith(":");
        if (unique) {
            Integer known = pidByBusName.get(name);
            if (known != null) return known;
        }
        pidQueries++;
        int p = Atspi.atspi_accessible_get_process_id(accessible, calls.err());
        if (calls.takeError() != null) return -1;
        if (unique && p > 0) pidByBusName.put(name, p);
        return p;
    }

    /** How many times {@link #pidOf} asked the bus daemon (tests). */
    long pidQueries() {
        return pidQueries;
    }

    /**
     * An app's toolkit as the app reports it, read once per process: GTK 4 reports no showing state and ignores
     * synthetic keys; Chromium (Electron apps too) replaces a page's subtree without keeping libatspi's cache current.
     */
    record Toolkit(String name, String version) {
        static final Toolkit UNKNOWN = new Toolkit("", "");

        boolean gtk4() {
            return name.toLowerCase(Locale.ROOT).startsWith("gtk") && version.startsWith("4.");
        }

        boolean chromium() {
            return "chromium".equalsIgnoreCase(name);
        }
    }

    /** The toolkit application {@code app} reports (unknown parts empty; the version is read for GTK only). */
    Toolkit toolkit(Pointer app) {
        String name = AtspiCalls.takeString(Atspi.atspi_accessible_get_toolkit_name(app, calls.err()));
        calls.dropError();
        if (name == null || !name.toLowerCase(Locale.ROOT).startsWith("gtk"))
            return new Toolkit(name == null ? "" : name, "");
        String version = AtspiCalls.takeString(Atspi.atspi_accessible_get_toolkit_version(app, calls.err()));
        calls.dropError();
        return new Toolkit(name, version == null ? "" : version);
    }

    /** The toolkit of the application {@code accessible} belongs to, remembered for {@code pid}, or read now. */
    Toolkit toolkitOf(int pid, Pointer accessible) {
        Toolkit known = toolkitByPid.get(pid);
        if (known != null) return known;
        Pointer app = Atspi.atspi_accessible_get_application(accessible, calls.err());
        calls.dropError();
        if (app == null) return Toolkit.UNKNOWN;
        try {
            return toolkit(app);
        } finally {
            Gobject.g_object_unref(app);
        }
    }

    /** The toolkit of process {@code pid} if known; null when not read yet. */
    Toolkit knownToolkit(int pid) {
        return toolkitByPid.get(pid);
    }

    /** Whether process {@code pid} is known to be GTK 4 (false while not read yet). */
    boolean knownGtk4(int pid) {
        Toolkit t = toolkitByPid.get(pid);
        return t != null && t.gtk4();
    }

    void remember(int pid, Toolkit toolkit) {
        toolkitByPid.put(pid, toolkit);
    }

    boolean hung(int pid) {
        return hungPids.contains(pid);
    }

    void flagHung(int pid) {
        hungPids.add(pid);
    }

    /**
     * Whether an app flagged hung answers again: asked at most once per {@link #REPROBE_NANOS} (a
     * {@link #probe} of its first window), so a stopped app costs the others one short probe now and
     * then, and an app that answers again is read again without anyone snapshotting it.
     */
    boolean answersAgain(int pid, Pointer app) {
        long now = System.nanoTime();
        Long last = lastProbe.get(pid);
        if (last != null && now - last < REPROBE_NANOS) return false;
        lastProbe.put(pid, now);
        Pointer top = Atspi.atspi_accessible_get_child_at_index(app, 0, calls.err());
        calls.dropError();
        if (top == null) return false;
        try {
            probe(pid, top);
            lastProbe.remove(pid);
            return true;
        } catch (RefusedException stillSilent) {
            return false;
        } finally {
            Gobject.g_object_unref(top);
        }
    }

    /** How often an app flagged hung is probed again by the facts' reads. */
    static final long REPROBE_NANOS = 2_000_000_000L;

    private final Map<Integer, Long> lastProbe = new HashMap<>();

    /**
     * An app flagged hung gets one short call ({@link AtspiBridge#PROBE_TIMEOUT_MILLIS}) on its frame;
     * still silent → refusal, answering → flag cleared.
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE} when it does not answer
     */
    void probe(int pid, Pointer frame) {
        Pointer comp = Atspi.atspi_accessible_get_component_iface(frame);
        AtspiThread.setCallTimeout(AtspiBridge.PROBE_TIMEOUT_MILLIS);
        try {
            Pointer rect = comp == null
                    ? null
                    : Atspi.atspi_component_get_extents(comp, AtspiNative.COORD_SCREEN, calls.err());
            String e = calls.takeError();
            if (rect != null) Glib.g_free(rect);
            if (comp == null || e != null || rect == null) {
                throw new RefusedException(Refusal.a11yUnavailable(
                        "app pid " + pid + " is not responding to" + " accessibility calls (hung or stopped)"));
            }
            hungPids.remove(pid);
        } finally {
            AtspiThread.setCallTimeout(AtspiBridge.CALL_TIMEOUT_MILLIS);
            if (comp != null) Gobject.g_object_unref(comp);
        }
    }
}

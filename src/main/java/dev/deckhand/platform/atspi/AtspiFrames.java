package dev.deckhand.platform.atspi;

import com.sun.jna.Pointer;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.platform.atspi.AtspiNative.Atspi;
import dev.deckhand.platform.atspi.AtspiNative.Glib;
import dev.deckhand.platform.atspi.AtspiNative.Gobject;
import java.util.ArrayList;
import java.util.List;

/**
 * The top-level accessibles (frames, dialogs) of every application on the bus: on Wayland there is no
 * global window list, so the bus is the only one. Each frame is named by its route (the application's
 * unique bus name and the object path), which stays the same when the title changes. An application
 * flagged hung is skipped, not waited for, until a short probe finds it answering again. libatspi thread
 * only.
 */
final class AtspiFrames {

    private final AtspiCalls calls;
    private final AtspiBus bus;
    private final PipelinedCalls pipeline = new PipelinedCalls();

    AtspiFrames(AtspiCalls calls, AtspiBus bus) {
        this.calls = calls;
        this.bus = bus;
    }

    List<BusFrame> list() {
        List<BusFrame> out = new ArrayList<>();
        bus.forEachApp(app -> {
            int pid = bus.pidOf(app);
            // A hung app is skipped, and probed now and then (answersAgain) so a continued app's frames return.
            if (pid <= 0 || (bus.hung(pid) && !bus.answersAgain(pid, app))) return false;
            long t0 = System.nanoTime();
            String appName = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(app, calls.err()));
            calls.dropError();
            boolean gtk4 = bus.toolkit(app).gtk4();
            int n = Atspi.atspi_accessible_get_child_count(app, calls.err());
            calls.dropError();
            for (int i = 0; i < n; i++) {
                if (System.nanoTime() - t0 > AtspiCalls.HUNG_NANOS) {
                    bus.flagHung(pid);
                    break;
                }
                Pointer top = Atspi.atspi_accessible_get_child_at_index(app, i, calls.err());
                calls.dropError();
                if (top == null) continue;
                try {
                    BusFrame f = frame(top, pid, appName == null ? "" : appName, gtk4);
                    if (f != null) out.add(f);
                } finally {
                    Gobject.g_object_unref(top);
                }
            }
            return false;
        });
        return List.copyOf(out);
    }

    private BusFrame frame(Pointer top, int pid, String appName, boolean gtk4) {
        PipelinedCalls.Route route = PipelinedCalls.route(top);
        if (route == null) return null;
        String role = calls.roleOf(top);
        String name = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(top, calls.err()));
        calls.dropError();
        boolean showing = gtk4;
        Pointer states = Atspi.atspi_accessible_get_state_set(top);
        if (states != null) {
            showing |= Atspi.atspi_state_set_contains(states, AtspiNative.STATE_SHOWING) != 0;
            Gobject.g_object_unref(states);
        }
        int width = 0;
        int height = 0;
        Pointer comp = Atspi.atspi_accessible_get_component_iface(top);
        if (comp != null) {
            Pointer rect = Atspi.atspi_component_get_extents(comp, AtspiNative.COORD_SCREEN, calls.err());
            calls.dropError();
            if (rect != null) {
                width = Math.max(0, rect.getInt(8));
                height = Math.max(0, rect.getInt(12));
                Glib.g_free(rect);
            }
            Gobject.g_object_unref(comp);
        }
        return new BusFrame(
                pid,
                appName,
                route.busName(),
                route.path(),
                role,
                name == null ? "" : name,
                width,
                height,
                gtk4,
                showing);
    }

    private static final java.time.Duration RETITLE_LAG = java.time.Duration.ofMillis(500);

    private static final java.time.Duration RETITLE_POLL = java.time.Duration.ofMillis(50);

    private static void pause(java.time.Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RefusedException(Refusal.a11yUnavailable("interrupted while a window's title settled"));
        }
    }

    /** {@link #find(int, String, BusFrame)} by title, for the menus' read. */
    Pointer frame(int pid, String title) {
        return find(pid, title, null);
    }

    /**
     * The only top-level accessible of app {@code pid} named {@code title} (or at {@code route}, when one is given),
     * referenced. Names come from libatspi's cache; when none matches, they are read once more from the app itself,
     * since some toolkits (Qt 5) do not announce a changed window title, e.g. the {@code *} of an unsaved document,
     * and the cached name stays the old one.
     */
    Pointer find(int pid, String title, BusFrame route) {
        List<Pointer> apps = bus.appsOf(pid);
        if (apps.isEmpty()) {
            throw new RefusedException(Refusal.a11yUnavailable(AtspiBridge.NOT_REGISTERED + pid
                    + " (not registered on the accessibility bus, exited, or in another PID namespace)"));
        }
        try {
            Pointer frame = findOnce(apps, pid, title, route, false, false);
            if (frame != null && route == null && !namedNow(frame, title)) {
                // a name libatspi kept that is no longer that window's (Qt announces no retitle): every name afresh
                Gobject.g_object_unref(frame);
                frame = null;
            }
            // Chromium's window's accessible name follows its X title a moment later (a page that sets its title):
            // asked again from the app for up to RETITLE_LAG before the window counts as gone. Only there: any other
            // app is refused after one fresh read, as a stopped one must be within its bound.
            AtspiBus.Toolkit known = bus.knownToolkit(pid);
            boolean lags = route == null && known != null && known.chromium();
            long deadline = System.nanoTime() + RETITLE_LAG.toNanos();
            while (frame == null) {
                boolean last = !lags || System.nanoTime() > deadline;
                frame = findOnce(apps, pid, title, route, true, last);
                if (frame == null) pause(RETITLE_POLL);
            }
            return frame;
        } finally {
            apps.forEach(Gobject::g_object_unref);
        }
    }

    /**
     * Whether the frame found by its cached name carries {@code title} as the app names it now (one call, past the
     * cache). Round 16: two FeatherPad windows, the other one retitled to the granted window's title while its own
     * cached name stayed the old one, were read as the granted window: the cache named the wrong frame.
     */
    private boolean namedNow(Pointer frame, String title) {
        PipelinedCalls.Route r = PipelinedCalls.route(frame);
        if (r == null) return false;
        return title.equals(
                pipeline.names(List.of(r), AtspiBridge.CALL_TIMEOUT_MILLIS).get(0));
    }

    /**
     * One pass of {@link #find(int, String, BusFrame)}: null when no name (or route, when one is given)
     * matched, a refusal when several did.
     */
    private Pointer findOnce(List<Pointer> apps, int pid, String title, BusFrame route, boolean fresh, boolean last) {
        List<Pointer> matches = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        long t0 = System.nanoTime();
        for (Pointer app : apps) {
            int n = Atspi.atspi_accessible_get_child_count(app, calls.err());
            calls.dropError();
            for (int i = 0; i < n; i++) {
                Pointer top = Atspi.atspi_accessible_get_child_at_index(app, i, calls.err());
                calls.dropError();
                if (top == null) continue;
                if (fresh) CacheClear.clear(top);
                String name = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(top, calls.err()));
                calls.dropError();
                seen.add(name == null ? "" : name);
                if (route != null ? route.is(PipelinedCalls.route(top)) : title.equals(name)) {
                    matches.add(top);
                } else {
                    Gobject.g_object_unref(top);
                }
                if (System.nanoTime() - t0 > AtspiCalls.HUNG_NANOS) {
                    // The app's window list is not cached and it does not answer.
                    bus.flagHung(pid);
                    matches.forEach(Gobject::g_object_unref);
                    throw new RefusedException(Refusal.a11yUnavailable("app pid " + pid
                            + " is not responding to accessibility calls (hung or stopped: listing its windows)"));
                }
            }
        }
        if (matches.size() == 1) return matches.get(0);
        matches.forEach(Gobject::g_object_unref);
        if (matches.isEmpty() && !last) return null;
        if (matches.isEmpty()) {
            // the titles are the app's: the detail counts them, it does not list them
            throw new RefusedException(Refusal.a11yUnavailable("app pid " + pid + " exposes no window "
                    + (route != null
                            ? "at " + route.path() + " (it was closed)"
                            : "with the granted window's title (" + title.length() + " characters)")
                    + " (it has " + seen.size() + " other window"
                    + (seen.size() == 1 ? "" : "s") + ")"));
        }
        throw new RefusedException(Refusal.a11yUnavailable(matches.size() + " windows of pid " + pid
                + " have the granted window's title; refusing to guess which one is granted"));
    }
}

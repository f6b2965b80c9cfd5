package dev.deckhand.platform.atspi;

import com.sun.jna.Pointer;
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
}

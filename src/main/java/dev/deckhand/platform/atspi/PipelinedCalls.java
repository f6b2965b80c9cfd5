package dev.deckhand.platform.atspi;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.deckhand.platform.atspi.AtspiNative.Dbus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code Component.GetExtents} and {@code Accessible.GetState} for many elements at once: every request is
 * written to the app's connection before the first reply is awaited, so a walk pays one round trip for all its
 * bounds instead of one per element (GTK 4 reports no showing state, so every element of a calculator needs
 * bounds; each call alone costs 0.2–0.5 ms), and for the states it asks afresh. The requests go on the connection and to the bus name
 * libatspi uses for that element, read from its {@code AtspiObject}; an element whose fields do not
 * look right is left to the caller's one-call-at-a-time path. libatspi thread only.
 */
final class PipelinedCalls {

    /** {@code AtspiObject}: {@code GObject} (24 bytes on 64-bit), then {@code app}, then {@code path}. */
    private static final long OBJECT_APP = 24;

    static final long OBJECT_PATH = 32;
    /** {@code AtspiApplication}: {@code GObject}, {@code hash}, then {@code bus_name}, then {@code bus}. */
    private static final long APP_BUS_NAME = 32;

    private static final long APP_BUS = 40;

    /** Where one element's calls go. */
    record Route(Pointer bus, String busName, String path) {}

    /** What came back for one element. */
    sealed interface Answer {
        /** The element's extents as the app reported them (the caller filters empty or negative ones). */
        record Rect(int x, int y, int width, int height) implements Answer {}

        /** An error reply other than a timeout (no Component, the element or the app gone). */
        record Failed(String error) implements Answer {}

        /** No reply within the timeout. */
        record TimedOut() implements Answer {}
    }

    private final Memory iter = new Memory(Dbus.ITER_SIZE);
    private final Memory sub = new Memory(Dbus.ITER_SIZE);
    private final Memory value = new Memory(8);
    private final Memory pendingSlot = new Memory(com.sun.jna.Native.POINTER_SIZE);

    /**
     * The bus name of the application the element belongs to, as libatspi holds it, or null when its fields do not
     * look like a live element's.
     */
    static String busName(Pointer accessible) {
        Pointer app = accessible.getPointer(OBJECT_APP);
        if (app == null) return null;
        Pointer name = app.getPointer(APP_BUS_NAME);
        return name == null ? null : name.getString(0, StandardCharsets.UTF_8.name());
    }

    /** The element's route, or null when its libatspi fields do not look like a live element's. */
    static Route route(Pointer accessible) {
        Pointer app = accessible.getPointer(OBJECT_APP);
        Pointer path = accessible.getPointer(OBJECT_PATH);
        if (app == null || path == null) return null;
        Pointer name = app.getPointer(APP_BUS_NAME);
        Pointer bus = app.getPointer(APP_BUS);
        if (name == null || bus == null) return null;
        String p = path.getString(0, StandardCharsets.UTF_8.name());
        String n = name.getString(0, StandardCharsets.UTF_8.name());
        if (!p.startsWith("/") || n.isEmpty()) return null;
        return new Route(bus, n, p);
    }

    /**
     * One answer per route, in order. Requests that could not be sent answer {@link Answer.Failed}.
     */
    List<Answer> fetch(List<Route> routes, int coordType, int timeoutMillis) {
        return call(
                routes,
                "org.a11y.atspi.Component",
                "GetExtents",
                List.of(coordType),
                timeoutMillis,
                this::read,
                new Answer.Failed("not sent"),
                new Answer.TimedOut());
    }

    /**
     * {@code Accessible.GetState} for many elements at once: each element's states as bits ({@code 1L <<
     * AtspiStateType}, as libatspi's state set holds them), or null for an element that did not answer in time or
     * answered an error.
     */
    List<Long> states(List<Route> routes, int timeoutMillis) {
        return call(
                routes, "org.a11y.atspi.Accessible", "GetState", List.of(), timeoutMillis, this::stateBits, null, null);
    }

    /**
     * Each element's accessible name as the app gives it now (the {@code Name} property), past libatspi's cache; null
     * for an element that did not answer in time or answered an error.
     */
    List<String> names(List<Route> routes, int timeoutMillis) {
        return call(
                routes,
                "org.freedesktop.DBus.Properties",
                "Get",
                List.of("org.a11y.atspi.Accessible", "Name"),
                timeoutMillis,
                this::variantString,
                null,
                null);
    }

    /**
     * Sends one call per route (its arguments {@code args}: an {@link Integer} as {@code uint32}, a {@link String} as
     * {@code string}) before awaiting the first reply; each reply read by {@code read}, {@code notSent} and
     * {@code noReply} where there is none.
     */
    private <T> List<T> call(
            List<Route> routes,
            String iface,
            String method,
            List<Object> args,
            int timeoutMillis,
            java.util.function.Function<Pointer, T> read,
            T notSent,
            T noReply) {
        Pointer[] pending = new Pointer[routes.size()];
        List<Pointer> buses = new ArrayList<>();
        for (int i = 0; i < routes.size(); i++) {
            Route r = routes.get(i);
            Pointer message = Dbus.dbus_message_new_method_call(r.busName(), r.path(), iface, method);
            if (message == null) continue;
            boolean ok = true;
            Dbus.dbus_message_iter_init_append(message, iter);
            for (Object arg : args) {
                if (arg instanceof Integer number) {
                    value.setInt(0, number);
                    ok &= Dbus.dbus_message_iter_append_basic(iter, Dbus.TYPE_UINT32, value) != 0;
                } else {
                    Memory text = new Memory(((String) arg).getBytes(StandardCharsets.UTF_8).length + 1L);
                    text.setString(0, (String) arg, StandardCharsets.UTF_8.name());
                    value.setPointer(0, text); // libdbus copies the string before this returns
                    ok &= Dbus.dbus_message_iter_append_basic(iter, Dbus.TYPE_STRING, value) != 0;
                }
            }
            pendingSlot.setPointer(0, null);
            if (ok) ok = Dbus.dbus_connection_send_with_reply(r.bus(), message, pendingSlot, timeoutMillis) != 0;
            Dbus.dbus_message_unref(message);
            if (ok) pending[i] = pendingSlot.getPointer(0);
            if (!buses.contains(r.bus())) buses.add(r.bus());
        }
        for (Pointer bus : buses) Dbus.dbus_connection_flush(bus);
        List<T> answers = new ArrayList<>(routes.size());
        for (Pointer p : pending) {
            if (p == null) {
                answers.add(notSent);
                continue;
            }
            Dbus.dbus_pending_call_block(p);
            Pointer reply = Dbus.dbus_pending_call_steal_reply(p);
            Dbus.dbus_pending_call_unref(p);
            if (reply == null) {
                answers.add(noReply);
                continue;
            }
            try {
                answers.add(read.apply(reply));
            } finally {
                Dbus.dbus_message_unref(reply);
            }
        }
        return answers;
    }

    /** A {@code Properties.Get} reply holding a string ({@code v} of {@code s}), or null for an error or another type. */
    private String variantString(Pointer reply) {
        if (Dbus.dbus_message_get_type(reply) != Dbus.MESSAGE_TYPE_METHOD_RETURN
                || Dbus.dbus_message_iter_init(reply, iter) == 0
                || Dbus.dbus_message_iter_get_arg_type(iter) != Dbus.TYPE_VARIANT) {
            return null;
        }
        Dbus.dbus_message_iter_recurse(iter, sub);
        if (Dbus.dbus_message_iter_get_arg_type(sub) != Dbus.TYPE_STRING) return null;
        value.setPointer(0, null);
        Dbus.dbus_message_iter_get_basic(sub, value);
        Pointer text = value.getPointer(0);
        return text == null ? null : text.getString(0, StandardCharsets.UTF_8.name());
    }

    /** A {@code GetState} reply ({@code au}: the low and the high 32 states) as bits, or null for an error. */
    private Long stateBits(Pointer reply) {
        if (Dbus.dbus_message_get_type(reply) != Dbus.MESSAGE_TYPE_METHOD_RETURN
                || Dbus.dbus_message_iter_init(reply, iter) == 0
                || Dbus.dbus_message_iter_get_arg_type(iter) != Dbus.TYPE_ARRAY) {
            return null;
        }
        Dbus.dbus_message_iter_recurse(iter, sub);
        long bits = 0;
        for (int k = 0; k < 2; k++) {
            if (Dbus.dbus_message_iter_get_arg_type(sub) != Dbus.TYPE_UINT32) return null;
            value.setInt(0, 0);
            Dbus.dbus_message_iter_get_basic(sub, value);
            bits |= (value.getInt(0) & 0xffffffffL) << (32 * k);
            Dbus.dbus_message_iter_next(sub);
        }
        return bits;
    }

    private Answer read(Pointer reply) {
        if (Dbus.dbus_message_get_type(reply) != Dbus.MESSAGE_TYPE_METHOD_RETURN) {
            Pointer name = Dbus.dbus_message_get_error_name(reply);
            String error = name == null ? "error" : name.getString(0);
            return error.endsWith(".NoReply") || error.endsWith(".Timeout") || error.endsWith(".TimedOut")
                    ? new Answer.TimedOut()
                    : new Answer.Failed(error);
        }
        if (Dbus.dbus_message_iter_init(reply, iter) == 0
                || Dbus.dbus_message_iter_get_arg_type(iter) != Dbus.TYPE_STRUCT) {
            return new Answer.Failed("reply is not (iiii)");
        }
        Dbus.dbus_message_iter_recurse(iter, sub);
        int[] v = new int[4];
        for (int k = 0; k < 4; k++) {
            if (Dbus.dbus_message_iter_get_arg_type(sub) != Dbus.TYPE_INT32)
                return new Answer.Failed("reply is not (iiii)");
            value.setInt(0, 0);
            Dbus.dbus_message_iter_get_basic(sub, value);
            v[k] = value.getInt(0);
            Dbus.dbus_message_iter_next(sub);
        }
        return new Answer.Rect(v[0], v[1], v[2], v[3]);
    }
}

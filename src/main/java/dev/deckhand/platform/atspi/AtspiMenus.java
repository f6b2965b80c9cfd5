package dev.deckhand.platform.atspi;

import com.sun.jna.Pointer;
import dev.deckhand.grant.Accelerators;
import dev.deckhand.grant.ProposedAction;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.platform.atspi.AtspiNative.Atspi;
import dev.deckhand.platform.atspi.AtspiNative.Gobject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;

/**
 * The keyboard accelerators of a window's menu items, read from the accessibility tree: a chord sent to
 * the window that is one runs its item wherever the focus is, so the policy judges it as a click on that
 * item ({@link Accelerators}). Menus are read whether they are showing or not (a collapsed menu's items
 * are what an accelerator runs): first the window's menu bars are found breadth-first among its
 * shallowest {@value #SEARCH_CAP} elements, then every element under each is read, up to
 * {@value #ITEM_CAP} elements. An element whose role is a menu item's gives its Action interface's key
 * bindings ({@code GetKeyBinding} of each action).
 *
 * <p>What the toolkits show (measured in Xvfb, docs/security.md): GTK 3 gives each menu item
 * {@code mnemonic;path;accelerator} ({@code s;<Alt>f:s;<Primary>s}); Qt 5 gives {@code Ctrl+S} for an
 * item's shortcut and {@code Alt+F} for a menu's mnemonic; GTK 4 has no menu bar in its usual windows and
 * shows none of its shortcuts. {@link Accelerators.State#UNREADABLE} — a {@code ctrl} chord there cannot be
 * judged — for a GTK 4 window that shows no binding, a window whose menu items show no binding at all, and a
 * read that ran out of time or cap. libatspi thread only.
 */
final class AtspiMenus {

    /**
     * How long one read may take: LibreOffice Calc's 93 accelerators took 1.3 s on a loaded machine (GTK 3
     * mousepad 70-180 ms); a read cut short refuses ctrl chords it did not reach.
     */
    static final java.time.Duration BUDGET = java.time.Duration.ofMillis(3000);

    /** Elements looked at to find the menu bars (they sit near the window's root). */
    static final int SEARCH_CAP = 400;
    /** Elements read under the menu bars. */
    static final int ITEM_CAP = 3000;
    /** Roles whose elements an accelerator may run. */
    static final Set<String> ITEM_ROLES =
            Set.of("menu item", "check menu item", "radio menu item", "menu", "tearoff menu item");

    private final AtspiCalls calls;
    private final AtspiBus bus;
    private final AtspiFrames frames;

    AtspiMenus(AtspiCalls calls, AtspiBus bus, AtspiFrames frames) {
        this.calls = calls;
        this.bus = bus;
        this.frames = frames;
    }

    /** See {@link AtspiBridge#accelerators(int, String)}. */
    Accelerators read(int pid, String title) {
        Pointer frame = frames.frame(pid, title);
        if (bus.hung(pid)) {
            // as the snapshot does: one short probe, so an app that was only busy is read again once it answers
            try {
                bus.probe(pid, frame);
            } catch (RefusedException stillSilent) {
                Gobject.g_object_unref(frame);
                throw stillSilent;
            }
        }
        long t0 = System.nanoTime();
        long deadline = t0 + BUDGET.toNanos();
        List<Pointer> bars = new ArrayList<>();
        List<Accelerators.Binding> bindings = new ArrayList<>();
        int[] items = {0};
        boolean cut = false;
        boolean gtk4;
        try {
            gtk4 = bus.toolkitOf(pid, frame).gtk4();
            cut = findBars(frame, pid, deadline, bars);
            for (Pointer bar : bars) {
                if (cut) break;
                cut = readItems(bar, pid, deadline, bindings, items);
            }
        } catch (AtspiCalls.HungException e) {
            bus.flagHung(pid);
            throw new RefusedException(Refusal.a11yUnavailable("app pid " + pid
                    + " is not responding to accessibility calls (hung or stopped: " + e.getMessage() + ")"));
        } finally {
            bars.forEach(Gobject::g_object_unref);
            Gobject.g_object_unref(frame);
        }
        Accelerators read = Accelerators.read(bindings, items[0]);
        // a read cut short may have missed the item a chord runs: as unreadable, so a ctrl chord not found is
        // refused; GTK 4 shows no shortcut of its shortcut controllers and popover menus over AT-SPI (measured)
        return cut || gtk4 && bindings.isEmpty() ? new Accelerators(read.items(), Accelerators.State.UNREADABLE) : read;
    }

    /** Breadth-first from the frame: the menu bars (referenced) into {@code bars}; true when cut short. */
    private boolean findBars(Pointer frame, int pid, long deadline, List<Pointer> bars) {
        Deque<Pointer> queue = new ArrayDeque<>();
        queue.add(Gobject.g_object_ref(frame));
        int seen = 0;
        try {
            while (!queue.isEmpty()) {
                if (System.nanoTime() > deadline) return true;
                Pointer p = queue.poll();
                if (seen++ >= SEARCH_CAP) {
                    Gobject.g_object_unref(p);
                    break;
                }
                if (role(p, pid).equals("menu bar")) {
                    bars.add(p);
                    continue;
                }
                try {
                    queue.addAll(children(p, pid));
                } finally {
                    Gobject.g_object_unref(p);
                }
            }
        } finally {
            queue.forEach(Gobject::g_object_unref);
        }
        return false;
    }

    /** Every element under {@code bar}, showing or not; true when cut short. */
    private boolean readItems(Pointer bar, int pid, long deadline, List<Accelerators.Binding> out, int[] items) {
        Deque<Pointer> stack = new ArrayDeque<>();
        pushAll(stack, children(bar, pid));
        int read = 0;
        try {
            while (!stack.isEmpty()) {
                if (System.nanoTime() > deadline || read++ >= ITEM_CAP) return true;
                Pointer p = stack.pop();
                try {
                    String role = role(p, pid);
                    if (ITEM_ROLES.contains(role)) {
                        List<String> b = bindings(p, pid);
                        if (!role.equals("menu")) items[0]++;
                        if (!b.isEmpty()) {
                            long t = System.nanoTime();
                            String name = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(p, calls.err()));
                            calls.dropError();
                            AtspiCalls.guard(pid, "get_name", t);
                            // judged as a click on the item: its description (a tooltip) is a text it shows, as in
                            // the tree (libatspi's cache when the app fills it, else one call, bounded as the name's)
                            long d = System.nanoTime();
                            String description =
                                    AtspiCalls.takeString(Atspi.atspi_accessible_get_description(p, calls.err()));
                            calls.dropError();
                            AtspiCalls.guard(pid, "get_description", d);
                            ProposedAction.Element item = new ProposedAction.Element(
                                    role,
                                    name == null ? "" : name,
                                    false,
                                    false,
                                    false,
                                    description == null || description.isEmpty()
                                            ? List.of()
                                            : List.of(
                                                    description.length() > AtspiBridge.SHOWN_CAP
                                                            ? description.substring(0, AtspiBridge.SHOWN_CAP)
                                                            : description));
                            for (String s : b) out.add(new Accelerators.Binding(item, s));
                        }
                    }
                    pushAll(stack, children(p, pid));
                } finally {
                    Gobject.g_object_unref(p);
                }
            }
        } finally {
            stack.forEach(Gobject::g_object_unref);
        }
        return false;
    }

    /** Pushed so that the first comes out first. */
    private static void pushAll(Deque<Pointer> stack, List<Pointer> kids) {
        for (int i = kids.size() - 1; i >= 0; i--) stack.push(kids.get(i));
    }

    private String role(Pointer p, int pid) {
        long t = System.nanoTime();
        int r = Atspi.atspi_accessible_get_role(p, calls.err());
        calls.dropError();
        AtspiCalls.guard(pid, "get_role", t);
        return calls.roleName(r);
    }

    /** The children of {@code p}, referenced, in document order. */
    private List<Pointer> children(Pointer p, int pid) {
        long t = System.nanoTime();
        int n = Atspi.atspi_accessible_get_child_count(p, calls.err());
        calls.dropError();
        AtspiCalls.guard(pid, "get_child_count", t);
        List<Pointer> kids = new ArrayList<>();
        for (int i = 0; i < n && i < ITEM_CAP; i++) {
            Pointer c = Atspi.atspi_accessible_get_child_at_index(p, i, calls.err());
            calls.dropError();
            if (c != null) kids.add(c);
            AtspiCalls.guard(pid, "get_child_at_index", t);
        }
        return kids;
    }

    /** The non-blank key bindings of the element's actions. */
    private List<String> bindings(Pointer p, int pid) {
        Pointer action = Atspi.atspi_accessible_get_action_iface(p);
        if (action == null) return List.of();
        try {
            long t = System.nanoTime();
            int n = Atspi.atspi_action_get_n_actions(action, calls.err());
            calls.dropError();
            List<String> out = new ArrayList<>();
            for (int i = 0; i < n && i < 8; i++) {
                String b = AtspiCalls.takeString(Atspi.atspi_action_get_key_binding(action, i, calls.err()));
                calls.dropError();
                AtspiCalls.guard(pid, "get_key_binding", t);
                if (b != null && !b.isBlank()) out.add(b);
            }
            return out;
        } finally {
            Gobject.g_object_unref(action);
        }
    }
}

package dev.deckhand.platform.atspi;

import com.sun.jna.Pointer;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.platform.atspi.AtspiNative.Atspi;
import dev.deckhand.platform.atspi.AtspiNative.Gobject;
import dev.deckhand.platform.atspi.RevisionUids.Bound;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Acting on one element by its uid: click (the element's first click-like action), set its text, give
 * it focus, select an option, scroll its scroll bar, read its text. Before every action the uid must be
 * of the current revision, its app not flagged hung and still running, and the element not defunct;
 * an action the element cannot take is {@code PLATFORM_UNSUPPORTED}, one the app refuses or times out
 * on is {@code A11Y_UNAVAILABLE}. libatspi thread only: it lives inside the bridge's {@link Confined}
 * state.
 */
final class AtspiActions {

    /**
     * Click-like action names, in order of preference. Qt 5 gives a menu bar's menu only {@code ShowMenu} (no press):
     * for an element with no other, opening its menu is what a click on it does.
     */
    private static final List<String> CLICK_ACTIONS =
            List.of("click", "press", "activate", "toggle", "jump", "showmenu");
    /** The roles of GTK 4's GtkButton family, whose click GTK 4 applies {@link AtspiBus#ACTIVATE_DELAY} later. */
    private static final List<String> DELAYED_ROLES = List.of("push button", "toggle button");

    private final AtspiCalls calls;
    private final AtspiBus bus;
    private final RevisionUids uids;

    AtspiActions(AtspiCalls calls, AtspiBus bus, RevisionUids uids) {
        this.calls = calls;
        this.bus = bus;
        this.uids = uids;
    }

    /**
     * The element {@code uid} stands for, once it may be acted on.
     *
     * @throws RefusedException {@code OUT_OF_SCOPE} for a uid not of the current revision;
     *     {@code A11Y_UNAVAILABLE} when its app is flagged hung or has exited, or the element is defunct
     */
    private Bound target(String uid) {
        Bound b = uids.get(uid);
        if (bus.hung(b.pid())) throw hungRefusal(b);
        if (!ProcessHandle.of(b.pid()).map(ProcessHandle::isAlive).orElse(false)) {
            throw new RefusedException(Refusal.a11yUnavailable("app pid " + b.pid() + " has exited"));
        }
        if (calls.hasState(b.obj(), AtspiNative.STATE_DEFUNCT)) {
            throw new RefusedException(Refusal.a11yUnavailable(b.describe() + " no longer exists"));
        }
        bus.acting(b.obj());
        return b;
    }

    /** See {@link AtspiBridge#click(String)}. */
    void click(String uid) {
        Bound b = target(uid);
        refuseIfRenamed(b);
        Pointer action = Atspi.atspi_accessible_get_action_iface(b.obj());
        if (action == null) throw unsupported(b, "offers no Action interface to click");
        try {
            long t0 = System.nanoTime();
            List<String> names = actionNames(action, call -> checkActError(b, call, t0));
            int index = -1;
            for (int w = 0; w < CLICK_ACTIONS.size() && index < 0; w++) index = indexOf(names, CLICK_ACTIONS.get(w));
            if (index < 0) throw unsupported(b, "offers no click action (its actions: " + names + ")");
            if (DELAYED_ROLES.contains(b.role()) && bus.knownGtk4(b.pid())) bus.activating();
            int ok = Atspi.atspi_action_do_action(action, index, calls.err());
            checkActError(b, "do_action(" + names.get(index) + ")", t0);
            if (ok == 0) throw refusedBy(b, "do_action(" + names.get(index) + ")");
            if (names.get(index).equalsIgnoreCase("press") && LEAF_ITEM_ROLES.contains(b.role())) {
                closeQtMenuLeftOpen(b);
            }
        } finally {
            Gobject.g_object_unref(action);
        }
    }

    /**
     * The names of {@code action}'s actions in order ("" for an unnamed one); {@code checked} runs after each call,
     * with the call's name, to check or drop its error.
     */
    private List<String> actionNames(Pointer action, Consumer<String> checked) {
        int n = Atspi.atspi_action_get_n_actions(action, calls.err());
        checked.accept("get_n_actions");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String an = AtspiCalls.takeString(Atspi.atspi_action_get_action_name(action, i, calls.err()));
            checked.accept("get_action_name");
            names.add(an == null ? "" : an);
        }
        return names;
    }

    /** The first of {@code names} equal to {@code wanted}, ignoring case; -1 if none. */
    private static int indexOf(List<String> names, String wanted) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(wanted)) return i;
        }
        return -1;
    }

    /** Roles of a menu's items that run a command (not a submenu). */
    private static final Set<String> LEAF_ITEM_ROLES = Set.of("menu item", "check menu item", "radio menu item");

    /**
     * A person's click on a menu's item runs it and closes the menu; Qt 5's {@code Press} on an item of a popup
     * menu only triggers its action ({@code QAccessibleMenuItem::doAction}) and leaves the menu open, holding the
     * keyboard, so the model's next click on the same menu bar item ({@code ShowMenu}, which toggles) closed it
     * and the model saw no items (issue 28, featherpad's Edit menu opened a second time). When the pressed item's
     * parent is a popup menu that still shows, the menu bar item it hangs from gets its {@code ShowMenu}, which hides
     * an open menu: the menu closes as after a person's click. The states are asked of the app, past libatspi's cache.
     */
    private void closeQtMenuLeftOpen(Bound b) {
        Pointer popup = Atspi.atspi_accessible_get_parent(b.obj(), calls.err());
        calls.dropError();
        if (popup == null) return;
        Pointer owner = null;
        Pointer bar = null;
        try {
            if (!calls.roleOf(popup).equals("popup menu")) return;
            // the top popup of a submenu chain: its parent is the menu bar's item
            while (true) {
                owner = Atspi.atspi_accessible_get_parent(popup, calls.err());
                calls.dropError();
                if (owner == null) return;
                bar = Atspi.atspi_accessible_get_parent(owner, calls.err());
                calls.dropError();
                if (bar == null) return;
                String barRole = calls.roleOf(bar);
                if (barRole.equals("menu bar")) break;
                if (!barRole.equals("popup menu")) return;
                Gobject.g_object_unref(popup);
                Gobject.g_object_unref(owner);
                popup = bar;
                owner = null;
                bar = null;
            }
            CacheClear.clear(popup);
            if (!calls.hasState(popup, AtspiNative.STATE_SHOWING)) return;
            Pointer ownerAction = Atspi.atspi_accessible_get_action_iface(owner);
            if (ownerAction == null) return;
            try {
                int i = indexOf(actionNames(ownerAction, call -> calls.dropError()), "showmenu");
                if (i < 0) return;
                Atspi.atspi_action_do_action(ownerAction, i, calls.err());
                calls.dropError();
            } finally {
                Gobject.g_object_unref(ownerAction);
            }
        } finally {
            Gobject.g_object_unref(popup);
            if (owner != null) Gobject.g_object_unref(owner);
            if (bar != null) Gobject.g_object_unref(bar);
        }
    }

    /**
     * Refuses a press of an element whose name is no longer the one the last walk read, which the consequential gate
     * judged it by (round 15's F1: a page's timer renamed a button to "Delete account" between the step's check and
     * its press). The name is asked of the app itself, past libatspi's cache, right before the press: what is left is
     * the time between this call and the press, not the time since the walk.
     */
    private void refuseIfRenamed(Bound b) {
        CacheClear.clear(b.obj());
        long t0 = System.nanoTime();
        String now = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(b.obj(), calls.err()));
        checkActError(b, "get_name", t0);
        if (now != null && !now.equals(b.name())) {
            throw new RefusedException(Refusal.outOfScope(b.describe() + " was renamed since it was read (its name now"
                    + " has " + now.length() + " characters): refusing to press what was not judged"));
        }
        // round 17's C3, C4: the text a button shows, or its title, changed while its name stayed
        String description = AtspiCalls.takeString(Atspi.atspi_accessible_get_description(b.obj(), calls.err()));
        checkActError(b, "get_description", t0);
        if (description == null) description = "";
        if (description.length() > AtspiBridge.SHOWN_CAP) description = description.substring(0, AtspiBridge.SHOWN_CAP);
        String shown = b.shown() == null ? null : shownText(b);
        if (!description.equals(b.description()) || (shown != null && !shown.equals(b.shown()))) {
            throw new RefusedException(Refusal.outOfScope(b.describe() + " changed its shown text or description since"
                    + " it was read: refusing to press what was not judged"));
        }
    }

    /** The text a control shows through its Text interface, "" where it is its name, as the walk reads it. */
    private String shownText(Bound b) {
        String shown = calls.shownText(b.obj(), b.pid());
        return shown.equals(b.name()) ? "" : shown;
    }

    /** See {@link AtspiBridge#setText(String, String)}. */
    void setText(String uid, String text) {
        byte[] utf8 = AtspiCalls.nulTerminated(text);
        Bound b = target(uid);
        Pointer et = Atspi.atspi_accessible_get_editable_text_iface(b.obj());
        if (et == null) {
            // A value control with a value and no text to edit (Chromium's range input) takes a number as
            // its value; one that accepts it and keeps its old value (Chromium's date and time parts) is refused,
            // measured by reading the value back.
            if (!VALUE_ROLES.contains(b.role()) || !NUMBER.matcher(text.strip()).matches()) {
                throw unsupported(b, "offers no EditableText interface");
            }
            if (!setNumber(b, text)) throw unsupported(b, "offers neither EditableText nor Value");
            if (!holds(b, Double.parseDouble(text.strip().replace(',', '.')))) {
                throw unsupported(b, "offers no EditableText interface, and its Value interface kept its old value");
            }
            return;
        }
        try {
            long t0 = System.nanoTime();
            int ok = Atspi.atspi_editable_text_set_text_contents(et, utf8, calls.err());
            checkActError(b, "set_text_contents", t0);
            if (ok == 0) throw refusedBy(b, "set_text_contents");
        } finally {
            Gobject.g_object_unref(et);
        }
        if (b.role().equals("spin button")) commitNumber(b, text);
    }

    private static final Pattern NUMBER = Pattern.compile("[-+]?\\d+([.,]\\d+)?");

    /**
     * A spin button takes typed text as its value only when it is activated or loses the focus (GTK 3's
     * GtkSpinButton, Qt's QSpinBox), which an accessibility click on OK does neither: the dialog would read the
     * old value. A number set as its text is therefore also set as its value (Value {@code set_current_value}),
     * as a person leaving the field would commit it. Text that is not a plain number is left as text.
     */
    private void commitNumber(Bound b, String text) {
        if (NUMBER.matcher(text.strip()).matches()) setNumber(b, text);
    }

    /**
     * The roles whose number {@code set_text} may set through the Value interface when they have no text to edit: the
     * ones the consequential gate judges such a set on.
     */
    private static final Set<String> VALUE_ROLES = dev.deckhand.grant.ProposedAction.Element.VALUE_ROLES;

    /** Sets a plain number as the element's value; false if it has no Value interface. */
    private boolean setNumber(Bound b, String text) {
        String t = text.strip();
        Pointer v = Atspi.atspi_accessible_get_value_iface(b.obj());
        if (v == null) return false;
        try {
            long t0 = System.nanoTime();
            int ok = Atspi.atspi_value_set_current_value(v, Double.parseDouble(t.replace(',', '.')), calls.err());
            checkActError(b, "set_current_value", t0);
            if (ok == 0) throw refusedBy(b, "set_current_value");
            return true;
        } finally {
            Gobject.g_object_unref(v);
        }
    }

    /** Whether the element's value reads {@code wanted} within {@link #VALUE_SETTLE} (the renderer answers later). */
    private boolean holds(Bound b, double wanted) {
        long deadline = System.nanoTime() + VALUE_SETTLE.toNanos();
        while (true) {
            Pointer v = Atspi.atspi_accessible_get_value_iface(b.obj());
            if (v == null) return false;
            double now;
            try {
                now = Atspi.atspi_value_get_current_value(v, calls.err());
                calls.dropError();
            } finally {
                Gobject.g_object_unref(v);
            }
            if (Math.abs(now - wanted) < 1e-9) return true;
            if (System.nanoTime() > deadline) return false;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private static final java.time.Duration VALUE_SETTLE = java.time.Duration.ofMillis(1000);

    /** See {@link AtspiBridge#focus(String)}. */
    void focus(String uid) {
        Bound b = target(uid);
        Pointer comp = Atspi.atspi_accessible_get_component_iface(b.obj());
        if (comp == null) throw unsupported(b, "offers no Component interface to focus");
        try {
            long t0 = System.nanoTime();
            int ok = Atspi.atspi_component_grab_focus(comp, calls.err());
            checkActError(b, "grab_focus", t0);
            if (ok == 0) throw unsupported(b, "refused grab_focus (GTK 4 does)");
        } finally {
            Gobject.g_object_unref(comp);
        }
    }

    /**
     * See {@link AtspiBridge#select(String, String)}. The option is a child of the element, or of its one container
     * child (a combo box's menu). It is chosen through the element's Selection interface; where there is none, or
     * it refuses (Chromium's {@code <select>} shows its options as menu items under a combo box that has none, and
     * its closed menu refuses {@code select_child}), through the option's own {@code select} action, as a person
     * picks the entry.
     */
    void select(String uid, String option) {
        Bound b = target(uid);
        Pointer sel = Atspi.atspi_accessible_get_selection_iface(b.obj());
        Pointer container = null;
        try {
            Pointer parent = b.obj();
            int index = optionIndex(parent, option, b);
            if (index < 0) {
                container = singleContainerChild(b.obj());
                if (container != null) {
                    parent = container;
                    index = optionIndex(container, option, b);
                }
            }
            if (index < 0) {
                if (sel == null && container == null) throw unsupported(b, "offers no Selection interface");
                throw new RefusedException(Refusal.outOfScope(
                        b.describe() + " has no option with the given name (" + option.length() + " characters)"));
            }
            if (sel != null) {
                long t0 = System.nanoTime();
                int ok = Atspi.atspi_selection_select_child(sel, index, calls.err());
                checkActError(b, "select_child", t0);
                if (ok != 0) return;
            }
            if (!selectAction(b, parent, index)) {
                throw sel == null
                        ? unsupported(b, "offers no Selection interface, and its option no select action")
                        : refusedBy(b, "select_child(" + index + ")");
            }
        } finally {
            if (sel != null) Gobject.g_object_unref(sel);
            if (container != null) Gobject.g_object_unref(container);
        }
    }

    /** Does the {@code select} action of {@code parent}'s child {@code index}; false if it has none. */
    private boolean selectAction(Bound b, Pointer parent, int index) {
        Pointer child = Atspi.atspi_accessible_get_child_at_index(parent, index, calls.err());
        calls.dropError();
        if (child == null) return false;
        Pointer action = Atspi.atspi_accessible_get_action_iface(child);
        try {
            if (action == null) return false;
            long t0 = System.nanoTime();
            int i = indexOf(actionNames(action, call -> checkActError(b, call, t0)), "select");
            if (i < 0) return false;
            int ok = Atspi.atspi_action_do_action(action, i, calls.err());
            checkActError(b, "do_action(select)", t0);
            if (ok == 0) throw refusedBy(b, "the option's do_action(select)");
            return true;
        } finally {
            if (action != null) Gobject.g_object_unref(action);
            Gobject.g_object_unref(child);
        }
    }

    private int optionIndex(Pointer parent, String option, Bound b) {
        int n = Atspi.atspi_accessible_get_child_count(parent, calls.err());
        calls.dropError();
        int found = -1;
        for (int i = 0; i < n; i++) {
            Pointer c = Atspi.atspi_accessible_get_child_at_index(parent, i, calls.err());
            calls.dropError();
            if (c == null) continue;
            String name = AtspiCalls.takeString(Atspi.atspi_accessible_get_name(c, calls.err()));
            calls.dropError();
            boolean says = option.equals(name) && showsOtherThanItsName(c, name, b);
            Gobject.g_object_unref(c);
            if (says) {
                throw new RefusedException(Refusal.outOfScope(b.describe() + "'s option with the given name ("
                        + option.length() + " characters) shows other text or a description: the consequential"
                        + " gate judged its name alone; refusing"));
            }
            if (option.equals(name)) {
                if (found >= 0) {
                    throw new RefusedException(
                            Refusal.outOfScope(b.describe() + " has several options with the given name ("
                                    + option.length() + " characters); refusing to guess"));
                }
                found = i;
            }
        }
        return found;
    }

    /**
     * Whether an option shows text other than its name (its Text interface) or carries a description: the gate judges
     * a {@code select} by the option's name, which a page sets apart from what the person reads ({@code <option
     * aria-label="Blue">Pay now</option>}, an option's {@code title}; round 15's S6 and S7).
     */
    private boolean showsOtherThanItsName(Pointer option, String name, Bound b) {
        String description = AtspiCalls.takeString(Atspi.atspi_accessible_get_description(option, calls.err()));
        calls.dropError();
        if (description != null
                && !description.isBlank()
                && !description.strip().equals(name.strip())) return true;
        String shown = calls.shownText(option, b.pid());
        return !shown.isBlank() && !shown.strip().equals(name.strip());
    }

    private Pointer singleContainerChild(Pointer parent) {
        int n = Atspi.atspi_accessible_get_child_count(parent, calls.err());
        calls.dropError();
        if (n != 1) return null;
        Pointer c = Atspi.atspi_accessible_get_child_at_index(parent, 0, calls.err());
        calls.dropError();
        if (c == null) return null;
        String role = calls.roleOf(c);
        if (role.equals("menu") || role.equals("list") || role.equals("list box") || role.equals("tree")) return c;
        Gobject.g_object_unref(c);
        return null;
    }

    /** See {@link AtspiBridge#scroll(String, String, int)}. */
    void scroll(String uid, String direction, int amount) {
        boolean vertical = direction.equals("up") || direction.equals("down");
        int sign = direction.equals("up") || direction.equals("left") ? -1 : 1;
        Bound b = target(uid);
        Pointer bar = findScrollBar(b.obj(), vertical);
        if (bar == null) {
            throw unsupported(
                    b, "has no " + (vertical ? "vertical" : "horizontal") + " scroll bar with a Value interface");
        }
        try {
            Pointer v = Atspi.atspi_accessible_get_value_iface(bar);
            try {
                long t0 = System.nanoTime();
                double cur = Atspi.atspi_value_get_current_value(v, calls.err());
                double min = Atspi.atspi_value_get_minimum_value(v, calls.err());
                double max = Atspi.atspi_value_get_maximum_value(v, calls.err());
                double inc = Atspi.atspi_value_get_minimum_increment(v, calls.err());
                checkActError(b, "scroll bar value", t0);
                double step = inc > 0 ? inc : Math.max(1, (max - min) / 20);
                double target = Math.max(min, Math.min(max, cur + sign * amount * step));
                int ok = Atspi.atspi_value_set_current_value(v, target, calls.err());
                checkActError(b, "set_current_value", t0);
                if (ok == 0) throw refusedBy(b, "set_current_value on its scroll bar");
            } finally {
                Gobject.g_object_unref(v);
            }
        } finally {
            Gobject.g_object_unref(bar);
        }
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
                String role = calls.roleOf(p);
                if (role.equals("scroll bar") && orientationMatches(p, vertical)) {
                    Pointer v = Atspi.atspi_accessible_get_value_iface(p);
                    if (v != null) {
                        Gobject.g_object_unref(v);
                        found = p;
                        continue;
                    }
                }
                int n = Atspi.atspi_accessible_get_child_count(p, calls.err());
                calls.dropError();
                for (int i = 0; i < n; i++) {
                    Pointer c = Atspi.atspi_accessible_get_child_at_index(p, i, calls.err());
                    calls.dropError();
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

    /** See {@link AtspiBridge#readText(String)}. */
    Optional<String> readText(String uid) {
        Bound b = target(uid);
        if (b.role().equals("password text")) return Optional.<String>empty();
        Pointer text = Atspi.atspi_accessible_get_text_iface(b.obj());
        if (text != null) {
            try {
                return Optional.of(calls.readText(text, b.pid(), AtspiBridge.READ_CAP));
            } catch (AtspiCalls.HungException e) {
                bus.flagHung(b.pid());
                throw hungRefusal(b);
            } finally {
                Gobject.g_object_unref(text);
            }
        }
        Pointer v = Atspi.atspi_accessible_get_value_iface(b.obj());
        if (v != null) {
            try {
                long t0 = System.nanoTime();
                double d = Atspi.atspi_value_get_current_value(v, calls.err());
                checkActError(b, "get_current_value", t0);
                return Optional.of(AtspiCalls.formatNumber(d));
            } finally {
                Gobject.g_object_unref(v);
            }
        }
        return Optional.<String>empty();
    }

    /** As {@link AtspiCalls#checkError} for an action: a timeout flags the app hung and refuses; another error refuses. */
    private void checkActError(Bound b, String call, long startNanos) {
        String e = calls.takeError();
        if (e == null) return;
        if (AtspiCalls.isTimeout(e, startNanos)) {
            bus.flagHung(b.pid());
            throw hungRefusal(b);
        }
        throw new RefusedException(Refusal.a11yUnavailable(call + " on " + b.describe() + " failed: " + e));
    }

    private static RefusedException hungRefusal(Bound b) {
        return new RefusedException(Refusal.a11yUnavailable(
                "app pid " + b.pid() + " is not responding to accessibility calls (hung or stopped)"));
    }

    private static RefusedException unsupported(Bound b, String what) {
        return new RefusedException(Refusal.platformUnsupported(b.describe() + " " + what));
    }

    private static RefusedException refusedBy(Bound b, String call) {
        return new RefusedException(Refusal.a11yUnavailable("the app refused " + call + " on " + b.describe()));
    }
}

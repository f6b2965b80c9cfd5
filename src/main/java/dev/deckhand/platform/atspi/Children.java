package dev.deckhand.platform.atspi;

import com.sun.jna.Pointer;
import dev.deckhand.platform.atspi.AtspiNative.Atspi;
import dev.deckhand.platform.atspi.AtspiNative.Glib;
import dev.deckhand.platform.atspi.AtspiNative.Gobject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The children of one element as a walk may read them: never what is virtual. An element with the
 * {@code manages-descendants} state (LibreOffice Calc's sheet reports 2,147,483,647 cells; long GTK
 * lists and tables) is read through its Table interface for the visible part only — the cells between
 * the cell at its top-left and the cell at its bottom-right corner — plus its selected children
 * (the focused cell is among them); one without a Table (LibreOffice Writer's document) like any other
 * element. Any other element's children are read one by one up to a cap.
 * Every loop checks the deadline before its next native call; a cut list says so. libatspi thread only.
 */
final class Children {

    /** What one read found: referenced children in document order (the caller unrefs), and whether it was cut. */
    record Read(List<Pointer> children, boolean cut) {}

    private final AtspiCalls calls;

    Children(AtspiCalls calls) {
        this.calls = calls;
    }

    /**
     * Reads at most {@code cap} children of {@code obj} before {@code deadline} (nanoTime).
     *
     * @throws AtspiCalls.HungException when a call times out or is slower than a responsive app
     */
    Read of(Pointer obj, int pid, int cap, long deadline) {
        return of(obj, pid, cap, deadline, true);
    }

    /**
     * As {@link #of(Pointer, int, int, long)}; {@code cells} false reads only the selected children of a
     * table that manages its descendants (the focus search: the focused cell is selected).
     */
    Read of(Pointer obj, int pid, int cap, long deadline, boolean cells) {
        if (calls.hasState(obj, AtspiNative.STATE_MANAGES_DESCENDANTS)) {
            Pointer table = Atspi.atspi_accessible_get_table_iface(obj);
            if (table != null) {
                try {
                    return visible(obj, table, pid, cap, deadline, cells);
                } finally {
                    Gobject.g_object_unref(table);
                }
            }
            // No table (LibreOffice Writer's document lists its visible paragraphs): its first children,
            // never more than the cap, as any other element's.
        }
        return indexed(obj, pid, cap, deadline);
    }

    private Read indexed(Pointer obj, int pid, int cap, long deadline) {
        long t0 = System.nanoTime();
        int count = Atspi.atspi_accessible_get_child_count(obj, calls.err());
        calls.checkError(pid, "get_child_count", t0);
        AtspiCalls.guard(pid, "get_child_count", t0);
        List<Pointer> out = new ArrayList<>(Math.max(0, Math.min(count, cap)));
        boolean cut = count > cap;
        try {
            for (int i = 0; i < count && out.size() < cap; i++) {
                if (System.nanoTime() > deadline) {
                    cut = true;
                    break;
                }
                long t1 = System.nanoTime();
                Pointer child = Atspi.atspi_accessible_get_child_at_index(obj, i, calls.err());
                String e = calls.takeError();
                if (child != null) out.add(child);
                if (System.nanoTime() - t1 > AtspiCalls.HUNG_NANOS
                        || (child == null && e != null && AtspiCalls.isTimeout(e, t1))) {
                    throw new AtspiCalls.HungException(
                            "get_child_at_index of pid " + pid + (e != null ? ": " + e : " took over 800 ms"));
                }
            }
        } catch (RuntimeException e) {
            out.forEach(Gobject::g_object_unref);
            throw e;
        }
        return new Read(out, cut);
    }

    /**
     * The visible cells of a {@code manages-descendants} element and its selected children, each once,
     * in row-major order (the selected ones outside the view after them).
     */
    private Read visible(Pointer obj, Pointer table, int pid, int cap, long deadline, boolean cells) {
        Map<Long, Pointer> found = new LinkedHashMap<>();
        boolean cut = false;
        try {
            int[] corners = cells ? visibleCells(obj, table, pid) : null;
            if (corners != null) {
                rows:
                for (int r = corners[0]; r <= corners[2]; r++) {
                    for (int c = corners[1]; c <= corners[3]; c++) {
                        if (found.size() >= cap || System.nanoTime() > deadline) {
                            cut = true;
                            break rows;
                        }
                        long t0 = System.nanoTime();
                        Pointer cell = Atspi.atspi_table_get_accessible_at(table, r, c, calls.err());
                        calls.checkError(pid, "table get_accessible_at", t0);
                        AtspiCalls.guard(pid, "table get_accessible_at", t0);
                        add(found, cell);
                    }
                }
            }
            Pointer selection = Atspi.atspi_accessible_get_selection_iface(obj);
            if (selection != null) {
                try {
                    long t0 = System.nanoTime();
                    int n = Atspi.atspi_selection_get_n_selected_children(selection, calls.err());
                    calls.checkError(pid, "get_n_selected_children", t0);
                    AtspiCalls.guard(pid, "get_n_selected_children", t0);
                    // A whole selected column is a million cells: the first few are the ones that matter.
                    for (int i = 0; i < Math.min(n, SELECTED_CAP); i++) {
                        if (found.size() >= cap || System.nanoTime() > deadline) {
                            cut = true;
                            break;
                        }
                        long t1 = System.nanoTime();
                        Pointer child = Atspi.atspi_selection_get_selected_child(selection, i, calls.err());
                        calls.checkError(pid, "get_selected_child", t1);
                        AtspiCalls.guard(pid, "get_selected_child", t1);
                        add(found, child);
                    }
                    if (n > SELECTED_CAP) cut = true;
                } finally {
                    Gobject.g_object_unref(selection);
                }
            }
        } catch (RuntimeException e) {
            found.values().forEach(Gobject::g_object_unref);
            throw e;
        }
        return new Read(List.copyOf(found.values()), cut);
    }

    /** Selected children read from a {@code manages-descendants} element, at most. */
    static final int SELECTED_CAP = 64;

    /** Adds a referenced child once (the map's keys are native addresses; a duplicate is released). */
    private static void add(Map<Long, Pointer> found, Pointer child) {
        if (child == null) return;
        if (found.putIfAbsent(Pointer.nativeValue(child), child) != null) Gobject.g_object_unref(child);
    }

    /**
     * {first row, first column, last row, last column} of the cells visible in {@code obj}: the cells
     * at its top-left and bottom-right corners, found by {@code get_accessible_at_point}; null when
     * either cannot be found.
     */
    private int[] visibleCells(Pointer obj, Pointer table, int pid) {
        Pointer comp = Atspi.atspi_accessible_get_component_iface(obj);
        try {
            if (comp == null) return null;
            long t0 = System.nanoTime();
            Pointer rect = Atspi.atspi_component_get_extents(comp, AtspiNative.COORD_SCREEN, calls.err());
            calls.checkError(pid, "get_extents", t0);
            if (rect == null) return null;
            int x = rect.getInt(0);
            int y = rect.getInt(4);
            int w = rect.getInt(8);
            int h = rect.getInt(12);
            Glib.g_free(rect);
            if (w <= 0 || h <= 0) return null;
            int[] first = cellAt(comp, table, x + 1, y + 1, pid);
            int[] last = cellAt(comp, table, x + w - 2, y + h - 2, pid);
            AtspiCalls.guard(pid, "finding the visible cells", t0);
            if (first == null || last == null) return null;
            return new int[] {first[0], first[1], Math.max(first[0], last[0]), Math.max(first[1], last[1])};
        } finally {
            if (comp != null) Gobject.g_object_unref(comp);
        }
    }

    /** {row, column} of the cell at a screen point, or null. */
    private int[] cellAt(Pointer comp, Pointer table, int x, int y, int pid) {
        long t0 = System.nanoTime();
        Pointer cell = Atspi.atspi_component_get_accessible_at_point(comp, x, y, AtspiNative.COORD_SCREEN, calls.err());
        calls.checkError(pid, "get_accessible_at_point", t0);
        if (cell == null) return null;
        try {
            int index = Atspi.atspi_accessible_get_index_in_parent(cell, calls.err());
            calls.checkError(pid, "get_index_in_parent", t0);
            if (index < 0) return null;
            int row = Atspi.atspi_table_get_row_at_index(table, index, calls.err());
            calls.checkError(pid, "get_row_at_index", t0);
            int column = Atspi.atspi_table_get_column_at_index(table, index, calls.err());
            calls.checkError(pid, "get_column_at_index", t0);
            return row < 0 || column < 0 ? null : new int[] {row, column};
        } finally {
            Gobject.g_object_unref(cell);
        }
    }
}

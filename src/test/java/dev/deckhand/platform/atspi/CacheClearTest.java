package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link CacheClear} on elements laid out as {@code struct _AtspiAccessible} (only the two fields a clear
 * touches are set): it clears what libatspi's own clear clears, at the same offsets, and it ends on a cycle, where
 * libatspi's recursed until the stack was spent (gnome-text-editor's Save As dialog, GTK 4: the JVM died).
 */
@Tag("desktop")
class CacheClearTest {

    /** libatspi's own clear, called on the fake elements: it reads the children and writes the cache bits only. */
    interface Libatspi extends Library {
        Libatspi LIB = Native.load("atspi", Libatspi.class);

        void atspi_accessible_clear_cache(Pointer accessible);
    }

    private static final int SIZE = 128; // past cached_properties and priv
    private static final int CHILDREN = 48;
    private static final int CACHED = 96;
    private final List<Memory> kept = new ArrayList<>();

    private Memory element() {
        Memory m = new Memory(SIZE);
        m.clear();
        m.setInt(CACHED, 0x7fff); // every cached bit set
        kept.add(m);
        return m;
    }

    private void children(Memory parent, Memory... children) {
        Memory data = new Memory((long) Math.max(1, children.length) * Native.POINTER_SIZE);
        for (int i = 0; i < children.length; i++) data.setPointer((long) i * Native.POINTER_SIZE, children[i]);
        Memory array = new Memory(2L * Native.POINTER_SIZE); // GPtrArray: pdata, then guint len
        array.clear();
        array.setPointer(0, data);
        array.setInt(Native.POINTER_SIZE, children.length);
        kept.add(data);
        kept.add(array);
        parent.setPointer(CHILDREN, array);
    }

    /** A window, two panels, a button in the second, and a leaf beside it. */
    private List<Memory> tree() {
        Memory frame = element(), left = element(), right = element(), button = element(), leaf = element();
        children(frame, left, right);
        children(right, button, leaf);
        return List.of(frame, left, right, button, leaf);
    }

    @Test
    void clearsWhatLibatspisOwnClearClears() {
        List<Memory> theirs = tree();
        Libatspi.LIB.atspi_accessible_clear_cache(theirs.get(0));
        List<Memory> ours = tree();
        assertEquals(5, CacheClear.clear(ours.get(0)));
        for (int i = 0; i < theirs.size(); i++) {
            assertEquals(0, theirs.get(i).getInt(CACHED), "libatspi cleared element " + i + " at our offset");
            assertEquals(0, ours.get(i).getInt(CACHED), "we cleared element " + i);
        }
    }

    @Test
    void aCycleInTheCachedChildrenEnds() {
        Memory dialog = element(), pane = element(), button = element();
        children(dialog, pane);
        children(pane, button, dialog); // the dialog cached as a descendant of itself
        assertEquals(3, CacheClear.clear(dialog));
        for (Memory m : List.of(dialog, pane, button)) assertEquals(0, m.getInt(CACHED));
        assertEquals(1, CacheClear.clear(button), "an element with no cached children");
        assertEquals(0, CacheClear.clear(null));
    }
}

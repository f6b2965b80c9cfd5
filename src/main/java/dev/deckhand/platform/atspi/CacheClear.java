package dev.deckhand.platform.atspi;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

/**
 * Drops what libatspi cached of an element and of the descendants it cached, as
 * {@code atspi_accessible_clear_cache} does, but each element once. libatspi's own recurses through
 * the cached children with no check for a cycle, and GTK 4's Save As dialog (gnome-text-editor 43,
 * GTK 4.8) left one in the cache: the call recursed until the libatspi thread's stack was spent, and
 * the JVM died of SIGSEGV with no error report, its handler having no stack to run on (gdb: 419,236
 * frames of the call on a 64 MiB stack). The fields are those of {@code struct _AtspiAccessible} in
 * libatspi's public header, part of its ABI: {@code children} (a {@code GPtrArray}: its
 * {@code pdata}, then its {@code guint len}) and {@code cached_properties} (the offsets libatspi
 * 2.46's own clear uses). libatspi thread only.
 */
final class CacheClear {

    /** After {@code AtspiObject}'s {@code path} (its layout in {@link PipelinedCalls}), {@code accessible_parent}. */
    private static final long CHILDREN = PipelinedCalls.OBJECT_PATH + 2L * Native.POINTER_SIZE;

    /** After {@code children}, {@code role} and {@code interfaces} (two ints), four pointers. */
    private static final long CACHED_PROPERTIES = CHILDREN + Native.POINTER_SIZE + 8 + 4L * Native.POINTER_SIZE;

    /** More elements than any window offers (a walk stops far below); past it the rest is left as it is. */
    static final int MAX_ELEMENTS = 200_000;

    private CacheClear() {}

    /** Clears {@code element}'s cache and its cached descendants'; the number of elements cleared. */
    static int clear(Pointer element) {
        if (element == null) return 0;
        Set<Long> seen = new HashSet<>();
        Deque<Pointer> stack = new ArrayDeque<>();
        stack.push(element);
        while (!stack.isEmpty() && seen.size() < MAX_ELEMENTS) {
            Pointer p = stack.pop();
            if (!seen.add(Pointer.nativeValue(p))) continue; // a cycle, or an element cached twice
            p.setInt(CACHED_PROPERTIES, 0); // ATSPI_CACHE_NONE
            Pointer children = p.getPointer(CHILDREN);
            if (children == null) continue;
            Pointer data = children.getPointer(0);
            int len = children.getInt(Native.POINTER_SIZE);
            for (int i = 0; data != null && i < len; i++) {
                Pointer child = data.getPointer((long) i * Native.POINTER_SIZE);
                if (child != null) stack.push(child);
            }
        }
        return seen.size();
    }
}

package dev.deckhand.platform.atspi;

import com.sun.jna.Pointer;
import dev.deckhand.platform.atspi.AtspiNative.Atspi;
import dev.deckhand.platform.atspi.AtspiNative.Glib;
import dev.deckhand.platform.atspi.AtspiNative.Gobject;

/**
 * Every descendant of one element from one {@code Collection.GetMatches} call, in canonical order (each element
 * before its children), at most {@link AtspiBridge#NODE_CAP}: what the snapshot's collection walk and the facts'
 * listed searches both read. Holds the match-everything rule, made on first use. libatspi thread only.
 */
final class Descendants {

    /**
     * One call's answer.
     *
     * @param found the referenced elements (the caller unrefs each; LibreOffice answers holes, which are null)
     * @param answered whether the app answered with a list at all (false: no Collection behind it, or the call failed)
     * @param hung whether the call timed out or took longer than a responsive app ({@link AtspiCalls#HUNG_NANOS})
     * @param error libatspi's error message, or null
     */
    record Listed(Pointer[] found, boolean answered, boolean hung, String error) {}

    private final AtspiCalls calls;
    private Pointer matchAll;

    Descendants(AtspiCalls calls) {
        this.calls = calls;
    }

    /** Lists the descendants of the element whose Collection interface is {@code collection}, and unrefs it. */
    Listed of(Pointer collection) {
        long t0 = System.nanoTime();
        Pointer array = Atspi.atspi_collection_get_matches(
                collection, matchAll(), AtspiNative.SORT_CANONICAL, AtspiBridge.NODE_CAP, 1, calls.err());
        Gobject.g_object_unref(collection);
        String e = calls.takeError();
        Pointer[] found = new Pointer[0];
        if (array != null) {
            int length = array.getInt(com.sun.jna.Native.POINTER_SIZE);
            if (length > 0) found = array.getPointer(0).getPointerArray(0, length);
            Glib.g_array_free(array, 1);
        }
        boolean hung = System.nanoTime() - t0 > AtspiCalls.HUNG_NANOS
                || (array == null && e != null && AtspiCalls.isTimeout(e, t0));
        return new Listed(found, array != null, hung, e);
    }

    private Pointer matchAll() {
        if (matchAll == null) {
            Pointer attributes = Glib.g_hash_table_new(null, null);
            matchAll = Atspi.atspi_match_rule_new(
                    null,
                    AtspiNative.MATCH_ALL,
                    attributes,
                    AtspiNative.MATCH_ALL,
                    null,
                    AtspiNative.MATCH_ALL,
                    null,
                    AtspiNative.MATCH_ALL,
                    0);
            Glib.g_hash_table_unref(attributes); // the rule keeps a copy
        }
        return matchAll;
    }

    /** Frees the rule (the bridge is closing). */
    void close() {
        if (matchAll != null) {
            Gobject.g_object_unref(matchAll);
            matchAll = null;
        }
    }
}

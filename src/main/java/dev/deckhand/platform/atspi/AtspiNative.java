package dev.deckhand.platform.atspi;

import com.sun.jna.Callback;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * Direct JNA bindings to libatspi.so.0, libglib-2.0 and libgobject-2.0. Only the
 * {@link AtspiThread} may call these (libatspi is not thread-safe). {@code err} arguments are a
 * {@code GError**} slot; functions returning {@code gchar*} or objects return transfer-full values
 * that the caller frees ({@code g_free} / {@code g_object_unref}).
 */
final class AtspiNative {

    private AtspiNative() {}

    /** {@code void (*AtspiEventListenerCB)(AtspiEvent *event, void *user_data)}; the callee owns the event. */
    interface EventCallback extends Callback {
        void invoke(Pointer event, Pointer userData);
    }

    /** {@code gboolean (*GSourceFunc)(gpointer user_data)}; returning 0 removes the source. */
    interface SourceFunc extends Callback {
        int invoke(Pointer userData);
    }

    /** GLib's {@code G_PRIORITY_HIGH}. */
    static final int G_PRIORITY_HIGH = -100;

    static final int COORD_SCREEN = 0;
    static final int SCROLL_ANYWHERE = 6;

    static final int STATE_ACTIVE = 1;
    static final int STATE_DEFUNCT = 6;
    static final int STATE_EDITABLE = 7;
    static final int STATE_ENABLED = 8;
    static final int STATE_FOCUSED = 12;
    static final int STATE_HORIZONTAL = 14;
    static final int STATE_MULTI_LINE = 17;
    static final int STATE_SINGLE_LINE = 26;
    static final int STATE_IS_DEFAULT = 39;
    /** Children are virtual (a spreadsheet's cells): never enumerate them. */
    static final int STATE_MANAGES_DESCENDANTS = 31;

    static final int STATE_SENSITIVE = 24;
    static final int STATE_SHOWING = 25;
    static final int STATE_VERTICAL = 29;

    /** {@code ATSPI_Collection_MATCH_ALL}. */
    static final int MATCH_ALL = 1;
    /** {@code ATSPI_Collection_SORT_ORDER_CANONICAL}: depth-first, each element before its children. */
    static final int SORT_CANONICAL = 1;

    /** ATSPI_CACHE_PARENT | CHILDREN | NAME | DESCRIPTION | STATES | ROLE | INTERFACES. */
    static final int CACHE_MASK = 0x7f;

    /** ATSPI_CACHE_CHILDREN. */
    static final int CACHE_CHILDREN = 0x02;

    static final class Glib {
        static {
            Native.register(Glib.class, NativeLibrary.getInstance("glib-2.0"));
        }

        static native int g_main_context_iteration(Pointer context, int mayBlock);

        /** Makes the calling thread the owner of {@code context} (NULL: the default); 0 when another thread owns it. */
        static native int g_main_context_acquire(Pointer context);

        /** Whether the calling thread owns {@code context} (NULL: the default). */
        static native int g_main_context_is_owner(Pointer context);

        static native int g_idle_add_full(int priority, SourceFunc function, Pointer data, Pointer notify);

        static native int g_main_depth();

        static native void g_free(Pointer mem);

        static native void g_error_free(Pointer error);

        /** {@code g_array_free(array, free_segment)}; returns the segment when it is not freed. */
        static native Pointer g_array_free(Pointer array, int freeSegment);

        /** {@code g_hash_table_new(NULL, NULL)}: an empty table with direct hashing. */
        static native Pointer g_hash_table_new(Pointer hashFunc, Pointer keyEqualFunc);

        static native void g_hash_table_unref(Pointer table);

        private Glib() {}
    }

    static final class Gobject {
        static {
            Native.register(Gobject.class, NativeLibrary.getInstance("gobject-2.0"));
        }

        static native Pointer g_object_ref(Pointer object);

        static native void g_object_unref(Pointer object);

        static native void g_boxed_free(long boxedType, Pointer boxed);

        private Gobject() {}
    }

    /**
     * libdbus, for pipelined calls on the connection libatspi already holds to an app: many requests
     * written before the first reply is awaited ({@code dbus_pending_call_block} reads and queues,
     * it never dispatches). libatspi thread only.
     */
    static final class Dbus {
        static {
            Native.register(Dbus.class, NativeLibrary.getInstance("dbus-1"));
        }

        static final int TYPE_UINT32 = 'u';
        static final int TYPE_ARRAY = 'a';
        static final int TYPE_STRING = 's';
        static final int TYPE_VARIANT = 'v';
        static final int TYPE_INT32 = 'i';
        static final int TYPE_STRUCT = 'r';
        static final int MESSAGE_TYPE_METHOD_RETURN = 2;
        /** {@code sizeof(DBusMessageIter)} is 72 on 64-bit; room to spare. */
        static final int ITER_SIZE = 128;

        static native Pointer dbus_message_new_method_call(
                String destination, String path, String iface, String method);

        static native void dbus_message_iter_init_append(Pointer message, Pointer iter);

        static native int dbus_message_iter_append_basic(Pointer iter, int type, Pointer value);

        static native int dbus_connection_send_with_reply(
                Pointer connection, Pointer message, Pointer pendingReturn, int timeoutMillis);

        static native void dbus_connection_flush(Pointer connection);

        static native void dbus_message_unref(Pointer message);

        static native void dbus_pending_call_block(Pointer pending);

        static native Pointer dbus_pending_call_steal_reply(Pointer pending);

        static native void dbus_pending_call_cancel(Pointer pending);

        static native void dbus_pending_call_unref(Pointer pending);

        static native int dbus_message_get_type(Pointer message);

        static native Pointer dbus_message_get_error_name(Pointer message);

        static native int dbus_message_iter_init(Pointer message, Pointer iter);

        static native int dbus_message_iter_get_arg_type(Pointer iter);

        static native void dbus_message_iter_recurse(Pointer iter, Pointer sub);

        static native void dbus_message_iter_get_basic(Pointer iter, Pointer value);

        static native int dbus_message_iter_next(Pointer iter);

        private Dbus() {}
    }

    static final class Atspi {
        static {
            Native.register(Atspi.class, NativeLibrary.getInstance("atspi"));
        }

        static native int atspi_init();

        static native void atspi_set_timeout(int val, int startupTime);

        static native Pointer atspi_get_desktop(int i);

        static native void atspi_accessible_set_cache_mask(Pointer acc, int mask);

        static native int atspi_accessible_get_child_count(Pointer acc, Pointer err);

        static native Pointer atspi_accessible_get_child_at_index(Pointer acc, int index, Pointer err);

        static native Pointer atspi_accessible_get_name(Pointer acc, Pointer err);

        static native Pointer atspi_accessible_get_description(Pointer acc, Pointer err);

        static native int atspi_accessible_get_role(Pointer acc, Pointer err);

        static native Pointer atspi_role_get_name(int role);

        static native int atspi_accessible_get_process_id(Pointer acc, Pointer err);

        static native Pointer atspi_accessible_get_toolkit_name(Pointer acc, Pointer err);

        static native Pointer atspi_accessible_get_toolkit_version(Pointer acc, Pointer err);

        static native Pointer atspi_accessible_get_application(Pointer acc, Pointer err);

        static native Pointer atspi_accessible_get_parent(Pointer acc, Pointer err);

        static native Pointer atspi_accessible_get_collection_iface(Pointer acc);

        /**
         * {@code atspi_match_rule_new(states, statematch, attributes, attrmatch, roles, rolematch,
         * interfaces, ifacematch, invert)}; NULL sets (and an empty attribute table) match everything
         * under {@link AtspiNative#MATCH_ALL}.
         */
        static native Pointer atspi_match_rule_new(
                Pointer states,
                int stateMatch,
                Pointer attributes,
                int attributeMatch,
                Pointer roles,
                int roleMatch,
                Pointer interfaces,
                int interfaceMatch,
                int invert);

        /** A {@code GArray} of referenced {@code AtspiAccessible*}, each of which the caller unrefs. */
        static native Pointer atspi_collection_get_matches(
                Pointer collection, Pointer rule, int sortBy, int count, int traverse, Pointer err);

        static native Pointer atspi_accessible_get_state_set(Pointer acc);

        static native int atspi_state_set_contains(Pointer set, int state);

        /** A {@code GArray} of the set's {@code AtspiStateType}s (ints), ascending; free it with g_array_free. */
        static native Pointer atspi_state_set_get_states(Pointer set);

        static native Pointer atspi_accessible_get_component_iface(Pointer acc);

        static native Pointer atspi_accessible_get_text_iface(Pointer acc);

        static native Pointer atspi_accessible_get_value_iface(Pointer acc);

        static native Pointer atspi_accessible_get_editable_text_iface(Pointer acc);

        static native Pointer atspi_accessible_get_action_iface(Pointer acc);

        static native Pointer atspi_accessible_get_selection_iface(Pointer acc);

        static native Pointer atspi_accessible_get_document_iface(Pointer acc);

        /** Returns an {@code AtspiRect*} ({x, y, width, height} gints) to g_free. */
        static native Pointer atspi_component_get_extents(Pointer comp, int coordType, Pointer err);

        static native int atspi_component_grab_focus(Pointer comp, Pointer err);

        static native int atspi_component_scroll_to(Pointer comp, int scrollType, Pointer err);

        static native int atspi_text_get_character_count(Pointer text, Pointer err);

        static native Pointer atspi_text_get_text(Pointer text, int start, int end, Pointer err);

        static native double atspi_value_get_current_value(Pointer value, Pointer err);

        static native double atspi_value_get_minimum_value(Pointer value, Pointer err);

        static native double atspi_value_get_maximum_value(Pointer value, Pointer err);

        static native double atspi_value_get_minimum_increment(Pointer value, Pointer err);

        static native int atspi_value_set_current_value(Pointer value, double newValue, Pointer err);

        static native int atspi_editable_text_set_text_contents(Pointer et, byte[] utf8z, Pointer err);

        static native int atspi_action_get_n_actions(Pointer action, Pointer err);

        static native Pointer atspi_action_get_action_name(Pointer action, int i, Pointer err);

        static native int atspi_action_do_action(Pointer action, int i, Pointer err);

        static native Pointer atspi_action_get_key_binding(Pointer action, int i, Pointer err);

        static native int atspi_selection_select_child(Pointer selection, int childIndex, Pointer err);

        static native int atspi_selection_get_n_selected_children(Pointer selection, Pointer err);

        static native Pointer atspi_selection_get_selected_child(
                Pointer selection, int selectedChildIndex, Pointer err);

        static native Pointer atspi_accessible_get_table_iface(Pointer acc);

        static native int atspi_accessible_get_index_in_parent(Pointer acc, Pointer err);

        static native int atspi_table_get_row_at_index(Pointer table, int index, Pointer err);

        static native int atspi_table_get_column_at_index(Pointer table, int index, Pointer err);

        static native Pointer atspi_table_get_accessible_at(Pointer table, int row, int column, Pointer err);

        static native Pointer atspi_component_get_accessible_at_point(
                Pointer comp, int x, int y, int coordType, Pointer err);

        static native Pointer atspi_document_get_document_attribute_value(Pointer doc, byte[] attributez, Pointer err);

        static native Pointer atspi_event_listener_new(EventCallback callback, Pointer userData, Pointer destroyed);

        static native int atspi_event_listener_register(Pointer listener, byte[] eventTypez, Pointer err);

        static native int atspi_event_listener_deregister(Pointer listener, byte[] eventTypez, Pointer err);

        static native long atspi_event_get_type();

        private Atspi() {}
    }
}

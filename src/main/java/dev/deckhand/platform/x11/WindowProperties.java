package dev.deckhand.platform.x11;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Window properties and atoms on one connection: format-32 lists ({@code _NET_WM_PID},
 * {@code _NET_WM_STATE}, {@code WM_TRANSIENT_FOR}, ...), titles ({@code _NET_WM_NAME} in UTF-8,
 * {@code WM_NAME}) and {@code WM_CLASS}. Atoms are interned once per connection; the reply buffers are
 * reused, so one thread at a time (the owner's lock). A property that is absent, of another type, or
 * whose window vanished reads as empty, never as an error.
 */
final class WindowProperties {

    private static final Xlib X = Xlib.X;

    private final XConnection c;
    private final Map<String, Long> atoms = new HashMap<>();
    private final LongByReference typeRef = new LongByReference();
    private final IntByReference formatRef = new IntByReference();
    private final LongByReference nitemsRef = new LongByReference();
    private final LongByReference afterRef = new LongByReference();
    private final PointerByReference propRef = new PointerByReference();

    WindowProperties(XConnection c) {
        this.c = c;
    }

    long atom(String name) {
        return atoms.computeIfAbsent(name, n -> X.XInternAtom(c.dpy, n, Xlib.False));
    }

    /** Format-32 items of property {@code property} of type {@code type}, by name; empty when absent. */
    long[] cardinals(long window, String property, String type) {
        return cardinals(window, atom(property), atom(type));
    }

    /** Format-32 property items (each a C long on the client side), or empty. */
    long[] cardinals(long window, long property, long type) {
        Pointer p = property(window, property, type);
        if (p == null) return new long[0];
        try {
            if (formatRef.getValue() != 32) return new long[0];
            int n = (int) nitemsRef.getValue();
            return p.getLongArray(0, n); // LP64: Native.LONG_SIZE == 8, checked when the connection opened
        } finally {
            X.XFree(p);
        }
    }

    /** A {@code UTF8_STRING} property, or null. */
    String utf8(long window, String property) {
        Pointer p = property(window, atom(property), atom("UTF8_STRING"));
        if (p == null) return null;
        try {
            return new String(p.getByteArray(0, (int) nitemsRef.getValue()), StandardCharsets.UTF_8);
        } finally {
            X.XFree(p);
        }
    }

    /** {@code WM_NAME} in its own encoding (Latin-1 unless it says UTF-8); empty when absent. */
    String latin1Name(long window) {
        Pointer p = property(window, atom("WM_NAME"), Xlib.AnyPropertyType);
        if (p == null) return "";
        try {
            byte[] b = p.getByteArray(0, (int) nitemsRef.getValue());
            boolean utf8 = typeRef.getValue() == atom("UTF8_STRING");
            return new String(b, utf8 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        } finally {
            X.XFree(p);
        }
    }

    /** The class part of WM_CLASS ("instance\0Class\0"); empty when absent. */
    String wmClass(long window) {
        Pointer p = property(window, atom("WM_CLASS"), atom("STRING"));
        if (p == null) return "";
        try {
            byte[] b = p.getByteArray(0, (int) nitemsRef.getValue());
            String all = new String(b, StandardCharsets.ISO_8859_1);
            String[] parts = all.split("\0");
            return parts.length >= 2 ? parts[1] : parts.length == 1 ? parts[0] : "";
        } finally {
            X.XFree(p);
        }
    }

    /** The property's data (caller frees with XFree), or null when absent, of another type, or on error. */
    private Pointer property(long window, long property, long type) {
        int before = c.errors();
        int status = X.XGetWindowProperty(
                c.dpy,
                window,
                property,
                0,
                1 << 16,
                Xlib.False,
                type,
                typeRef,
                formatRef,
                nitemsRef,
                afterRef,
                propRef);
        Pointer p = propRef.getValue();
        if (status != Xlib.Success || c.errors() != before || typeRef.getValue() == Xlib.None) {
            if (p != null) X.XFree(p);
            return null;
        }
        if (p == null) return null;
        if (type != Xlib.AnyPropertyType && typeRef.getValue() != type) {
            X.XFree(p);
            return null;
        }
        return p;
    }
}

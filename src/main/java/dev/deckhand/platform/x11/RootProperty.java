package dev.deckhand.platform.x11;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One string property of an X root window, read over a short connection of its own: the AT-SPI half's
 * bus check reads {@code AT_SPI_BUS} this way before it lets libatspi near the bus (libatspi reads the
 * same property, and aborts the process when no bus can be found).
 */
public final class RootProperty {

    private RootProperty() {}

    /**
     * The 8-bit property {@code name} of the root window of display {@code display} as UTF-8 (at most
     * 4 KB); empty when the display cannot be opened, libX11 cannot be loaded, this is not an LP64 JVM
     * (XIDs are passed as Java {@code long}), or the property is absent or not 8-bit.
     */
    public static Optional<String> read(String display, String name) {
        if (Native.LONG_SIZE != 8) return Optional.empty();
        Xlib x;
        try {
            x = Xlib.X;
        } catch (LinkageError missing) {
            return Optional.empty();
        }
        Pointer d = x.XOpenDisplay(display);
        if (d == null) return Optional.empty();
        try {
            long atom = x.XInternAtom(d, name, Xlib.True);
            if (atom == Xlib.None) return Optional.empty();
            LongByReference type = new LongByReference();
            IntByReference format = new IntByReference();
            LongByReference items = new LongByReference();
            LongByReference after = new LongByReference();
            PointerByReference data = new PointerByReference();
            int rc = x.XGetWindowProperty(
                    d,
                    x.XDefaultRootWindow(d),
                    atom,
                    0,
                    1024,
                    Xlib.False,
                    Xlib.AnyPropertyType,
                    type,
                    format,
                    items,
                    after,
                    data);
            if (rc != Xlib.Success || data.getValue() == null) return Optional.empty();
            try {
                if (format.getValue() != 8) return Optional.empty();
                byte[] bytes = data.getValue().getByteArray(0, (int) items.getValue());
                return Optional.of(new String(bytes, StandardCharsets.UTF_8));
            } finally {
                x.XFree(data.getValue());
            }
        } finally {
            x.XCloseDisplay(d);
        }
    }
}

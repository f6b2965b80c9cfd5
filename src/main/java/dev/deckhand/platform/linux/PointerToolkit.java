package dev.deckhand.platform.linux;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The toolkit that reads a window's pointer events, told by a fact of the process that can be read at run time:
 * the shared libraries and data files it has mapped ({@code /proc/PID/maps}), never its name. With it, how a
 * {@code click_at} reaches the window on a display Deckhand did not start, where XTEST would move the person's
 * pointer: as pointer events sent to the window ({@code XSendEvent}), which some toolkits take, some take only by
 * activating their window, and some drop. Each answer was measured on this machine against a real app of the
 * toolkit with another window active (docs/driver-x11.md, "click_at on a person's display"; the tests are
 * {@code platform.linux.SentClickDesktopTest}); a toolkit that was not measured is {@link #UNKNOWN} and refused.
 */
public enum PointerToolkit {

    /** Chromium's content layer (Chromium, Electron, CEF apps): it maps its ICU data and resource packs. */
    CHROMIUM(
            "Chromium (content layer: Chromium, Electron)",
            Delivery.ONLY_WHILE_ACTIVE,
            "takes sent pointer events (DOM events with isTrusted true) but activates its window on a press"),
    /** Qt 5 (its own event loop over xcb). */
    QT5(
            "Qt 5",
            Delivery.ONLY_WHILE_ACTIVE,
            "takes sent pointer events but asks the window manager to activate its window on every press"),
    /** LibreOffice on its own X11 backend (VCL {@code gen}); on its GTK 3 backend it is {@link #GTK3}. */
    VCL_GEN(
            "LibreOffice VCL, own X11 backend (gen)",
            Delivery.ONLY_WHILE_ACTIVE,
            "takes sent pointer events but activates its window on a press"),
    /** GTK 4: reads the pointer through XInput 2 only. */
    GTK4(
            "GTK 4",
            Delivery.NONE,
            "drops pointer events sent to a window (it reads the pointer through XInput 2 only)," + " active or not"),
    /** GTK 3 (and LibreOffice on its GTK 3 backend). */
    GTK3(
            "GTK 3",
            Delivery.SENT,
            "takes sent pointer events once an EnterNotify said the pointer is in the window;"
                    + " the window stays inactive"),
    /** GTK 2. */
    GTK2(
            "GTK 2",
            Delivery.SENT,
            "takes sent pointer events once an EnterNotify said the pointer is in the window;"
                    + " the window stays inactive"),
    /** The X Toolkit Intrinsics with the Athena widgets (xcalc, xedit, xterm). */
    XT("Xt (Athena)", Delivery.SENT, "takes sent pointer events, synthetic ones included; the window stays inactive"),
    /** Anything else, or a process whose map cannot be read: not measured, so refused. */
    UNKNOWN(
            "an unmeasured toolkit",
            Delivery.NONE,
            "was not measured (Qt 6, Motif, Java, Tk, SDL, plain Xlib, an"
                    + " unreadable process): Deckhand does not send it pointer events");

    /** How a toolkit takes pointer events sent to its window. */
    public enum Delivery {
        /** It takes them, and the window stays inactive: {@code click_at} works with another window active. */
        SENT,
        /** It takes them only by activating its window: {@code click_at} works only while the window is active. */
        ONLY_WHILE_ACTIVE,
        /** It drops them: {@code click_at} is refused where no control of the tree is under the point. */
        NONE
    }

    private final String label;
    private final Delivery delivery;
    private final String measured;

    PointerToolkit(String label, Delivery delivery, String measured) {
        this.label = label;
        this.delivery = delivery;
        this.measured = measured;
    }

    public String label() {
        return label;
    }

    public Delivery delivery() {
        return delivery;
    }

    /** What was measured, in words, for the doctor and refusal details. */
    public String measured() {
        return measured;
    }

    /** The toolkit of process {@code pid}; {@link #UNKNOWN} for a negative pid or an unreadable map. */
    public static PointerToolkit of(int pid) {
        if (pid < 0) return UNKNOWN;
        try (Stream<String> lines =
                Files.lines(Path.of("/proc", Integer.toString(pid), "maps"), StandardCharsets.ISO_8859_1)) {
            return fromMaps(lines.limit(50_000));
        } catch (IOException | UncheckedIOException gone) {
            return UNKNOWN;
        }
    }

    /**
     * The toolkit a process's map names. Ordered so that the toolkit that reads the events wins over one that is
     * only loaded beside it: Chromium and Qt load GTK 3 for dialogs and themes, LibreOffice's GTK 3 backend is
     * GTK 3 while its own backend is not; Java and Qt 6 (unmeasured) win over the GTK they may load, and Motif
     * (unmeasured) over the Xt it is built on.
     */
    static PointerToolkit fromMaps(Stream<String> lines) {
        boolean icu = false,
                pak = false,
                java = false,
                qt6 = false,
                qt5 = false,
                vclGen = false,
                gtk4 = false,
                gtk3 = false,
                gtk2 = false,
                motif = false,
                xt = false;
        for (String line : (Iterable<String>) lines::iterator) {
            int slash = line.lastIndexOf('/');
            if (slash < 0) continue;
            String file = line.substring(slash + 1);
            if (file.equals("icudtl.dat")) icu = true;
            else if (file.endsWith(".pak")) pak = true;
            else if (file.startsWith("libawt_xawt.so") || file.startsWith("libjvm.so")) java = true;
            else if (file.startsWith("libQt6Gui.so")) qt6 = true;
            else if (file.startsWith("libQt5Gui.so")) qt5 = true;
            else if (file.startsWith("libvclplug_gen")) vclGen = true;
            else if (file.startsWith("libgtk-4.so")) gtk4 = true;
            else if (file.startsWith("libgtk-3.so")) gtk3 = true;
            else if (file.startsWith("libgtk-x11-2.0.so")) gtk2 = true;
            else if (file.startsWith("libXm.so")) motif = true;
            else if (file.startsWith("libXt.so")) xt = true;
        }
        if (icu && pak) return CHROMIUM;
        if (java || qt6) return UNKNOWN;
        if (qt5) return QT5;
        if (vclGen) return VCL_GEN;
        if (gtk4) return GTK4;
        if (gtk3) return GTK3;
        if (gtk2) return GTK2;
        if (motif) return UNKNOWN;
        if (xt) return XT;
        return UNKNOWN;
    }
}

package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The toolkit that reads a window's pointer events, from the process's map alone (no display), and which control
 * a point presses through its action. The maps are shaped like the real ones of the apps measured
 * (docs/driver-x11.md): the toolkit that reads the events wins over one only loaded beside it.
 */
@Tag("pure")
class PointerToolkitTest {

    private static String lib(String path) {
        return "7f3135c00000-7f3135c2a000 r--p 00000000 08:01 1234 " + path;
    }

    private static PointerToolkit of(String... paths) {
        return PointerToolkit.fromMaps(Stream.of(paths).map(PointerToolkitTest::lib));
    }

    @Test
    void theToolkitThatReadsTheEventsWinsOverOneLoadedBesideIt() {
        assertEquals(
                PointerToolkit.GTK3,
                of(
                        "/usr/lib/x86_64-linux-gnu/libgtk-3.so.0.2406.32",
                        "/usr/lib/x86_64-linux-gnu/libgdk-3.so.0.2406.32"));
        assertEquals(PointerToolkit.GTK2, of("/usr/lib/x86_64-linux-gnu/libgtk-x11-2.0.so.0.2400.33"));
        assertEquals(PointerToolkit.GTK4, of("/usr/lib/x86_64-linux-gnu/libgtk-4.so.1.800.3"));
        assertEquals(
                PointerToolkit.XT,
                of("/usr/lib/x86_64-linux-gnu/libXaw.so.7.0.0", "/usr/lib/x86_64-linux-gnu/libXt.so.6.0.0"));
        // Qt with the GTK 3 platform theme loaded: Qt reads the events
        assertEquals(
                PointerToolkit.QT5,
                of("/usr/lib/x86_64-linux-gnu/libQt5Gui.so.5.15.8", "/usr/lib/x86_64-linux-gnu/libgtk-3.so.0.2406.32"));
        // Chromium maps GTK 3 for its dialogs; its ICU data and resource packs say it is the content layer
        assertEquals(
                PointerToolkit.CHROMIUM,
                of(
                        "/usr/lib/chromium/chromium",
                        "/usr/lib/chromium/icudtl.dat",
                        "/usr/lib/chromium/resources.pak",
                        "/usr/lib/x86_64-linux-gnu/libgtk-3.so.0.2406.32"));
        // LibreOffice: its GTK 3 backend is GTK 3, its own X11 backend is not
        assertEquals(
                PointerToolkit.GTK3,
                of(
                        "/usr/lib/libreoffice/program/libvclplug_gtk3lo.so",
                        "/usr/lib/x86_64-linux-gnu/libgtk-3.so.0.2406.32"));
        assertEquals(
                PointerToolkit.VCL_GEN,
                of("/usr/lib/libreoffice/program/libvclplug_genlo.so", "/usr/lib/x86_64-linux-gnu/libX11.so.6.4.0"));
    }

    @Test
    void whatWasNotMeasuredIsUnknownAndRefused() {
        for (PointerToolkit t : List.of(
                of("/usr/lib/x86_64-linux-gnu/libQt6Gui.so.6.4.2"),
                of("/usr/lib/jvm/java-17-openjdk-amd64/lib/libawt_xawt.so", "/usr/lib/x86_64-linux-gnu/libgtk-3.so.0"),
                of("/usr/lib/x86_64-linux-gnu/libXm.so.4.0.4", "/usr/lib/x86_64-linux-gnu/libXt.so.6.0.0"),
                of("/usr/lib/x86_64-linux-gnu/libtk8.6.so", "/usr/lib/x86_64-linux-gnu/libX11.so.6.4.0"),
                of(),
                PointerToolkit.of(-1),
                PointerToolkit.of(Integer.MAX_VALUE))) {
            assertEquals(PointerToolkit.UNKNOWN, t);
            assertEquals(PointerToolkit.Delivery.NONE, t.delivery());
        }
        // a file merely named like a library elsewhere in the path does not count
        assertEquals(PointerToolkit.UNKNOWN, of("/home/p/libgtk-3.so.0/notes.txt"));
    }

    @Test
    void eachToolkitSaysHowItTakesPointerEvents() {
        assertEquals(PointerToolkit.Delivery.SENT, PointerToolkit.GTK2.delivery());
        assertEquals(PointerToolkit.Delivery.SENT, PointerToolkit.GTK3.delivery());
        assertEquals(PointerToolkit.Delivery.SENT, PointerToolkit.XT.delivery());
        assertEquals(PointerToolkit.Delivery.ONLY_WHILE_ACTIVE, PointerToolkit.QT5.delivery());
        assertEquals(PointerToolkit.Delivery.ONLY_WHILE_ACTIVE, PointerToolkit.VCL_GEN.delivery());
        assertEquals(PointerToolkit.Delivery.ONLY_WHILE_ACTIVE, PointerToolkit.CHROMIUM.delivery());
        assertEquals(PointerToolkit.Delivery.NONE, PointerToolkit.GTK4.delivery());
        for (PointerToolkit t : PointerToolkit.values())
            assertTrue(!t.measured().isBlank() && !t.label().isBlank(), t.name());
    }

    private static Node n(String uid, int depth, String role, String name) {
        return new Node(uid, depth, role, name, false, null, true, false, false, true, new Geometry(0, 0, 50, 50));
    }

    @Test
    void aPointOnAControlPressesItThroughItsActionAndAnyOtherPointIsAPointerClick() {
        Node frame = n("f", 0, "frame", "W"),
                filler = n("p", 1, "filler", ""),
                send = n("s", 2, "push button", "Send"),
                label = n("l", 3, "label", "Send"),
                canvas = n("c", 2, "drawing area", ""),
                entry = n("e", 2, "text", "Name"),
                cell = n("t", 3, "table cell", "C5");
        assertEquals(Optional.of(send), LinuxDesktop.pressedAt(List.of(send, filler, frame)));
        assertEquals(
                Optional.of(send),
                LinuxDesktop.pressedAt(List.of(label, send, filler, frame)),
                "a label drawn inside a button presses the button");
        assertEquals(
                Optional.empty(),
                LinuxDesktop.pressedAt(List.of(canvas, filler, frame)),
                "a canvas gets pointer events");
        assertEquals(
                Optional.empty(),
                LinuxDesktop.pressedAt(List.of(entry, filler, frame)),
                "a text field's action is activate (Enter), not a click: pointer events place the caret");
        assertEquals(Optional.empty(), LinuxDesktop.pressedAt(List.of(cell, n("tb", 2, "table", ""), frame)));
        assertEquals(
                Optional.empty(),
                LinuxDesktop.pressedAt(List.of(label, canvas, frame)),
                "a label on a canvas presses nothing");
        assertEquals(Optional.empty(), LinuxDesktop.pressedAt(List.of()), "no tree under the point");
    }
}

package dev.deckhand.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The doctor tells toolkits apart by the libraries a process maps. */
@Tag("pure")
class ToolkitTest {

    private static Toolkit of(String... libs) {
        return Toolkit.fromMaps(
                Stream.of(libs).map(l -> "7f00-7f01 r-xp 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/" + l));
    }

    @Test
    void recognisesEachToolkit() {
        assertEquals(Toolkit.GTK4, of("libgtk-4.so.1.800.3", "libglib-2.0.so.0"));
        assertEquals(Toolkit.GTK3, of("libgtk-3.so.0.2406.32"));
        assertEquals(Toolkit.QT, of("libQt5Gui.so.5.15.8", "libgtk-3.so.0"));
        assertEquals(Toolkit.JAVA, of("jvm/lib/server/libjvm.so", "libgtk-3.so.0"));
        assertEquals(Toolkit.CHROMIUM, of("chromium/libffmpeg.so", "libgtk-3.so.0"));
        assertEquals(Toolkit.UNKNOWN, of("libc.so.6"));
        assertEquals(Toolkit.UNKNOWN, Toolkit.of(-1));
    }
}

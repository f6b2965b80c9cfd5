package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.TestApp;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Keys through the {@code Desktop} port: GTK 4 ignores keys sent to a window, so a GTK 4 window
 * without input focus is refused {@code OUT_OF_SCOPE} rather than sent keys that would go nowhere —
 * also on the second call, when the toolkit is known from the bridge's cache — while a GTK 3 window
 * without focus takes them.
 */
@Tag("desktop")
class LinuxDesktopKeysTest {

    private static WindowInfo await(LinuxDesktop desktop, String app, String title) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            for (WindowInfo w : desktop.windows()) {
                if (w.app().equalsIgnoreCase(app) && w.title().contains(title) && w.visible()) return w;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no window of " + app + " titled *" + title + "* within 30 s");
    }

    private static void activate(long window) throws Exception {
        Process p = new ProcessBuilder("xdotool", "windowactivate", "--sync", Long.toString(window))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "xdotool windowactivate finished");
    }

    @Test
    void anUnfocusedGtk4WindowIsRefusedKeysAndAGtk3WindowTakesThem() throws Exception {
        TestApp.requireDesktop();
        try (LinuxDesktop desktop = LinuxDesktop.open();
                TestApp calc = TestApp.launch(List.of("gnome-calculator"));
                TestApp editor = TestApp.launch(List.of("mousepad"))) {
            WindowInfo ca = await(desktop, "gnome-calculator", "Calculator");
            WindowInfo mp = await(desktop, "mousepad", "Mousepad");
            for (int i = 0; i < 100 && !registered(desktop, ca.id()); i++) Thread.sleep(100);
            activate(mp.id());
            for (int i = 0;
                    i < 50 && desktop.x11().focusedTopLevel() != desktop.x11().topLevelOf(mp.id());
                    i++) {
                Thread.sleep(100);
            }
            for (int call = 1; call <= 2; call++) {
                RefusedException e = assertThrows(
                        RefusedException.class,
                        () -> desktop.key(ca.id(), dev.deckhand.grant.Chord.parse("1")),
                        "keys to the unfocused GTK 4 calculator");
                assertEquals(RefusalCode.OUT_OF_SCOPE, e.code(), e.getMessage());
                assertTrue(e.getMessage().contains("GTK 4"), e.getMessage());
            }
            activate(ca.id());
            for (int i = 0;
                    i < 50 && desktop.x11().focusedTopLevel() != desktop.x11().topLevelOf(ca.id());
                    i++) {
                Thread.sleep(100);
            }
            desktop.key(
                    mp.id(),
                    dev.deckhand.grant.Chord.parse("Right")); // GTK 3 without focus: a synthetic event, no refusal
        }
    }

    private static boolean registered(LinuxDesktop desktop, long window) {
        try {
            return !desktop.snapshot(window, 1).nodes().isEmpty();
        } catch (RefusedException e) {
            return false;
        }
    }
}

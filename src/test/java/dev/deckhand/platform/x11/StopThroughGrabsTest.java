package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.WindowInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Stop chord fires while another client holds the keyboard: a bare client's active grab, and the open
 * menu of a GTK 3 app (mousepad), a GTK 4 app (gnome-text-editor's main menu popover) and a Qt 5 app
 * (featherpad). The chord is pressed as real key events (XTEST, xdotool). The menu's own keyboard grab is
 * checked first where the toolkit takes one, so the test would fail with the passive grab alone.
 */
@Tag("desktop")
class StopThroughGrabsTest {

    private static final String CHORD = "ctrl+alt+shift+Escape";

    @Test
    void anotherClientsKeyboardGrabDoesNotSilenceStop() {
        TestApps.requireDisplay();
        AtomicInteger presses = new AtomicInteger();
        try (StopKeyGrab grab = StopKeyGrab.start(CHORD, System.getenv(), presses::incrementAndGet);
                OtherClient other = new OtherClient(System.getenv("DISPLAY"))) {
            assertTrue(
                    grab.status().detail().contains("raw key events"),
                    grab.status().detail());
            assertEquals(OtherClient.GRAB_SUCCESS, other.grabKeyboard());
            try {
                assertEquals(0, TestApps.run("xdotool", "key", CHORD));
                assertTrue(
                        TestApps.await(() -> presses.get() == 1, Duration.ofSeconds(5)),
                        "fired under the grab: " + presses);
                TestApps.run("xdotool", "key", "ctrl+alt+Escape");
                TestApps.run("xdotool", "key", "Escape");
                TestApps.sleep(300);
                assertEquals(1, presses.get(), "other chords and the bare key do not fire it");
            } finally {
                other.ungrabKeyboard();
            }
        }
    }

    private record App(String name, List<String> command, String windowClass, List<String> openMenu) {}

    @Test
    void stopFiresWhileAGtk3MenuAGtk4PopoverAndAQtMenuAreOpen() throws Exception {
        TestApps.requireDisplay();
        Path file = Files.createTempFile("deckhand-stop", ".txt");
        List<App> apps = List.of(
                new App("GTK 3 menu", List.of("mousepad", file.toString()), "mousepad", List.of("F10")),
                new App(
                        "GTK 4 popover",
                        List.of("gnome-text-editor", "--standalone", file.toString()),
                        "gnome-text-editor",
                        List.of("F10")),
                new App("Qt 5 menu", List.of("featherpad", file.toString()), "featherpad", List.of("alt+f")));
        X11Display x = X11Display.open(System.getenv());
        try (TestApps launched = new TestApps()) {
            for (App app : apps) {
                AtomicInteger presses = new AtomicInteger();
                launched.start(app.name().replace(' ', '-'), app.command().toArray(String[]::new));
                WindowInfo w = TestApps.awaitWindow(
                        x, i -> i.app().equalsIgnoreCase(app.windowClass()) && i.visible(), app.name());
                try (StopKeyGrab grab = StopKeyGrab.start(CHORD, System.getenv(), presses::incrementAndGet)) {
                    assertTrue(grab.status().registered(), grab.status().toString());
                    TestApps.run("xdotool", "windowactivate", "--sync", Long.toString(w.id()));
                    TestApps.sleep(500);
                    for (String k : app.openMenu()) TestApps.run("xdotool", "key", k);
                    boolean menuGrabs = TestApps.await(x::keyboardGrabbed, Duration.ofSeconds(3));
                    System.out.printf("%s: the open menu holds the keyboard: %s%n", app.name(), menuGrabs);
                    assertEquals(0, TestApps.run("xdotool", "key", CHORD));
                    assertTrue(
                            TestApps.await(() -> presses.get() >= 1, Duration.ofSeconds(5)),
                            app.name() + ": Stop fired");
                    TestApps.sleep(300);
                    assertEquals(1, presses.get(), app.name() + ": once");
                    TestApps.run("xdotool", "key", "Escape");
                    TestApps.run("xdotool", "key", "Escape");
                }
            }
        } finally {
            x.close();
        }
    }
}

package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.Chord;
import dev.deckhand.loop.desktop.WindowInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Round 16: with a second layout (Workman) locked as the keyboard's group, XTEST keys by the first group's keycodes
 * typed other letters, and {@code ctrl+b} arrived as {@code ctrl+v}, a paste the gate never judged. Keys follow the
 * group the server applies. A class of its own: the apps of a class that ran while the keymap changed keep reading
 * keys oddly after it is put back (X11DisplayDesktopTest's mousepad saved nothing), so only this one's app sees it.
 */
@Tag("desktop")
class LayoutGroupTest {

    @Test
    void xtestKeysTypeInTheLockedLayoutGroup() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open()) {
            Path keymap = apps.home().resolve("keymap-before.xkb");
            TestApps.run("xkbcomp", "-xkb", display, keymap.toString());
            Path file = Files.writeString(apps.home().resolve("xtest-group.txt"), "");
            Process p = apps.start("mousepad-group", "mousepad", file.toString());
            WindowInfo win = TestApps.awaitWindow(x, i -> i.title().contains("xtest-group"), "mousepad xtest-group");
            long top = x.topLevelOf(win.id());
            assertTrue(
                    TestApps.await(
                            () -> {
                                TestApps.run("xdotool", "windowactivate", "--sync", Long.toString(win.id()));
                                return TestApps.await(() -> x.focusedTopLevel() == top, Duration.ofSeconds(1));
                            },
                            Duration.ofSeconds(10)),
                    "mousepad has the focus");
            com.sun.jna.Pointer d = Xlib.X.XOpenDisplay(display);
            try {
                TestApps.run("setxkbmap", "-layout", "us,us", "-variant", ",workman");
                Xlib.X.XkbLockGroup(d, Xlib.XkbUseCoreKbd, 1);
                Xlib.X.XSync(d, 0);
                x.xtestType(win.id(), "bvt qj");
                x.xtestKey(win.id(), Chord.parse("ctrl+s"));
                assertTrue(
                        TestApps.await(() -> TestApps.read(file).equals("bvt qj"), Duration.ofSeconds(10)),
                        "typed and saved in the locked group: " + TestApps.read(file));
            } finally {
                Xlib.X.XkbLockGroup(d, Xlib.XkbUseCoreKbd, 0);
                Xlib.X.XSync(d, 0);
                Xlib.X.XCloseDisplay(d);
                TestApps.run("xkbcomp", keymap.toString(), display); // the keymap the other tests had
                p.destroy();
            }
        }
    }
}

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

    private static void assertRefused(Runnable r, String why) {
        dev.deckhand.grant.RefusedException e =
                org.junit.jupiter.api.Assertions.assertThrows(dev.deckhand.grant.RefusedException.class, r::run);
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }

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
                // round 17's L3: Caps Lock would flip the letters' case; L1: a latched group changes the first key
                Xlib.X.XkbLockModifiers(d, Xlib.XkbUseCoreKbd, Xlib.LockMask, Xlib.LockMask);
                Xlib.X.XSync(d, 0);
                // round 17's L3: Caps Lock would flip the letters' case
                Xlib.X.XkbLockModifiers(d, Xlib.XkbUseCoreKbd, Xlib.LockMask, Xlib.LockMask);
                Xlib.X.XSync(d, 0);
                assertRefused(() -> x.xtestType(win.id(), "caps"), "Caps Lock");
                Xlib.X.XkbLockModifiers(d, Xlib.XkbUseCoreKbd, Xlib.LockMask, 0);
                Xlib.X.XkbLockGroup(d, Xlib.XkbUseCoreKbd, 0);
                Xlib.X.XSync(d, 0);
                // round 17's L5: ctrl and shift switch the group (the person's option): ctrl+shift+b would be read in
                // the other group, as ctrl+shift+v; refused, and the person's group is the one it was. Since round 19
                // the action Shift carries with Control held (LockGroup) is read from the keymap before any key is
                // pressed; the group's check after the modifiers stays behind it.
                TestApps.run(
                        "setxkbmap", "-layout", "us,us", "-variant", ",workman", "-option", "grp:ctrl_shift_toggle");
                assertRefused(
                        () -> x.xtestKey(win.id(), Chord.parse("ctrl+shift+b")),
                        "(<LFSH>) carries the XKB action LockGroup");
                com.sun.jna.Memory st = new com.sun.jna.Memory(32);
                st.clear();
                Xlib.X.XkbGetState(d, Xlib.XkbUseCoreKbd, st);
                assertTrue(st.getByte(1) == 0, "the locked group put back: " + st.getByte(1));
                // round 17's L1: a latched group changes the first key only
                Xlib.X.XkbLatchGroup(d, Xlib.XkbUseCoreKbd, 1);
                Xlib.X.XSync(d, 0);
                assertRefused(() -> x.xtestType(win.id(), "abc"), "latched");
                // the next key ends the latch: Escape, harmless in the editor
                int escape = Xlib.X.XKeysymToKeycode(d, 0xff1bL);
                Xtst.X.XTestFakeKeyEvent(d, escape, Xlib.True, 0);
                Xtst.X.XTestFakeKeyEvent(d, escape, Xlib.False, 0);
                Xlib.X.XSync(d, 0);
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

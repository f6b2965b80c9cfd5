package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.deckhand.grant.Chord;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.WindowInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Round 18: with a modifier locked (Shift by a Shift_Lock key, Mod5 under us(intl)) or AccessX BounceKeys on, XTEST
 * keys and text arrived as others: {@code key Insert} as {@code shift+Insert} (a paste), {@code " abc /1."} as
 * {@code " ABC ?!>"}, {@code " test"} as {@code " þéßþ"}, {@code " /tmp/?.canary"} as "/tmp/.canary". Each is refused
 * now, naming the state; Num Lock, wherever the modifier map puts it, is not. A class of its own, as {@link
 * LayoutGroupTest}: it changes the display's keymap, locks and controls, and every test puts them back in {@code
 * finally} (the keymap with xkbcomp, the locks and controls as they were).
 *
 * <p>Round 19: keymaps loaded with xkbcomp kept {@code <AD01>}'s keysyms and gave it an action (RedirectKey to ctrl+v,
 * PtrBtn with MouseKeys on) or the type KEYPAD ({@code [q, period]}, Num Lock on). The tests load the same change to
 * a dump of the display's keymap.
 *
 * <p>Round 20: a keymap loaded with xkbcomp gave {@code <LCTL>} and {@code <RCTL>} {@code locks= true} (the key
 * behaviour XkbKB_Lock): {@code key ctrl+End} left Control locked down, the next {@code type " v"} pasted, and the
 * person's Control stayed down after the run (D1). A keymap flipping {@code <AD01>}'s action, its keysyms unchanged,
 * went uncounted by the keyboard watch (D3).
 */
@Tag("desktop")
class LockedKeyboardStateTest {

    private static final int ALL_MODS = 0xff;

    private static void assertRefused(Runnable r, String why) {
        RefusedException e = org.junit.jupiter.api.Assertions.assertThrows(RefusedException.class, r::run);
        assertEquals(RefusalCode.PLATFORM_UNSUPPORTED, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }

    /** An empty file open in mousepad, its window focused. */
    private record Editor(WindowInfo win, Path file) {}

    private static Editor focusedEditor(TestApps apps, X11Display x, String name) throws Exception {
        Path file = Files.writeString(apps.home().resolve(name + ".txt"), "");
        apps.start("mousepad-" + name, "mousepad", file.toString());
        WindowInfo win = TestApps.awaitWindow(x, i -> i.title().contains(name), "mousepad " + name);
        long top = x.topLevelOf(win.id());
        assertTrue(
                TestApps.await(
                        () -> {
                            TestApps.run("xdotool", "windowactivate", "--sync", Long.toString(win.id()));
                            return TestApps.await(() -> x.focusedTopLevel() == top, Duration.ofSeconds(1));
                        },
                        Duration.ofSeconds(10)),
                "mousepad has the focus");
        return new Editor(win, file);
    }

    /** The modifiers locked now ({@code XkbStateRec.locked_mods}, byte 9). */
    private static int lockedMods(Pointer d) {
        Memory st = new Memory(32);
        st.clear();
        Xlib.X.XkbGetState(d, Xlib.XkbUseCoreKbd, st);
        return st.getByte(9) & 0xff;
    }

    private static void lock(Pointer d, int mods) {
        Xlib.X.XkbLockModifiers(d, Xlib.XkbUseCoreKbd, ALL_MODS, mods);
        Xlib.X.XSync(d, 0);
    }

    /** The modifier bit of the first row of the modifier map holding {@code keycode} (0 for none). */
    private static int rowOf(Pointer d, int keycode) {
        Pointer mm = Xlib.X.XGetModifierMapping(d);
        try {
            int per = mm.getInt(Xlib.MODMAP_MAX);
            for (int mod = 0; mod < 8; mod++) {
                for (int i = 0; i < per; i++) {
                    if ((mm.getPointer(Xlib.MODMAP_MAP).getByte((long) mod * per + i) & 0xff) == keycode)
                        return 1 << mod;
                }
            }
            return 0;
        } finally {
            Xlib.X.XFreeModifiermap(mm);
        }
    }

    /** Moves {@code keycode} from modifier row {@code from} to row {@code to} of the modifier map. */
    private static void moveModifier(Pointer d, int keycode, int from, int to) {
        Pointer mm = Xlib.X.XGetModifierMapping(d);
        try {
            int per = mm.getInt(Xlib.MODMAP_MAX);
            Pointer codes = mm.getPointer(Xlib.MODMAP_MAP);
            boolean taken = false, put = false;
            for (int i = 0; i < per; i++) {
                if (!taken && (codes.getByte((long) from * per + i) & 0xff) == keycode) {
                    codes.setByte((long) from * per + i, (byte) 0);
                    taken = true;
                }
            }
            for (int i = 0; i < per; i++) {
                if (!put && codes.getByte((long) to * per + i) == 0) {
                    codes.setByte((long) to * per + i, (byte) keycode);
                    put = true;
                }
            }
            assertTrue(taken && put, "keycode " + keycode + " moved from row " + from + " to row " + to);
            assertEquals(0, Xlib.X.XSetModifierMapping(d, mm), "MappingSuccess");
            Xlib.X.XSync(d, 0);
        } finally {
            Xlib.X.XFreeModifiermap(mm);
        }
    }

    @Test
    void shiftLockedRefusesKeysAndTextAndCapsLockRefusesChords() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open()) {
            Editor e = focusedEditor(apps, x, "locked-shift");
            Pointer d = Xlib.X.XOpenDisplay(display);
            int before = lockedMods(d);
            try {
                // M1: key Insert arrived as shift+Insert (a paste the gate never judged); M2: " abc /1." as " ABC ?!>"
                lock(d, Xlib.ShiftMask);
                assertRefused(() -> x.xtestKey(e.win().id(), Chord.parse("Insert")), "Shift Lock is on");
                assertRefused(() -> x.xtestType(e.win().id(), " abc /1."), "Shift Lock is on");
                // round 17 refused Caps Lock for text only; a chord is refused too now
                lock(d, Xlib.LockMask);
                assertRefused(() -> x.xtestKey(e.win().id(), Chord.parse("ctrl+s")), "Caps Lock is on");
                lock(d, 0);
                // nothing of the above reached the editor
                x.xtestKey(e.win().id(), Chord.parse("ctrl+s"));
                TestApps.sleep(500);
                assertEquals("", TestApps.read(e.file()), "nothing typed or pasted");
            } finally {
                lock(d, before);
                Xlib.X.XCloseDisplay(d);
            }
        }
    }

    @Test
    void levelThreeLockedUnderUsIntlRefusesText() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open()) {
            Path keymap = apps.home().resolve("keymap-before.xkb");
            TestApps.run("xkbcomp", "-xkb", display, keymap.toString());
            Editor e = focusedEditor(apps, x, "locked-level3");
            Pointer d = Xlib.X.XOpenDisplay(display);
            int before = lockedMods(d);
            try {
                TestApps.run("setxkbmap", "-layout", "us", "-variant", "intl");
                // L3: with Mod5 (the third level here) locked, " test" arrived as " þéßþ". Xlib's keysym lookup reads
                // its cache, so the new map is read on a new connection.
                Pointer fresh = Xlib.X.XOpenDisplay(display);
                try {
                    assertEquals(
                            Xlib.Mod5Mask,
                            rowOf(fresh, Xlib.X.XKeysymToKeycode(fresh, 0xfe03L)),
                            "ISO_Level3_Shift is Mod5 under us(intl)");
                } finally {
                    Xlib.X.XCloseDisplay(fresh);
                }
                lock(d, Xlib.Mod5Mask);
                assertRefused(() -> x.xtestType(e.win().id(), " test"), "a locked modifier (Mod5)");
                assertRefused(() -> x.xtestKey(e.win().id(), Chord.parse("ctrl+s")), "a locked modifier (Mod5)");
            } finally {
                lock(d, before);
                Xlib.X.XCloseDisplay(d);
                TestApps.run("xkbcomp", keymap.toString(), display); // the keymap the other tests had
            }
        }
    }

    @Test
    void accessXControlsThatDropOrDelayKeysRefuseThem() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open()) {
            Editor e = focusedEditor(apps, x, "accessx");
            Pointer d = Xlib.X.XOpenDisplay(display);
            int[] controls = {
                Xlib.XkbSlowKeysMask,
                Xlib.XkbBounceKeysMask,
                Xlib.XkbStickyKeysMask,
                Xlib.XkbOverlay1Mask,
                Xlib.XkbOverlay2Mask
            };
            int all = 0;
            for (int c : controls) all |= c;
            int before = 0;
            Pointer kb = Xlib.X.XkbAllocKeyboard();
            try {
                assertEquals(Xlib.Success, Xlib.X.XkbGetControls(d, Xlib.XkbControlsEnabledMask, kb));
                before = kb.getPointer(Xlib.XKB_DESC_CTRLS).getInt(Xlib.XKB_CTRLS_ENABLED) & all;
            } finally {
                Xlib.X.XkbFreeKeyboard(kb, Xlib.XkbAllComponentsMask, Xlib.True);
            }
            try {
                // K1, K1d: "//eettcc" arrived as "/etc", " /tmp/?.canary" as "/tmp/.canary"
                Xlib.X.XkbChangeEnabledControls(d, Xlib.XkbUseCoreKbd, all, Xlib.XkbBounceKeysMask);
                Xlib.X.XSync(d, 0);
                assertRefused(() -> x.xtestType(e.win().id(), "//eettcc"), "BounceKeys");
                assertRefused(() -> x.xtestType(e.win().id(), " /tmp/?.canary"), "BounceKeys");
                assertRefused(() -> x.xtestKey(e.win().id(), Chord.parse("ctrl+s")), "BounceKeys");
                Xlib.X.XkbChangeEnabledControls(d, Xlib.XkbUseCoreKbd, all, Xlib.XkbSlowKeysMask);
                Xlib.X.XSync(d, 0);
                assertRefused(() -> x.xtestType(e.win().id(), "abc"), "SlowKeys");
                Xlib.X.XkbChangeEnabledControls(d, Xlib.XkbUseCoreKbd, all, Xlib.XkbOverlay1Mask);
                Xlib.X.XSync(d, 0);
                assertRefused(() -> x.xtestType(e.win().id(), "abc"), "Overlay1");
                // StickyKeys only latches and locks modifiers, which are refused on their own: it stays allowed
                Xlib.X.XkbChangeEnabledControls(d, Xlib.XkbUseCoreKbd, all, Xlib.XkbStickyKeysMask);
                Xlib.X.XSync(d, 0);
                x.xtestType(e.win().id(), "sticky");
                Xlib.X.XkbChangeEnabledControls(d, Xlib.XkbUseCoreKbd, all, 0);
                Xlib.X.XSync(d, 0);
                x.xtestKey(e.win().id(), Chord.parse("ctrl+s"));
                assertTrue(
                        TestApps.await(() -> TestApps.read(e.file()).equals("sticky"), Duration.ofSeconds(10)),
                        "only the text typed with StickyKeys on arrived: " + TestApps.read(e.file()));
            } finally {
                Xlib.X.XkbChangeEnabledControls(d, Xlib.XkbUseCoreKbd, all, before);
                Xlib.X.XSync(d, 0);
                Xlib.X.XCloseDisplay(d);
            }
        }
    }

    @Test
    void numLockLockedStillTypesWhereverTheModifierMapPutsIt() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open()) {
            Path keymap = apps.home().resolve("keymap-before.xkb");
            TestApps.run("xkbcomp", "-xkb", display, keymap.toString());
            Editor e = focusedEditor(apps, x, "locked-numlock");
            Pointer d = Xlib.X.XOpenDisplay(display);
            int before = lockedMods(d);
            try {
                int numLock = Xlib.X.XKeysymToKeycode(d, KeyboardMapping.NUM_LOCK);
                int mask = rowOf(d, numLock);
                assertTrue(mask != 0, "Num Lock has a modifier");
                lock(d, mask);
                x.xtestType(e.win().id(), "abc 123");
                x.xtestKey(e.win().id(), Chord.parse("ctrl+s"));
                assertTrue(
                        TestApps.await(() -> TestApps.read(e.file()).equals("abc 123"), Duration.ofSeconds(10)),
                        "typed and saved with Num Lock on: " + TestApps.read(e.file()));
                // moved to the modifier after its own: that one is Num Lock now, the old one a lock like any other
                lock(d, 0);
                int from = Integer.numberOfTrailingZeros(mask);
                int to = from + 1;
                moveModifier(d, numLock, from, to);
                lock(d, 1 << to);
                x.xtestType(e.win().id(), "d");
                lock(d, mask);
                assertRefused(() -> x.xtestType(e.win().id(), "e"), "a locked modifier (Mod" + (from - 2) + ")");
                lock(d, 0);
                x.xtestKey(e.win().id(), Chord.parse("ctrl+s"));
                assertTrue(
                        TestApps.await(() -> TestApps.read(e.file()).equals("abc 123d"), Duration.ofSeconds(10)),
                        "typed with Num Lock moved and on: " + TestApps.read(e.file()));
            } finally {
                lock(d, before);
                Xlib.X.XCloseDisplay(d);
                TestApps.run("xkbcomp", keymap.toString(), display); // the keymap (and modifier map) the tests had
            }
        }
    }

    /**
     * The keymap now with key {@code <AD01>} ({@code q}) given {@code body} instead of its own, as round 19's reviewer
     * loaded it with xkbcomp (km.redirect.xkb, km.ptrbtn.xkb, km.numlock.xkb: the same change to a dump).
     */
    private static Path withAd01(TestApps apps, Path keymap, String name, String body) throws Exception {
        String text = Files.readString(keymap);
        String changed = text.replaceFirst("(?s)key <AD01> \\{.*?\\};", "key <AD01> { " + body + " };");
        assertTrue(!changed.equals(text), "the dump has key <AD01>");
        return Files.writeString(apps.home().resolve("keymap-" + name + ".xkb"), changed);
    }

    /** Loads keymap {@code file} into the display, as the reviewer did. */
    private static void load(String display, Path file) {
        assertEquals(0, TestApps.run("xkbcomp", file.toString(), display), "xkbcomp loaded " + file);
    }

    private static void setControls(Pointer d, int values) {
        Xlib.X.XkbChangeEnabledControls(d, Xlib.XkbUseCoreKbd, Xlib.XkbMouseKeysMask, values);
        Xlib.X.XSync(d, 0);
    }

    @Test
    void aKeyWithAnActionIsRefusedNamingIt() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open()) {
            Path keymap = apps.home().resolve("keymap-before.xkb");
            TestApps.run("xkbcomp", "-xkb", display, keymap.toString());
            Editor e = focusedEditor(apps, x, "action");
            try {
                // K2: <AD01> kept [q, Q] and redirected to ctrl+<AB04> (v): " q" pasted the clipboard
                load(
                        display,
                        withAd01(
                                apps,
                                keymap,
                                "redirect",
                                "type= \"ALPHABETIC\", symbols[Group1]= [ q, Q ], actions[Group1]= ["
                                        + " RedirectKey(key=<AB04>,modifiers=Control),"
                                        + " RedirectKey(key=<AB04>,modifiers=Control) ]"));
                assertRefused(() -> x.xtestType(e.win().id(), " q"), "<AD01>) carries the XKB action RedirectKey");
                assertRefused(() -> x.xtestKey(e.win().id(), Chord.parse("ctrl+q")), "action RedirectKey");
                // K3 without MouseKeys: the action alone refuses
                load(
                        display,
                        withAd01(
                                apps,
                                keymap,
                                "ptrbtn",
                                "type= \"ALPHABETIC\", symbols[Group1]= [ q, Q ], actions[Group1]= ["
                                        + " PtrBtn(button=1), PtrBtn(button=1) ]"));
                assertRefused(() -> x.xtestType(e.win().id(), "q"), "<AD01>) carries the XKB action PtrBtn");
                // a modifier key that does more than its modifier: Control_L locking the group
                load(
                        display,
                        Files.writeString(
                                apps.home().resolve("keymap-lctl.xkb"),
                                Files.readString(keymap)
                                        .replaceFirst(
                                                "(?s)key <LCTL> \\{.*?\\};",
                                                "key <LCTL> { [ Control_L ], actions[Group1]= ["
                                                        + " LockGroup(group=2) ] };")));
                assertRefused(() -> x.xtestKey(e.win().id(), Chord.parse("ctrl+s")), "action LockGroup");
                load(display, keymap);
                // control: the keymap put back types and saves
                x.xtestType(e.win().id(), "qq");
                x.xtestKey(e.win().id(), Chord.parse("ctrl+s"));
                assertTrue(
                        TestApps.await(() -> TestApps.read(e.file()).equals("qq"), Duration.ofSeconds(10)),
                        "only the control text arrived: " + TestApps.read(e.file()));
            } finally {
                TestApps.run("xkbcomp", keymap.toString(), display);
            }
        }
    }

    @Test
    void mouseKeysOnIsRefused() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open()) {
            Path keymap = apps.home().resolve("keymap-before.xkb");
            TestApps.run("xkbcomp", "-xkb", display, keymap.toString());
            Editor e = focusedEditor(apps, x, "mousekeys");
            Pointer d = Xlib.X.XOpenDisplay(display);
            try {
                // K3: <AD01> as PtrBtn(button=1) with MouseKeys on: "q" clicked under the person's pointer
                load(
                        display,
                        withAd01(
                                apps,
                                keymap,
                                "ptrbtn",
                                "type= \"ALPHABETIC\", symbols[Group1]= [ q, Q ], actions[Group1]= ["
                                        + " PtrBtn(button=1), PtrBtn(button=1) ]"));
                setControls(d, Xlib.XkbMouseKeysMask);
                assertRefused(() -> x.xtestType(e.win().id(), "q"), "MouseKeys");
                assertRefused(() -> x.xtestKey(e.win().id(), Chord.parse("q")), "MouseKeys");
                // on a plain keymap too: MouseKeys gives the keypad's keys pointer actions
                load(display, keymap);
                assertRefused(() -> x.xtestType(e.win().id(), "abc"), "MouseKeys");
                setControls(d, 0);
                x.xtestType(e.win().id(), "ok");
                x.xtestKey(e.win().id(), Chord.parse("ctrl+s"));
                assertTrue(
                        TestApps.await(() -> TestApps.read(e.file()).equals("ok"), Duration.ofSeconds(10)),
                        "only the control text arrived: " + TestApps.read(e.file()));
            } finally {
                setControls(d, 0);
                Xlib.X.XCloseDisplay(d);
                TestApps.run("xkbcomp", keymap.toString(), display);
            }
        }
    }

    @Test
    void aKeyWhoseTypeReadsNumLockIsRefusedWhereItTypesAnother() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open()) {
            Path keymap = apps.home().resolve("keymap-before.xkb");
            TestApps.run("xkbcomp", "-xkb", display, keymap.toString());
            Editor e = focusedEditor(apps, x, "keypad-type");
            Pointer d = Xlib.X.XOpenDisplay(display);
            int before = lockedMods(d);
            try {
                // K5: <AD01> of type KEYPAD with [q, period], Num Lock on: " /tmp/qcanary" typed "/tmp/.canary"
                load(display, withAd01(apps, keymap, "numlock", "type= \"KEYPAD\", symbols[Group1]= [ q, period ]"));
                int numLock = rowOf(d, Xlib.X.XKeysymToKeycode(d, KeyboardMapping.NUM_LOCK));
                assertTrue(numLock != 0, "Num Lock has a modifier");
                lock(d, numLock);
                RefusedException r = org.junit.jupiter.api.Assertions.assertThrows(
                        RefusedException.class, () -> x.xtestType(e.win().id(), " /tmp/qcanary"));
                assertEquals(RefusalCode.PLATFORM_UNSUPPORTED, r.code(), r.getMessage());
                assertTrue(r.getMessage().contains("<AD01>) would not make the keysym judged"), r.getMessage());
                assertTrue(!r.getMessage().contains("canary"), "the text is not in the refusal: " + r.getMessage());
                assertRefused(() -> x.xtestKey(e.win().id(), Chord.parse("q")), "would not make the keysym judged");
                // Num Lock off: the same key makes q
                lock(d, 0);
                x.xtestType(e.win().id(), "q");
                load(display, keymap);
                lock(d, numLock);
                x.xtestType(e.win().id(), "q");
                lock(d, 0);
                x.xtestKey(e.win().id(), Chord.parse("ctrl+s"));
                assertTrue(
                        TestApps.await(() -> TestApps.read(e.file()).equals("qq"), Duration.ofSeconds(10)),
                        "only the control text arrived: " + TestApps.read(e.file()));
            } finally {
                lock(d, before);
                Xlib.X.XCloseDisplay(d);
                TestApps.run("xkbcomp", keymap.toString(), display);
            }
        }
    }

    /** The dump {@code keymap} with {@code locks= true} on the keys named (round 20's km.lock.xkb: LCTL and RCTL). */
    private static Path withLocks(TestApps apps, Path keymap, String name, String... keys) throws Exception {
        String text = Files.readString(keymap);
        for (String key : keys) {
            String changed = text.replaceFirst("key <" + key + "> \\{", "key <" + key + "> { locks= true,");
            assertTrue(!changed.equals(text), "the dump has key <" + key + ">");
            text = changed;
        }
        return Files.writeString(apps.home().resolve("keymap-" + name + ".xkb"), text);
    }

    /** Whether {@code keycode} is down now ({@code XQueryKeymap}). */
    private static boolean down(Pointer d, int keycode) {
        byte[] keys = new byte[32];
        Xlib.X.XQueryKeymap(d, keys);
        return (keys[keycode / 8] & (1 << (keycode % 8))) != 0;
    }

    /** The modifiers set by keys down now ({@code XkbStateRec.base_mods}, byte 7). */
    private static int baseMods(Pointer d) {
        Memory st = new Memory(32);
        st.clear();
        Xlib.X.XkbGetState(d, Xlib.XkbUseCoreKbd, st);
        return st.getByte(7) & 0xff;
    }

    @Test
    void aKeyWithALockBehaviourIsRefusedAndControlIsNotLeftDown() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open()) {
            Path keymap = apps.home().resolve("keymap-before.xkb");
            TestApps.run("xkbcomp", "-xkb", display, keymap.toString());
            Editor e = focusedEditor(apps, x, "lockbehaviour");
            Pointer d = Xlib.X.XOpenDisplay(display);
            int control = Xlib.X.XKeysymToKeycode(d, Keyboard.CONTROL_L) & 0xff;
            try {
                // D1: <LCTL> and <RCTL> with locks= true; ctrl+End left Control locked, " v" then pasted
                load(display, withLocks(apps, keymap, "lock", "LCTL", "RCTL"));
                RefusedException r = org.junit.jupiter.api.Assertions.assertThrows(
                        RefusedException.class, () -> x.xtestKey(e.win().id(), Chord.parse("ctrl+End")));
                assertEquals(RefusalCode.PLATFORM_UNSUPPORTED, r.code(), r.getMessage());
                assertTrue(r.getMessage().contains("<LCTL>) has the XKB key behaviour Lock"), r.getMessage());
                x.xtestType(e.win().id(), " v"); // no key with a behaviour: types, as the person's keys would
                assertTrue(
                        !down(d, control) && (baseMods(d) & Xlib.ControlMask) == 0,
                        "Control is not left down: base mods 0x" + Integer.toHexString(baseMods(d)));
                // text whose Shift key locks: refused, nothing typed
                load(display, withLocks(apps, keymap, "lockshift", "LFSH"));
                assertRefused(() -> x.xtestType(e.win().id(), "Q"), "<LFSH>) has the XKB key behaviour Lock");
                assertTrue(
                        (baseMods(d) & Xlib.ShiftMask) == 0,
                        "Shift is not left down: base mods 0x" + Integer.toHexString(baseMods(d)));
                assertRefused(() -> x.xtestKey(e.win().id(), Chord.parse("shift+q")), "key behaviour Lock");
                // a plain key with a behaviour: refused for text and keys
                load(display, withLocks(apps, keymap, "lockq", "AD01"));
                assertRefused(() -> x.xtestType(e.win().id(), "q"), "<AD01>) has the XKB key behaviour Lock");
                assertRefused(() -> x.xtestKey(e.win().id(), Chord.parse("q")), "key behaviour Lock");
                // control: the keymap put back (no behaviour on the keys Deckhand presses) types and saves
                load(display, keymap);
                x.xtestType(e.win().id(), "ok");
                x.xtestKey(e.win().id(), Chord.parse("ctrl+s"));
                assertTrue(
                        TestApps.await(() -> TestApps.read(e.file()).equals(" vok"), Duration.ofSeconds(10)),
                        "only the control text arrived: " + TestApps.read(e.file()));
            } finally {
                TestApps.run("xkbcomp", keymap.toString(), display);
                if (down(d, control)) TestApps.run("xdotool", "keyup", "Control_L");
                Xlib.X.XCloseDisplay(d);
            }
        }
    }

    @Test
    void theKeyboardWatchCountsAnActionOrBehaviourChangeWithTheKeysymsKept() throws Exception {
        String display = TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open()) {
            Path keymap = apps.home().resolve("keymap-before.xkb");
            TestApps.run("xkbcomp", "-xkb", display, keymap.toString());
            try {
                assertTrue(TestApps.await(() -> x.keyboardChanges().watched(), Duration.ofSeconds(3)), "watching");
                // D3: <AD01> given RedirectKey, its keysyms [q, Q] kept
                long start = x.keyboardChanges().count();
                load(
                        display,
                        withAd01(
                                apps,
                                keymap,
                                "redirect",
                                "type= \"ALPHABETIC\", symbols[Group1]= [ q, Q ], actions[Group1]= ["
                                        + " RedirectKey(key=<AB04>,modifiers=Control),"
                                        + " RedirectKey(key=<AB04>,modifiers=Control) ]"));
                assertTrue(
                        TestApps.await(() -> x.keyboardChanges().count() > start, Duration.ofSeconds(3)),
                        "the action counted: " + x.keyboardChanges());
                String what = x.keyboardChanges().last();
                assertTrue(what.contains("XKB actions or behaviours of 1 key") && !what.contains("keysyms"), what);
                // its undoing, and a behaviour alone (D1's locks= true)
                long redirected = x.keyboardChanges().count();
                load(display, keymap);
                assertTrue(
                        TestApps.await(() -> x.keyboardChanges().count() > redirected, Duration.ofSeconds(3)),
                        "the undoing counted");
                long restored = x.keyboardChanges().count();
                load(display, withLocks(apps, keymap, "lock", "LCTL", "RCTL"));
                assertTrue(
                        TestApps.await(() -> x.keyboardChanges().count() > restored, Duration.ofSeconds(3)),
                        "the behaviours counted");
                assertTrue(
                        x.keyboardChanges().last().contains("XKB actions or behaviours of 2 keys"),
                        x.keyboardChanges().last());
                // the same keymap loaded again is no change
                load(display, keymap);
                TestApps.sleep(500);
                long again = x.keyboardChanges().count();
                load(display, keymap);
                TestApps.sleep(800);
                assertEquals(again, x.keyboardChanges().count(), "the same keymap again: " + x.keyboardChanges());
                printCosts();
            } finally {
                TestApps.run("xkbcomp", keymap.toString(), display);
            }
        }
    }

    /** The added cost, printed: the behaviour check per key pressed, and the watch's reading per map change. */
    private static void printCosts() {
        XConnection c = XConnection.open(System.getenv());
        try {
            KeyboardMapping mapping = new KeyboardMapping(c);
            int q = Xlib.X.XKeysymToKeycode(c.dpy, 'q') & 0xff;
            int n = 20_000;
            try (KeyboardMapping.ServerKeys keys = mapping.serverKeys()) {
                for (int i = 0; i < n; i++) keys.requireDefaultBehavior("key q", q);
                long t = System.nanoTime();
                for (int i = 0; i < n; i++) keys.requireDefaultBehavior("key q", q);
                System.out.printf(
                        java.util.Locale.ROOT,
                        "behaviour check: %.2f µs a key pressed (no request: the map read already has them)%n",
                        (System.nanoTime() - t) / 1e3 / n);
            }
            int runs = 200;
            for (int i = 0; i < 20; i++) Keyboard.readWithActions(c);
            long t0 = System.nanoTime();
            for (int i = 0; i < runs; i++) Keyboard.read(c);
            long t1 = System.nanoTime();
            for (int i = 0; i < runs; i++) Keyboard.readWithActions(c);
            long t2 = System.nanoTime();
            System.out.printf(
                    java.util.Locale.ROOT,
                    "watch reading per map change: keysyms and modifier map %.1f µs, with actions and behaviours"
                            + " %.1f µs%n",
                    (t1 - t0) / 1e3 / runs,
                    (t2 - t1) / 1e3 / runs);
        } finally {
            c.close();
        }
    }
}

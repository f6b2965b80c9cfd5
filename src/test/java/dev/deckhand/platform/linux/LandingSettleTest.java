package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.deckhand.grant.Chord;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Landing;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.SampleApp;
import dev.deckhand.platform.atspi.TestApp;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The settle the loop asks for after an action (naming the action's landing events, as
 * {@code ComputerLoop.landings} does) returns only once the action's effect can be read: the read right
 * after each settle shows it, round after round, on every toolkit here. GTK 3: galculator, whose keys
 * announce their own checked state before the display changes and release it about 100 ms later, and
 * Enter on a yad dialog's button, which closes it after focus events; GTK 4: gnome-calculator,
 * which applies an accessibility click 250 ms after the call; Qt 5: FeatherPad, text set by uid and typed
 * as a key; Swing through the ATK wrapper: a button that fills a field, and the field set by uid. No read
 * here is retried: a settle that returns early fails the test.
 */
@Tag("desktop")
class LandingSettleTest {

    /** What the loop names for a click, a key and a selection ({@code ComputerLoop.landings}). */
    private static final Set<Landing> CLICK = EnumSet.of(Landing.TEXT, Landing.VALUE, Landing.CHILDREN, Landing.NAME);
    /** What the loop names for set_text. */
    private static final Set<Landing> SET_TEXT = EnumSet.of(Landing.TEXT);

    private static final Duration MAX = Duration.ofSeconds(2);

    @Test
    void gtk3TheDisplayReadRightAfterALandedClickShowsIt() throws Exception {
        TestApp.requireDesktop();
        try (LinuxDesktop desktop = LinuxDesktop.open();
                TestApp galculator = TestApp.launch(List.of("galculator"))) {
            long window = awaitWindow(desktop, galculator, title -> true);
            ScopedTree tree = awaitTree(desktop, window, t -> t.nodes().stream()
                    .anyMatch(n -> n.name().equals("AC")));
            String five = button(tree, "toggle button", "5"), clear = button(tree, "toggle button", "AC");
            for (int round = 0; round < 5; round++) {
                awaitReleased(desktop, window, five);
                desktop.click(five);
                desktop.settle(MAX, CLICK);
                assertEquals(
                        "5",
                        galculatorDisplay(desktop, window),
                        "round " + round + ": the display right after 5 landed");
                awaitReleased(desktop, window, clear);
                desktop.click(clear);
                desktop.settle(MAX, CLICK);
                assertEquals(
                        "0",
                        galculatorDisplay(desktop, window),
                        "round " + round + ": the display right after AC landed");
            }
        }
    }

    @Test
    void gtk4TheDisplayReadRightAfterADelayedClickShowsIt() throws Exception {
        TestApp.requireDesktop();
        try (LinuxDesktop desktop = LinuxDesktop.open();
                TestApp calc = SampleApp.CALCULATOR.launch()) {
            long window = awaitWindow(desktop, calc, SampleApp.CALCULATOR.windowTitle());
            ScopedTree tree = awaitTree(
                    desktop,
                    window,
                    t -> t.nodes().stream().anyMatch(n -> isCalcButton(n, "="))
                            && t.nodes().stream().anyMatch(n -> n.role().equals("text") && n.editable()));
            String one = calcButton(tree, "1"), two = calcButton(tree, "2");
            StringBuilder expected = new StringBuilder();
            for (int click = 0; click < 6; click++) {
                desktop.click(click % 2 == 0 ? one : two);
                desktop.settle(MAX, CLICK);
                expected.append(click % 2 == 0 ? '1' : '2');
                assertEquals(
                        expected.toString(),
                        calcDisplay(desktop, window),
                        "click " + click + ": the display right after the digit landed");
            }
        }
    }

    /**
     * Enter on a GTK 3 dialog's focused button closes it: the focus moves first (no landing), the app leaves
     * the bus some 20-80 ms later (a removal, no landing either), so the settle waits for quiet.
     */
    @Test
    void gtk3TheWindowsReadRightAfterEnterOnADialogsButtonShowItClosed() throws Exception {
        TestApp.requireDesktop();
        try (LinuxDesktop desktop = LinuxDesktop.open()) {
            for (int round = 0; round < 3; round++) {
                List<String> yad = List.of("yad", "--text", "Close?", "--button", "OK:0", "--title", ENTER_TITLE);
                try (TestApp dialog = TestApp.launch(yad)) {
                    long window = awaitWindow(desktop, dialog, ENTER_TITLE::equals);
                    awaitTree(desktop, window, t -> t.nodes().stream()
                            .anyMatch(n -> n.role().equals("push button") && n.focused()));
                    desktop.key(window, Chord.parse("Enter"));
                    desktop.settle(MAX, CLICK);
                    assertFalse(
                            desktop.windows().stream().anyMatch(w -> w.id() == window),
                            "round " + round + ": the dialog is gone right after Enter landed");
                }
            }
        }
    }

    private static final String ENTER_TITLE = "Deckhand Enter";

    @Test
    void qtTheEditorReadRightAfterSetTextAndAKeyShowsThem() throws Exception {
        TestApp.requireDesktop();
        try (LinuxDesktop desktop = LinuxDesktop.open();
                TestApp pad = SampleApp.FEATHERPAD.launch()) {
            long window = awaitWindow(desktop, pad, SampleApp.FEATHERPAD.windowTitle());
            ScopedTree tree = awaitTree(desktop, window, t -> t.nodes().stream()
                    .anyMatch(n -> n.editable() && n.role().equals("text")));
            String editor = editor(tree);
            for (int round = 0; round < 5; round++) {
                String text = "round " + round;
                desktop.setText(editor, text);
                desktop.settle(MAX, SET_TEXT);
                assertEquals(
                        text, value(desktop, window, editor), "round " + round + ": the editor right after set_text");
                desktop.key(window, Chord.parse("End"));
                desktop.settle(MAX, CLICK);
                desktop.key(window, Chord.parse("x"));
                desktop.settle(MAX, CLICK);
                assertEquals(
                        text + "x",
                        value(desktop, window, editor),
                        "round " + round + ": the editor right after a key");
            }
        }
    }

    @Test
    void swingTheFieldReadRightAfterAClickAndSetTextShowsThem() throws Exception {
        TestApp.requireDesktop();
        try (LinuxDesktop desktop = LinuxDesktop.open();
                TestApp swing = SampleApp.SWING.launch()) {
            long window = awaitWindow(desktop, swing, SampleApp.SWING.windowTitle());
            ScopedTree tree = awaitTree(desktop, window, t -> t.nodes().stream()
                    .anyMatch(n -> n.name().equals("OK")));
            String ok = button(tree, "push button", "OK");
            String field = editor(tree);
            for (int round = 0; round < 5; round++) {
                String text = "round " + round;
                desktop.setText(field, text);
                desktop.settle(MAX, SET_TEXT);
                assertEquals(
                        text, value(desktop, window, field), "round " + round + ": the field right after set_text");
                desktop.click(ok);
                desktop.settle(MAX, CLICK);
                assertEquals("clicked", value(desktop, window, field), "round " + round + ": the field right after OK");
            }
        }
    }

    // ------------------------------------------------------------------------------------------

    private static String galculatorDisplay(LinuxDesktop desktop, long window) {
        return desktop.snapshot(window, 1).nodes().stream()
                .filter(n -> n.role().equals("text"))
                .findFirst()
                .map(n -> n.value() == null ? n.name() : n.value())
                .orElseThrow()
                .strip();
    }

    /**
     * galculator's keys are toggle buttons it holds checked for about 100 ms after a press (far longer under
     * load); a click on one still checked unchecks it and computes nothing, so the next click on a key waits
     * for its release (the app's precondition, not the settle's: the read after the settle is not retried).
     */
    private static void awaitReleased(LinuxDesktop desktop, long window, String uid) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            Node key = desktop.snapshot(window, 1)
                    .byUid(uid)
                    .orElseThrow(() -> new AssertionError(uid + " left the tree"));
            if (!key.states().contains("checked")) return;
            Thread.sleep(20);
        }
        throw new AssertionError("galculator did not release " + uid + " within 2 s");
    }

    private static String calcDisplay(LinuxDesktop desktop, long window) {
        String v = desktop.snapshot(window, 1).nodes().stream()
                .filter(n -> n.role().equals("text") && n.editable())
                .findFirst()
                .orElseThrow()
                .value();
        return v == null ? "" : v.strip();
    }

    private static boolean isCalcButton(Node n, String label) {
        return n.role().equals("push button")
                && (n.name().equals(label) || n.name().equals(label + " " + label));
    }

    private static String calcButton(ScopedTree tree, String label) {
        return tree.nodes().stream()
                .filter(n -> isCalcButton(n, label))
                .findFirst()
                .map(Node::uid)
                .orElseThrow(() -> new AssertionError("no button " + label + " among "
                        + tree.nodes().stream()
                                .filter(n -> n.role().equals("push button"))
                                .map(Node::name)
                                .toList()));
    }

    private static String value(LinuxDesktop desktop, long window, String uid) {
        String v = desktop.snapshot(window, 1)
                .byUid(uid)
                .orElseThrow(() -> new AssertionError(uid + " left the tree"))
                .value();
        return v == null ? "" : v;
    }

    /** The largest showing editable text element. */
    private static String editor(ScopedTree tree) {
        return tree.nodes().stream()
                .filter(n -> n.editable() && n.role().equals("text") && n.bounds() != null)
                .max(Comparator.comparingLong(
                        n -> (long) n.bounds().width() * n.bounds().height()))
                .map(Node::uid)
                .orElseThrow(() -> new AssertionError("no editable text"));
    }

    private static String button(ScopedTree tree, String role, String name) {
        return tree.nodes().stream()
                .filter(n -> n.role().equals(role) && n.name().equals(name))
                .findFirst()
                .map(Node::uid)
                .orElseThrow(() -> new AssertionError("no " + role + " " + name));
    }

    private static long awaitWindow(LinuxDesktop desktop, TestApp app, Predicate<String> title)
            throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            for (WindowInfo w : desktop.windows()) {
                if (w.pid() == app.pid() && w.visible() && title.test(w.title())) return w.id();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no window of pid " + app.pid() + " within 30 s; log: " + app.log());
    }

    private static ScopedTree awaitTree(LinuxDesktop desktop, long window, Predicate<ScopedTree> ready)
            throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            try {
                ScopedTree t = desktop.snapshot(window, 1);
                if (!t.partial() && ready.test(t)) {
                    desktop.settle(MAX); // the app's start-up events are over before the first action
                    return desktop.snapshot(window, 1);
                }
            } catch (RefusedException notYet) {
                // the app registers on the accessibility bus a little after its window maps
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the window's content did not appear within 30 s");
    }
}

package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Landing;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.TestApp;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: the settle the loop asks for after a click (naming the click's landing events) returns only
 * once the click's effect can be read: on galculator (GTK 3), the display read right after each settle
 * shows the digit just pressed, then 0 after AC, round after round. (Returning on the first landing event
 * failed this in CI: the button's own state event came before the display's; see LinuxDesktop.settle.)
 */
class LandingSettleTest {

    /** What the loop names for a click ({@code ComputerLoop.landings}). */
    private static final Set<Landing> CLICK = EnumSet.of(Landing.TEXT, Landing.VALUE, Landing.STATE, Landing.CHILDREN,
            Landing.NAME);

    @Test
    void theDisplayReadRightAfterALandedClickShowsIt() throws Exception {
        TestApp.requireDesktop();
        try (LinuxDesktop desktop = LinuxDesktop.open(); TestApp galculator = TestApp.launch(List.of("galculator"))) {
            long window = awaitWindow(desktop);
            ScopedTree tree = awaitButtons(desktop, window);
            String five = button(tree, "5"), clear = button(tree, "AC");
            for (int round = 0; round < 5; round++) {
                desktop.click(five);
                desktop.settle(Duration.ofSeconds(2), CLICK);
                assertEquals("5", display(desktop, window), "round " + round + ": the display right after 5 landed");
                desktop.click(clear);
                desktop.settle(Duration.ofSeconds(2), CLICK);
                assertEquals("0", display(desktop, window), "round " + round + ": the display right after AC landed");
            }
        }
    }

    private static String display(LinuxDesktop desktop, long window) {
        return desktop.snapshot(window, 1).nodes().stream().filter(n -> n.role().equals("text")).findFirst()
                .map(n -> n.value() == null ? n.name() : n.value()).orElseThrow().strip();
    }

    private static String button(ScopedTree tree, String name) {
        return tree.nodes().stream().filter(n -> n.role().equals("toggle button") && n.name().equals(name)).findFirst()
                .map(Node::uid).orElseThrow(() -> new AssertionError("no toggle button " + name));
    }

    private static long awaitWindow(LinuxDesktop desktop) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            for (WindowInfo w : desktop.windows()) {
                if (w.app().equalsIgnoreCase("galculator") && w.visible()) return w.id();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no galculator window within 30 s");
    }

    private static ScopedTree awaitButtons(LinuxDesktop desktop, long window) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            try {
                ScopedTree t = desktop.snapshot(window, 1);
                if (!t.partial() && t.nodes().stream().anyMatch(n -> n.name().equals("AC"))) return t;
            } catch (dev.deckhand.grant.RefusedException notYet) {
                // the app registers on the accessibility bus a little after its window maps
            }
            Thread.sleep(100);
        }
        throw new AssertionError("galculator's buttons did not appear within 30 s");
    }
}

package dev.deckhand.platform.wayland;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.platform.atspi.TestApp;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Wayland contract on GTK 4 (libadwaita): gnome-calculator computes 40 + 2 by uid and shows 42.
 * GTK 4 applies a click ~255 ms after the call and drops a second click on a button in between, so each
 * click is settled on its effect before the next.
 */
@Tag("desktop")
class CalculatorWaylandTest extends WaylandDesktopContract {

    @Override
    protected TestApp launchApp() throws Exception {
        return weston.launch("gnome-calculator");
    }

    @Override
    protected Predicate<String> windowTitle() {
        return "Calculator"::equals;
    }

    @Override
    protected boolean contentReady(ScopedTree tree) {
        return tree.nodes().stream().anyMatch(n -> isButton(n, "="))
                && tree.nodes().stream().anyMatch(n -> n.role().equals("text") && n.editable());
    }

    private static boolean isButton(Node n, String label) {
        return n.role().equals("push button")
                && (n.name().equals(label) || n.name().equals(label + " " + label));
    }

    @Test
    void clicksFortyPlusTwoByUidAndTheDisplayShowsFortyTwo() {
        ScopedTree tree = snapshot();
        for (String label : List.of("4", "0", "+", "2", "=")) {
            Node b = find(tree, "button " + label, n -> isButton(n, label));
            long t0 = System.nanoTime();
            desktop.click(b.uid());
            desktop.settle(Duration.ofSeconds(2));
            System.out.printf(
                    "calculator click %s + settle on its effect: %.1f ms%n", label, (System.nanoTime() - t0) / 1e6);
        }
        String shown = awaitValue(
                () -> {
                    String v = find(snapshot(), "display", n -> n.role().equals("text") && n.editable())
                            .value();
                    return v == null ? "" : v.strip();
                },
                "42",
                Duration.ofSeconds(5));
        assertEquals("42", shown);
    }
}

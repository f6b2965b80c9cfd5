package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.platform.atspi.TestApp;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The Desktop contract on GTK 4 (libadwaita): gnome-calculator. GTK 4.8 names buttons like "1 1". */
class CalculatorDesktopTest extends DesktopContract {

    @Override
    protected TestApp launchApp() throws Exception {
        return TestApp.launch(List.of("gnome-calculator"));
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
        return n.role().equals("push button") && (n.name().equals(label) || n.name().equals(label + " " + label));
    }

    static Node button(ScopedTree tree, String label) {
        return find(tree, "button " + label, n -> isButton(n, label));
    }

    /** The calculator's entry: the first editable text element (a GtkSourceView). */
    static Node display(ScopedTree tree) {
        return find(tree, "display", n -> n.role().equals("text") && n.editable());
    }

    @Test
    void computesOnePlusTwoByUidAndReadsThree() {
        ScopedTree tree = snapshot();
        for (String label : List.of("1", "+", "2", "=")) {
            desktop.click(button(tree, label).uid());
            desktop.settle(Duration.ofMillis(300));
        }
        // gnome-calculator solves on a worker thread and writes the result afterwards, so the events
        // of the "=" click can go quiet before the display changes: read it until it changes from 1+2.
        String[] shown = {""};
        poll(() -> {
            String v = display(snapshot()).value();
            shown[0] = v == null ? "" : v.strip();
            return !shown[0].equals("1+2") && !shown[0].isEmpty();
        }, Duration.ofSeconds(5));
        assertEquals("3", shown[0], "the display after 1 + 2 =");
    }
}

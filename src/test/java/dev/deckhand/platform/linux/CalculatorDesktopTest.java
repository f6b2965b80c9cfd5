package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.platform.atspi.SampleApp;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The Desktop contract on GTK 4 (libadwaita): gnome-calculator. GTK 4.8 names buttons like "1 1". */
@Tag("desktop")
class CalculatorDesktopTest extends DesktopContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.CALCULATOR;
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
        // gnome-calculator solves on a worker thread and writes the result afterwards, and the display
        // can lag behind the clicks' events going quiet (it has read "1+" here): read fresh snapshots
        // until it shows the result, bounded.
        List<String> seen = new java.util.ArrayList<>();
        String[] shown = {""};
        poll(
                () -> {
                    String v = display(snapshot()).value();
                    shown[0] = v == null ? "" : v.strip();
                    if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(shown[0])) seen.add(shown[0]);
                    return shown[0].equals("3");
                },
                Duration.ofSeconds(5));
        System.out.println("calculator display read: " + seen);
        assertEquals("3", shown[0], "the display after 1 + 2 = (read in turn: " + seen + ")");
    }
}

package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** GTK 4 (libadwaita): gnome-calculator. GTK 4.8 names its buttons like "1 1" (label twice). */
@Tag("desktop")
class CalculatorTest extends AtspiAppContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.CALCULATOR;
    }

    static Node button(ScopedTree tree, String label) {
        return find(
                tree,
                "button " + label,
                n -> n.role().equals("push button")
                        && (n.name().equals(label) || n.name().equals(label + " " + label)));
    }

    /** The calculator's entry: the first editable text element (a GtkSourceView). */
    static Node display(ScopedTree tree) {
        return find(tree, "display", n -> n.role().equals("text") && n.editable());
    }

    @Test
    void boundsAreShiftedToScreenCoordinates() {
        ScopedTree tree = snapshot();
        Node one = button(tree, "1");
        assertTrue(
                geometry.contains(one.bounds().centerX(), one.bounds().centerY()),
                "button 1 at " + one.bounds() + " lies in the window " + geometry);
    }
}

package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.fakes.Trees;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Round 17's G5: GTK 3 focuses a combo box's own button, named by the current choice, so a key on it was judged on a
 * push button "Keep my files" and chose "Delete all my files". The focused part stands for its combo box.
 */
@Tag("pure")
class ChoiceHoldingTest {

    @Test
    void aFocusedPartOfAComboBoxIsTheComboBox() {
        Node frame = Trees.node("f", 0, "frame", "Plan");
        Node combo = Trees.node("c", 1, "combo box", "");
        Node button = Trees.node("b", 2, "push button", "Keep my files");
        Node menu = Trees.node("m", 2, "menu", "");
        Node ok = Trees.node("o", 1, "push button", "OK");
        ScopedTree tree = new ScopedTree(1, 1, List.of(frame, combo, button, menu, ok), false);
        assertEquals("c", Proposals.choiceHolding(tree, button).uid());
        assertEquals("o", Proposals.choiceHolding(tree, ok).uid(), "a button outside a combo box is itself");
    }
}

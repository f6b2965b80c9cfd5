package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.Consequential;
import dev.deckhand.grant.ConsequentialWords;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Round 6 (R1): in a yad list "Keep files" / "Delete all files", {@code key Down} chose the second row, then a click on
 * OK confirmed it with nothing named. A dialog's OK confirms what the dialog shows chosen: a selected row, a checked
 * radio button, a combo box's value join the dialog's text, which the gate reads for OK (shaped as AT-SPI shows yad's
 * GTK 3 list and combo).
 */
@Tag("pure")
class DialogChoiceTest {

    static final long WINDOW = 0x600001L;

    private static Node node(String uid, int depth, String role, String name, Set<String> states) {
        return new Node(
                uid, depth, role, name, false, null, true, false, false, true, null, false, false, states, "", "");
    }

    private static Set<String> okGates(List<Node> chosen) {
        List<Node> nodes = new java.util.ArrayList<>(
                List.of(node("f", 0, "frame", "Files", Set.of()), node("l", 1, "label", "What now?", Set.of())));
        nodes.addAll(chosen);
        nodes.add(node("ok", 1, "push button", "OK", Set.of()));
        nodes.add(node("no", 1, "push button", "Cancel", Set.of()));
        ScopedTree tree = new ScopedTree(WINDOW, 1, nodes, false);
        DesktopFacts facts = new DesktopFacts(
                false,
                false,
                Set.of("yad"),
                List.of(new WindowInfo(
                        WINDOW, "Files", "yad", 300, new Geometry(0, 0, 400, 300), 0, true, false, false)),
                Optional.empty(),
                WINDOW,
                Optional.empty(),
                List.of(),
                Optional.empty());
        return Consequential.classify(
                        Proposals.propose(new Action.Click("ok"), tree, WINDOW, null, null, facts),
                        ConsequentialWords.defaults())
                .map(Consequential.Match::categories)
                .orElse(Set.of());
    }

    @Test
    void okConfirmsTheChosenRowRadioButtonOrComboValue() {
        Node table = node("t", 1, "table", "", Set.of());
        assertEquals(
                Set.of(),
                okGates(List.of(
                        table,
                        node("r1", 2, "table cell", "Keep files", Set.of("selected")),
                        node("r2", 2, "table cell", "Delete all files", Set.of()))),
                "the harmless row chosen");
        assertTrue(
                okGates(List.of(
                                table,
                                node("r1", 2, "table cell", "Keep files", Set.of()),
                                node("r2", 2, "table cell", "Delete all files", Set.of("selected"))))
                        .contains("delete"),
                "the row Down chose");
        assertTrue(okGates(List.of(node("c", 1, "combo box", "Delete the originals", Set.of())))
                .contains("delete"));
        // round 7 (D1): an editable combo named by its first choice, its entry set to another
        Node entry = new Node(
                "e",
                2,
                "text",
                "",
                true,
                "Delete originals",
                true,
                false,
                true,
                true,
                null,
                true,
                false,
                Set.of(),
                "",
                "");
        assertTrue(okGates(List.of(node("c", 1, "combo box", "Keep originals", Set.of()), entry))
                .contains("delete"));
        Node focusedRow = new Node(
                "r2",
                2,
                "table cell",
                "Delete all files",
                false,
                null,
                true,
                true,
                false,
                true,
                null,
                false,
                false,
                Set.of(),
                "",
                "");
        assertTrue(
                okGates(List.of(table, node("r1", 2, "table cell", "Keep files", Set.of()), focusedRow))
                        .contains("delete"),
                "the focused row, where no state says it is selected (as the model saw yad's list)");
        assertTrue(okGates(List.of(
                        node("a", 1, "radio button", "Keep", Set.of()),
                        node("b", 1, "radio button", "Send now", Set.of("checked"))))
                .contains("send"));
    }
}

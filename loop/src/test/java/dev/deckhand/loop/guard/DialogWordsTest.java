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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Which words say what a dialog's button does. Two refusals a person would not expect, from the task suite's pending
 * tasks (2026-12-07): GTK 3's Open dialog lists the places "Trash" among its sidebar's rows, and every button in it was
 * "in a dialog about delete"; Writer's Insert Table dialog joined the document window's tree on an app grant, and its
 * Insert was "in a dialog about confirm" for the toolbar's "Design Mode". A list's rows are content unless chosen, and
 * a dialog speaks for itself, not for the other windows of its app. The controls: the same words in the dialog's own
 * label, or in its chosen row, still gate its buttons.
 */
@Tag("pure")
class DialogWordsTest {

    static final long WINDOW = 0x600001L;

    private static Node node(String uid, int depth, String role, String name, Set<String> states) {
        return new Node(
                uid, depth, role, name, false, null, true, false, false, true, null, false, false, states, "", "");
    }

    /** GTK 3's Open dialog as AT-SPI shows it: a places list of rows holding labels, the files' list, two buttons. */
    private static List<Node> openDialog(Set<String> trashRowStates, String label) {
        List<Node> nodes = new ArrayList<>(List.of(
                node("d", 0, "file chooser", "Open File", Set.of()),
                node("l", 1, "label", label, Set.of()),
                node("p", 1, "list", "", Set.of()),
                node("p1", 2, "list item", "", Set.of()),
                node("p1l", 3, "label", "Home", Set.of()),
                node("p2", 2, "list item", "", trashRowStates),
                node("p2l", 3, "label", "Trash", Set.of()),
                node("p3", 2, "list item", "", Set.of("selected")),
                node("p3l", 3, "label", "work", Set.of()),
                node("t", 1, "table", "", Set.of()),
                node("c1", 2, "table cell", "notes.txt", Set.of()),
                node("c2", 2, "table cell", "remove-me.txt", Set.of())));
        nodes.add(node("cancel", 1, "push button", "Cancel", Set.of()));
        nodes.add(node("open", 1, "push button", "Open", Set.of()));
        return nodes;
    }

    private static WindowInfo window(String title, boolean transientFor) {
        return new WindowInfo(
                WINDOW,
                title,
                "pluma",
                300,
                new Geometry(0, 0, 800, 600),
                0,
                true,
                false,
                false,
                0,
                transientFor ? 0x500001L : 0,
                false,
                -1);
    }

    /** The categories a click on {@code uid} is gated by. */
    private static Set<String> gates(List<Node> nodes, String uid, WindowInfo window) {
        ScopedTree tree = new ScopedTree(WINDOW, 1, nodes, false);
        DesktopFacts facts = new DesktopFacts(
                false,
                false,
                Set.of(window.app()),
                List.of(window),
                Optional.empty(),
                WINDOW,
                Optional.empty(),
                List.of(),
                Optional.empty());
        return Consequential.classify(
                        Proposals.propose(new Action.Click(uid), tree, WINDOW, null, null, facts),
                        ConsequentialWords.defaults())
                .map(Consequential.Match::categories)
                .orElse(Set.of());
    }

    @Test
    void aPlaceOrAFileListedInARowDoesNotSpeakForTheDialog() {
        assertEquals(Set.of(), gates(openDialog(Set.of(), "Files"), "open", window("Open File", true)));
    }

    @Test
    void theChosenRowAndTheDialogsOwnLabelStillDo() {
        assertTrue(
                gates(openDialog(Set.of("selected"), "Files"), "open", window("Open File", true))
                        .contains("delete"),
                "the row chosen is what Open confirms");
        assertTrue(
                gates(openDialog(Set.of(), "Delete the chosen files?"), "open", window("Open File", true))
                        .contains("delete"),
                "the dialog's own label");
    }

    /** An app grant's observation: the document window's tree, then the dialog that joined it (a root of its own). */
    private static List<Node> writerWithDialog(String dialogLabel) {
        return List.of(
                node("w", 0, "frame", "plan.fodt - LibreOffice Writer", Set.of()),
                node("mb", 1, "menu bar", "", Set.of()),
                node("tb", 1, "tool bar", "", Set.of()),
                node("dm", 2, "toggle button", "Design Mode", Set.of()),
                node("dml", 2, "label", "Design Mode", Set.of()),
                node("doc", 1, "document text", "", Set.of()),
                node("d", 0, "dialog", "Insert Table", Set.of()),
                node("dl", 1, "label", dialogLabel, Set.of()),
                node("rows", 1, "spin button", "Rows:", Set.of()),
                node("cols", 1, "spin button", "Columns:", Set.of()),
                node("head", 1, "check box", "Heading", Set.of()),
                node("ins", 1, "push button", "Insert", Set.of()),
                node("can", 1, "push button", "Cancel", Set.of()));
    }

    @Test
    void aDialogThatJoinedTheObservationIsJudgedByItsOwnWords() {
        WindowInfo writer = window("plan.fodt - LibreOffice Writer", false);
        assertEquals(Set.of(), gates(writerWithDialog("Rows:"), "ins", writer), "the document window's toolbar");
        assertTrue(
                gates(writerWithDialog("Sign the document now?"), "ins", writer).contains("confirm"),
                "the dialog's own label");
        // its title is its root's name, read as the dialog's text
        List<Node> titled = new ArrayList<>(writerWithDialog("Rows:"));
        titled.set(6, node("d", 0, "file chooser", "Delete Files", Set.of()));
        assertEquals("dialog", writerWithDialog("Rows:").get(6).role(), "the dialog's root, replaced");
        assertTrue(gates(titled, "ins", writer).contains("delete"), "the joined dialog's title");
    }
}

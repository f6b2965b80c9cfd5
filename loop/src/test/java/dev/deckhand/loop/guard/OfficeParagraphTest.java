package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.ProposedAction;
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
 * Enter in the paragraph LibreOffice edits a cell or a text body in is not Enter in a compose field; the
 * same paragraph anywhere else, or a focus that cannot be matched to it by its bounds, still is (fails closed).
 */
@Tag("pure")
class OfficeParagraphTest {

    static final long WINDOW = 0x400001L;
    static final int PID = 100;
    static final Geometry CELL = new Geometry(42, 191, 91, 16);

    private static Node node(String uid, int depth, String role, Geometry bounds, boolean editable, boolean multiLine) {
        return new Node(
                uid,
                depth,
                role,
                "",
                editable,
                "",
                true,
                false,
                editable,
                true,
                bounds,
                !multiLine,
                false,
                multiLine ? Set.of("multi-line") : Set.of("single-line"));
    }

    /** frame > panel > {document} > table > paragraph, then a panel with a chat box at the paragraph's depth. */
    private static ScopedTree tree(String document) {
        List<Node> nodes = new ArrayList<>();
        nodes.add(node("u0", 0, "frame", null, false, false));
        nodes.add(node("u1", 1, "panel", null, false, false));
        nodes.add(node("u2", 2, document, null, true, false));
        nodes.add(node("u3", 3, "table", null, true, false));
        nodes.add(node("u4", 4, "table cell", new Geometry(41, 191, 82, 17), true, true));
        nodes.add(node("u5", 4, "paragraph", CELL, true, true));
        nodes.add(node("u6", 1, "panel", null, false, false));
        nodes.add(node("u7", 2, "paragraph", new Geometry(10, 700, 300, 20), true, true));
        return new ScopedTree(WINDOW, 1, nodes, false);
    }

    private static DesktopFacts focusOn(String role, Geometry bounds) {
        return focusOn(PID, role, bounds);
    }

    private static DesktopFacts focusOn(int pid, String role, Geometry bounds) {
        Geometry g = new Geometry(0, 0, 1280, 756);
        List<WindowInfo> windows = List.of(
                new WindowInfo(WINDOW, "sheet.csv - LibreOffice Calc", "soffice", PID, g, 0, true, false, false));
        return new DesktopFacts(
                false,
                false,
                Set.of("soffice"),
                windows,
                Optional.empty(),
                WINDOW,
                Optional.of(new DesktopFacts.FocusedElement(pid, role, "", bounds)),
                List.of(),
                Optional.empty());
    }

    private static ProposedAction.Element enterOn(ScopedTree tree, DesktopFacts facts) {
        return Proposals.propose(new Action.Key("Enter"), tree, WINDOW, null, null, facts)
                .element()
                .orElseThrow();
    }

    @Test
    void theParagraphOfACellOrATextBodyIsNotAComposeField() {
        for (String document : List.of("document spreadsheet", "document text", "document presentation")) {
            ProposedAction.Element e = enterOn(tree(document), focusOn("paragraph", CELL));
            assertFalse(e.compose(), document);
            assertTrue(e.editable(), document);
        }
    }

    @Test
    void aParagraphOfAWebPageOrOutsideTheDocumentStaysAComposeField() {
        assertTrue(enterOn(tree("document web"), focusOn("paragraph", CELL)).compose(), "a web chat box");
        assertTrue(enterOn(tree("document frame"), focusOn("paragraph", CELL)).compose());
        assertTrue(
                enterOn(tree("document spreadsheet"), focusOn("paragraph", new Geometry(10, 700, 300, 20)))
                        .compose(),
                "a sibling of the document's panel, at the cell paragraph's depth");
    }

    @Test
    void aFocusNotMatchedByItsBoundsStaysAComposeField() {
        assertTrue(
                enterOn(tree("document spreadsheet"), focusOn("paragraph", null))
                        .compose(),
                "no bounds read");
        assertTrue(
                enterOn(tree("document spreadsheet"), focusOn("paragraph", new Geometry(1, 2, 3, 4)))
                        .compose(),
                "not in the tree the model saw");
    }

    @Test
    void aDialogJoinedAfterTheDocumentIsNotInsideIt() {
        List<Node> dialog = List.of(
                node("d0", 0, "dialog", null, false, false),
                node("d1", 1, "paragraph", new Geometry(500, 400, 200, 20), true, true));
        ScopedTree joined = tree("document spreadsheet").plus(new ScopedTree(WINDOW, 1, dialog, false));
        assertTrue(enterOn(joined, focusOn("paragraph", new Geometry(500, 400, 200, 20)))
                .compose());
    }

    @Test
    void anEditableTextThatIsNotAParagraphStaysAComposeField() {
        List<Node> nodes = new ArrayList<>(tree("document text").nodes());
        nodes.set(5, node("u5", 4, "text", CELL, true, true));
        assertTrue(
                enterOn(new ScopedTree(WINDOW, 1, nodes, false), focusOn("text", CELL))
                        .compose(),
                "an embedded text box of the document");
    }

    @Test
    void aWebPageOrMailEmbeddedInAnOfficeDocumentIsItsOwnDocument() {
        for (String inner : List.of("document web", "document email", "document frame")) {
            List<Node> nodes = new ArrayList<>(tree("document text").nodes());
            nodes.set(3, node("u3", 3, inner, null, true, false)); // the paragraph's parent, inside the text body
            assertTrue(
                    enterOn(new ScopedTree(WINDOW, 1, nodes, false), focusOn("paragraph", CELL))
                            .compose(),
                    "a chat box of a " + inner + " inside a Writer document");
        }
    }

    @Test
    void aTwinAtTheSamePlaceOutsideTheDocumentKeepsItAComposeField() {
        List<Node> nodes = new ArrayList<>(tree("document spreadsheet").nodes());
        nodes.add(node("u8", 2, "paragraph", CELL, true, true)); // under the second panel, same role, name, bounds
        assertTrue(enterOn(new ScopedTree(WINDOW, 1, nodes, false), focusOn("paragraph", CELL))
                .compose());
    }

    @Test
    void theFocusOfAnotherAppIsUnknownAndEnterThereSends() {
        assertTrue(
                Proposals.propose(
                                new Action.Key("Enter"),
                                tree("document spreadsheet"),
                                WINDOW,
                                null,
                                null,
                                focusOn(PID + 1, "paragraph", CELL))
                        .element()
                        .isEmpty(),
                "another process's paragraph at the same place");
    }
}

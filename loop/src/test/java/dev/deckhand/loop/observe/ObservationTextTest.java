package dev.deckhand.loop.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.fakes.Trees;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class ObservationTextTest {

    static final WindowInfo WINDOW = new WindowInfo(
            7, "Untitled 1 - Mousepad", "Mousepad", 99, new Geometry(0, 0, 900, 700), 1, true, false, false);

    private static int uid;

    private static Node n(
            List<Node> out,
            int depth,
            String role,
            String name,
            String value,
            boolean showing,
            boolean focused,
            boolean editable) {
        Node node = new Node(
                String.format("u%04x", 0x3a1 + uid++ * 7),
                depth,
                role,
                name,
                value != null,
                value,
                true,
                focused,
                editable,
                showing,
                new Geometry(10 + uid % 50, 20 + uid % 37, 80 + uid % 13, 24));
        out.add(node);
        return node;
    }

    /** A text editor's tree of about 300 nodes, shaped like what AT-SPI gives for mousepad. */
    static ScopedTree editor() {
        uid = 0;
        List<Node> t = new ArrayList<>();
        n(t, 0, "frame", "Untitled 1 - Mousepad", null, true, false, false);
        n(t, 1, "filler", "", null, true, false, false);
        n(t, 2, "menu bar", "", null, true, false, false);
        String[] menus = {"File", "Edit", "Search", "View", "Document", "Help"};
        for (String m : menus) {
            n(t, 3, "menu", m, null, true, false, false);
            for (int i = 0; i < 10; i++) n(t, 4, "menu item", m + " item " + i, null, false, false, false);
        }
        n(t, 2, "tool bar", "", null, true, false, false);
        String[] tools = {
            "New", "Open", "Save", "Save As", "Close", "Undo", "Redo", "Cut", "Copy", "Paste", "Find", "Replace"
        };
        for (String b : tools) {
            n(t, 3, "push button", b, null, true, false, false);
            n(t, 4, "label", b, null, true, false, false);
        }
        n(t, 2, "split pane", "", null, true, false, false);
        n(t, 3, "scroll pane", "", null, true, false, false);
        n(t, 4, "list", "Files", null, true, false, false);
        for (int i = 0; i < 60; i++) {
            String f = String.format("notes-%02d.txt", i);
            n(t, 5, "list item", f, null, true, false, false);
            n(t, 6, "image", "", null, true, false, false);
            n(t, 6, "label", f, null, true, false, false);
        }
        n(t, 3, "page tab list", "", null, true, false, false);
        n(t, 4, "page tab", "Untitled 1", null, true, false, false);
        n(t, 5, "panel", "", null, true, false, false);
        n(t, 6, "scroll pane", "", null, true, false, false);
        n(t, 7, "text", "", "Dear team, the quarterly figures are attached.", true, true, true);
        n(t, 2, "status bar", "", null, true, false, false);
        n(t, 3, "label", "Line 1, Column 1", null, true, false, false);
        n(t, 3, "label", "INS", null, true, false, false);
        n(t, 3, "label", "Filetype: None", null, true, false, false);
        return new ScopedTree(7, 3, t, false);
    }

    @Test
    void compactIsAtMostHalfOfTheTabularListing() {
        ScopedTree tree = editor();
        String compact = ObservationText.render(tree, WINDOW, 100_000);
        String tabular = TabularListing.render(tree);
        assertEquals(tree.nodes().size() + 1, tabular.split("\n").length, "one tabular line per node plus header");
        double ratio = (double) compact.length() / tabular.length();
        System.out.printf(
                "observation figures: %d nodes; tabular %d chars (~%d tokens); compact %d chars (~%d tokens); ratio %.2f%n",
                tree.nodes().size(),
                tabular.length(),
                ObservationText.estimateTokens(tabular),
                compact.length(),
                ObservationText.estimateTokens(compact),
                ratio);
        assertTrue(
                tree.nodes().size() >= 280 && tree.nodes().size() <= 320,
                "about 300 nodes: " + tree.nodes().size());
        assertTrue(ratio <= 0.5, "compact/tabular = " + ratio);
    }

    @Test
    void writesUsefulNodesOnlyAndCollapsesContainers() {
        String compact = ObservationText.render(editor(), WINDOW, 100_000);
        List<String> lines = List.of(compact.split("\n"));
        assertTrue(lines.get(0).startsWith("window \"Untitled 1 - Mousepad\" app Mousepad revision 3"), lines.get(0));
        assertFalse(compact.contains(" filler"), "unnamed containers are left out");
        assertFalse(compact.contains("File item 0"), "hidden menu items are left out");
        assertFalse(compact.contains(" lbl \"Save\""), "a label repeating its button's name is left out");
        assertTrue(compact.contains(" btn \"Save\"\n"), compact);
        assertTrue(compact.contains(" txt =\"Dear team, the quarterly figures are attached.\" [focused]"), compact);
        // the frame is written at depth 0; the menu under filler > menu bar collapses to depth 1
        assertTrue(lines.stream().anyMatch(l -> l.matches(" u[0-9a-f]+ menu \"File\"")), compact);
        assertTrue(compact.contains(" lbl \"Line 1, Column 1\""));
    }

    @Test
    void neverWritesAPasswordValue() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new Node("p", 0, "password text", "PIN", true, "1234", true, false, true, true, null),
                "a password node cannot even carry a value");
        String compact = ObservationText.render(Trees.dialog(1, 1), WINDOW, 1_000);
        assertTrue(compact.contains("r1-pw pwd \"Password\" [secret]"), compact);
        assertFalse(TabularListing.render(Trees.dialog(1, 1)).isEmpty());
    }

    @Test
    void staysWithinTheTokenBudgetKeepingInteractiveAndFocusedLines() {
        ScopedTree tree = editor();
        int budget = 300;
        String compact = ObservationText.render(tree, WINDOW, budget);
        System.out.printf(
                "budgeted observation: %d chars, ~%d tokens for a budget of %d%n",
                compact.length(), ObservationText.estimateTokens(compact), budget);
        assertTrue(
                ObservationText.estimateTokens(compact) <= budget,
                "~" + ObservationText.estimateTokens(compact) + " tokens");
        assertTrue(compact.contains("[focused]"), "the focused element is kept");
        assertTrue(compact.contains("more elements left out (token budget)"), compact);
        assertTrue(compact.contains(" btn \"New\""), "interactive lines outlast labels");
        assertFalse(compact.contains(" lbl \"INS\""), "non-interactive lines go first");
    }

    private static ScopedTree okDialog(boolean partial) {
        return new ScopedTree(
                7,
                4,
                List.of(
                        new Node(
                                "uF",
                                0,
                                "frame",
                                "Order",
                                false,
                                null,
                                true,
                                false,
                                false,
                                true,
                                new Geometry(100, 50, 400, 300)),
                        new Node(
                                "uOK",
                                1,
                                "push button",
                                "OK",
                                false,
                                null,
                                true,
                                true,
                                false,
                                true,
                                new Geometry(380, 300, 80, 30)),
                        new Node(
                                "uPW",
                                1,
                                "password text",
                                "PIN",
                                true,
                                null,
                                true,
                                false,
                                true,
                                true,
                                new Geometry(140, 120, 200, 24)),
                        new Node("uNB", 1, "label", "No bounds", false, null, true, false, false, true, null)),
                partial);
    }

    private static final WindowInfo DIALOG =
            new WindowInfo(7, "Order", "yad", 99, new Geometry(100, 50, 400, 300), 1, true, false, false);

    @Test
    void boundsAreWrittenOnlyWithAFrameAndInItsPixels() {
        assertFalse(
                ObservationText.render(okDialog(false), DIALOG, 1_000).contains("@"),
                "no frame (a11y_only): no bounds");
        String window = ObservationText.render(
                okDialog(false),
                DIALOG,
                1_000,
                java.util.Optional.of(new ObservationText.Frame(DIALOG.geometry(), 1, "window pixels")));
        assertTrue(
                window.startsWith("window \"Order\" app yad revision 4; bounds @x,y wxh in window pixels\n"), window);
        assertTrue(window.contains("uOK btn \"OK\" [focused] @280,250 80x30\n"), "window-relative: " + window);
        assertTrue(window.contains("uNB lbl \"No bounds\"\n"), "an element without bounds has none written: " + window);
        // a capture downscaled by half: the same button in the capture's pixels, where click_at points
        String capture = ObservationText.render(
                okDialog(false),
                DIALOG,
                1_000,
                java.util.Optional.of(new ObservationText.Frame(DIALOG.geometry(), 0.5, "capture c1's pixels")));
        assertTrue(capture.contains("; bounds @x,y wxh in capture c1's pixels\n"), capture);
        assertTrue(capture.contains("uOK btn \"OK\" [focused] @140,125 40x15\n"), capture);
        assertTrue(
                capture.contains("uPW pwd \"PIN\" [secret] @20,35 100x12\n"),
                "a password field: bounds, never a value: " + capture);
        assertThrows(IllegalArgumentException.class, () -> new ObservationText.Frame(DIALOG.geometry(), 0, "x"));
        assertThrows(IllegalArgumentException.class, () -> new ObservationText.Frame(DIALOG.geometry(), 1.5, "x"));
    }

    @Test
    void theHeaderSaysWhenTheTreeIsPartial() {
        assertTrue(ObservationText.render(okDialog(true), DIALOG, 1_000)
                .split("\n")[0]
                .endsWith("(partial tree: the application did not answer for every element)"));
        assertFalse(ObservationText.render(okDialog(false), DIALOG, 1_000).contains("partial"));
    }

    @Test
    void anUnnamedPixelSurfaceIsWrittenWithItsBoundsOnlyWhenPixelsAreAllowed() {
        List<Node> n = new ArrayList<>(okDialog(false).nodes());
        n.add(new Node(
                "uCV", 1, "drawing area", "", false, null, true, false, false, true, new Geometry(120, 90, 300, 200)));
        n.add(new Node("uPN", 1, "panel", "", false, null, true, false, false, true, new Geometry(100, 50, 400, 300)));
        n.add(new Node("uNO", 1, "canvas", "", false, null, true, false, false, true, null));
        ScopedTree tree = new ScopedTree(7, 4, n, false);
        String plain = ObservationText.render(tree, DIALOG, 1_000);
        assertFalse(plain.contains("uCV"), "without pixels a canvas says nothing: " + plain);
        String capture = ObservationText.render(
                tree,
                DIALOG,
                1_000,
                java.util.Optional.of(new ObservationText.Frame(DIALOG.geometry(), 0.5, "capture c1's pixels")));
        assertTrue(
                capture.contains("uCV drawing area @10,20 150x100\n"),
                "where click_at reaches the drawing: " + capture);
        assertFalse(capture.contains("uPN"), "an unnamed container stays out: " + capture);
        assertFalse(capture.contains("uNO"), "a surface without bounds shows nowhere: " + capture);
    }
}

package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.Consequential;
import dev.deckhand.grant.ConsequentialWords;
import dev.deckhand.grant.ProposedAction;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Round 18's A1 to A4 and N1, N2: a key that moves, or a typed letter, on a page's tab, tree item, option or grid cell
 * brought the choice to "Pay now", "Delete all files", "Delete account", "Send payment", on which the page's script
 * ran; and {@code key Menu} then {@code type "p"} chose a context menu's Paste. The trees are the ones Chromium showed
 * for the reviewer's page (roles and states as read).
 */
@Tag("pure")
class ReachTest {

    private static Node node(String uid, int depth, String role, String name, String... states) {
        return new Node(
                uid,
                depth,
                role,
                name,
                false,
                null,
                true,
                false,
                false,
                true,
                new Geometry(0, 0, 10, 10),
                false,
                false,
                Set.of(states),
                "",
                "");
    }

    private static final List<Node> PAGE = List.of(
            node("f", 0, "frame", "W18 widgets - Chromium"),
            node("d", 1, "document web", "W18 widgets", "focusable"),
            node("tl", 2, "page tab list", "Sections"),
            node("t1", 3, "page tab", "Overview", "selectable", "focusable", "selected"),
            node("t2", 3, "page tab", "Pay now", "selectable", "focusable"),
            node("tr", 2, "tree", "Files"),
            node("i1", 3, "tree item", "Keep", "selectable", "focusable", "selected"),
            node("i1s", 4, "static", "Keep"),
            node("i2", 3, "tree item", "Delete all files", "selectable", "focusable"),
            node("lb", 2, "list box", "Plan"),
            node("o1", 3, "list item", "Keep", "selectable", "focusable", "selected"),
            node("o2", 3, "list item", "Delete account", "selectable", "focusable"),
            node("g", 2, "table", "Orders"),
            node("r1", 3, "table row", "Keep Later"),
            node("c1", 4, "table cell", "Keep", "focusable"),
            node("c2", 4, "table cell", "Later", "focusable"),
            node("r2", 3, "table row", "Send payment"),
            node("c3", 4, "table cell", "Send payment", "focusable"),
            node("nt", 2, "page tab list", "Settings"),
            node("n1", 3, "page tab", "General", "selectable", "focusable", "selected"),
            node("n2", 3, "page tab", "Advanced", "selectable", "focusable"),
            node("b", 2, "push button", "Delete everything", "focusable"));

    private static ScopedTree page() {
        return new ScopedTree(1, 1, PAGE, false);
    }

    private static Node byUid(ScopedTree t, String uid) {
        return t.byUid(uid).orElseThrow();
    }

    /** The gate's verdict on {@code key} (or typing {@code typed}) with {@code uid} focused. */
    private static Optional<Consequential.Match> judged(ScopedTree t, String uid, String key, String typed) {
        Node n = byUid(t, uid);
        ProposedAction.Element e = Proposals.element(n).withReach(Proposals.reach(t, n));
        ProposedAction a = key != null ? ProposedAction.key(key, 1, 1, e) : ProposedAction.type(1, 1, e, typed);
        return Consequential.classify(a, ConsequentialWords.defaults());
    }

    @Test
    void aKeyThatMovesIsJudgedByTheItemsItCanReach() {
        ScopedTree t = page();
        assertTrue(judged(t, "t1", "Right", null).orElseThrow().categories().contains("pay"));
        assertTrue(judged(t, "i1", "Down", null).orElseThrow().categories().contains("delete"));
        assertTrue(judged(t, "o1", "End", null).orElseThrow().categories().contains("delete"));
        // a grid's cell: Down leaves its row, so its group is the table
        assertTrue(judged(t, "c1", "Down", null).orElseThrow().categories().contains("send"));
        assertTrue(
                judged(t, "c1", "shift+Right", null).orElseThrow().categories().contains("send"));
        // type-ahead: a letter on a tree's item chooses the item it starts
        assertTrue(judged(t, "i1", null, "D").orElseThrow().categories().contains("delete"));
        String what = judged(t, "t1", "Right", null).orElseThrow().what();
        assertTrue(what.contains("may bring the focus or the choice to another of the 1 items"), what);
        assertTrue(!what.contains("Pay"), "the detail names no label: " + what);
    }

    @Test
    void aGroupWhoseItemsSayNothingGatedStaysFree() {
        ScopedTree t = page();
        assertEquals(Optional.empty(), judged(t, "n1", "Right", null), "General → Advanced");
        assertEquals(List.of("Advanced"), Proposals.reach(t, byUid(t, "n1")));
        // the document holds the items, so it is none itself (Page_Down scrolls a page)
        assertEquals(List.of(), Proposals.reach(t, byUid(t, "d")));
        assertEquals(Optional.empty(), judged(t, "d", "Page_Down", null));
    }

    /**
     * Round 19: tabs each wrapped in four groups (T1a), roving links (T1e) and a toolbar whose script clicks the button
     * a key moves to (T1h) passed a rule that looked three levels up and counted only selectable or checkable items.
     */
    @Test
    void itemsAtAnyDepthAndEveryFocusableControlCount() {
        List<Node> nodes = new ArrayList<>();
        nodes.add(node("d", 0, "document web", "p1", "focusable"));
        nodes.add(node("tl", 1, "page tab list", "Deep"));
        int depth = 2;
        for (String tab : List.of("Overview", "Pay now")) {
            for (int g = 0; g < 4; g++) nodes.add(node(tab + g, depth + g, "grouping", ""));
            nodes.add(node(tab, depth + 4, "page tab", tab, "selectable", "focusable"));
        }
        nodes.add(node("nav", 1, "landmark", "Sections"));
        nodes.add(node("l1", 2, "link", "Overview page", "focusable"));
        nodes.add(node("l2", 2, "link", "Pay now page", "focusable"));
        nodes.add(node("tb", 1, "tool bar", "Format"));
        nodes.add(node("bold", 2, "push button", "Bold", "focusable"));
        nodes.add(node("pay", 2, "push button", "Pay now", "focusable"));
        ScopedTree t = new ScopedTree(1, 1, nodes, false);
        assertEquals(List.of("Pay now"), Proposals.reach(t, byUid(t, "Overview")));
        assertTrue(
                judged(t, "Overview", "Right", null).orElseThrow().categories().contains("pay"));
        assertTrue(judged(t, "l1", "Right", null).orElseThrow().categories().contains("pay"));
        assertTrue(judged(t, "bold", "Right", null).orElseThrow().categories().contains("pay"));
        assertEquals(List.of("Pay now"), Proposals.reach(t, byUid(t, "bold")), "the tool bar is its group");
        assertEquals(List.of("Pay now page"), Proposals.reach(t, byUid(t, "l1")), "the landmark is its group");
    }

    /**
     * Round 20: a list's items, headings, feed articles, images and description terms, each focusable, moved to "Pay
     * now" by a page's keys (A4 to A8); tabs each wrapped with their own close button in a group (A10); a focused list
     * whose items the active descendant names (A9); and keys beyond those that move (A11). Any role a key moves to is
     * an item unless it takes keys as content; its group reaches the elements of its own role; its own items count.
     */
    @Test
    void everyFocusableRoleIsAnItemAndItsRolesGroupCounts() {
        List<Node> nodes = new ArrayList<>();
        nodes.add(node("d", 0, "document web", "p2", "focusable"));
        nodes.add(node("ul", 1, "list", "Sections"));
        // as Chromium reports a page's list item: no name, its text in a child
        nodes.add(node("li1", 2, "list item", "", "focusable"));
        nodes.add(node("li1s", 3, "static", "Overview"));
        nodes.add(node("li2", 2, "list item", "", "focusable"));
        nodes.add(node("li2s", 3, "static", "Pay now"));
        nodes.add(node("feed", 1, "feed", ""));
        nodes.add(node("a1", 2, "article", "Intro", "focusable"));
        nodes.add(node("a2", 2, "article", "Pay now", "focusable"));
        nodes.add(node("h", 1, "section", ""));
        nodes.add(node("h1", 2, "heading", "Summary", "focusable"));
        nodes.add(node("h2", 2, "heading", "Pay now", "focusable"));
        nodes.add(node("pics", 1, "section", ""));
        nodes.add(node("img1", 2, "image", "Cat", "focusable"));
        nodes.add(node("img2", 2, "image", "Pay now", "focusable"));
        nodes.add(node("tl", 1, "page tab list", "Wrapped"));
        for (String tab : List.of("Overview", "Pay now")) {
            nodes.add(node("g" + tab, 2, "grouping", ""));
            nodes.add(node("tab" + tab, 3, "page tab", tab, "selectable", "focusable"));
            nodes.add(node("x" + tab, 3, "push button", "Close tab " + tab, "focusable"));
        }
        nodes.add(node("act", 1, "list", "Moves", "focusable"));
        nodes.add(node("o1", 2, "list item", "Overview"));
        nodes.add(node("o2", 2, "list item", "Send payment"));
        // V-AD div: Chromium reports the focus on the active descendant, a role-less element no key could focus
        nodes.add(node("panel", 1, "section", "Panel", "focusable"));
        nodes.add(node("d1", 2, "section", "Overview"));
        nodes.add(node("d2", 2, "section", "Send payment"));
        ScopedTree t = new ScopedTree(1, 1, nodes, false);
        for (String uid : List.of("li1", "a1", "h1", "img1", "tabOverview")) {
            assertTrue(
                    Proposals.reach(t, byUid(t, uid)).stream().anyMatch(r -> r.contains("Pay now")),
                    uid + ": " + Proposals.reach(t, byUid(t, uid)));
            assertTrue(judged(t, uid, "Down", null).orElseThrow().categories().contains("pay"), uid);
        }
        assertTrue(judged(t, "act", "Down", null).orElseThrow().categories().contains("send"), "A9");
        assertTrue(judged(t, "d1", "Down", null).orElseThrow().categories().contains("send"), "V-AD div");
        assertTrue(judged(t, "d1", null, "s").orElseThrow().categories().contains("send"), "V-AD div, typed");
        // A11: any key but Tab, Escape and a plain Enter or space may reach another item
        for (String key :
                List.of("2", "F6", "Insert", "Delete", "F2", "ctrl+Return", "shift+Return", "ctrl+Page_Down")) {
            assertTrue(
                    judged(t, "tabOverview", key, null)
                            .orElseThrow()
                            .categories()
                            .contains("pay"),
                    key);
        }
        for (String key : List.of("Tab", "shift+Tab", "Escape", "Return", "space")) {
            assertEquals(Optional.empty(), judged(t, "tabOverview", key, null), key);
        }
    }

    /**
     * Writer reported its root pane focused after a {@code set_text}, and {@code ctrl+s} was judged by the whole
     * window's words (Paste, in its toolbar): a window or a pane of one is no item, and an accelerator of the app's
     * menu is judged as its item, not as a move among items.
     */
    @Test
    void aWindowsPaneIsNoItemAndAnAcceleratorIsItsItem() {
        List<Node> nodes = new ArrayList<>();
        nodes.add(node("f", 0, "frame", "memo.txt - LibreOffice Writer"));
        nodes.add(node("rp", 1, "root pane", "memo.txt - LibreOffice Writer", "focusable"));
        nodes.add(node("tb", 2, "tool bar", "Standard"));
        nodes.add(node("paste", 3, "push button", "Paste", "focusable"));
        nodes.add(node("bold", 3, "push button", "Bold", "focusable"));
        ScopedTree t = new ScopedTree(1, 1, nodes, false);
        assertEquals(List.of(), Proposals.reach(t, byUid(t, "rp")));
        assertEquals(Optional.empty(), judged(t, "rp", "ctrl+s", null));
        // on a toolbar's button ctrl+s is judged by reach, unless it is the accelerator of a menu item
        assertTrue(judged(t, "bold", "ctrl+s", null).isPresent());
        Node bold = byUid(t, "bold");
        ProposedAction.Element e = Proposals.element(bold).withReach(Proposals.reach(t, bold));
        dev.deckhand.grant.Accelerators save = dev.deckhand.grant.Accelerators.read(
                List.of(new dev.deckhand.grant.Accelerators.Binding(
                        new ProposedAction.Element("menu item", "Save", false, false, false), "<Control>s")),
                1);
        ProposedAction a = ProposedAction.key("ctrl+s", 1, 1, e)
                .withContext(new ProposedAction.WindowContext(false, "", Optional.empty()).withAccelerators(save));
        assertEquals(Optional.empty(), Consequential.classify(a, ConsequentialWords.defaults()));
    }

    /**
     * AbiWord's page is focusable and reports no text: typing into it was judged by its toolbar's words once any
     * focusable element counted as an item. A widget that takes keys as its content is no item.
     */
    @Test
    void aPageOrCanvasThatTakesKeysIsNoItem() {
        List<Node> nodes = new ArrayList<>();
        nodes.add(node("f", 0, "frame", "letter.txt - AbiWord"));
        nodes.add(node("tb", 1, "tool bar", ""));
        nodes.add(node("print", 2, "push button", "Print", "focusable"));
        nodes.add(node("send", 2, "push button", "Send", "focusable"));
        nodes.add(node("page", 1, "drawing area", "", "focusable"));
        ScopedTree t = new ScopedTree(1, 1, nodes, false);
        assertEquals(List.of(), Proposals.reach(t, byUid(t, "page")));
        assertEquals(Optional.empty(), judged(t, "page", "Down", null));
        assertEquals(Optional.empty(), judged(t, "page", null, "Thank you. "));
    }

    @Test
    void anOfficeDocumentsCellsMoveTheCursorOnly() {
        List<Node> nodes = new ArrayList<>();
        nodes.add(node("f", 0, "frame", "sheet.ods - LibreOffice Calc"));
        nodes.add(node("s", 1, "document spreadsheet", "Sheet1"));
        nodes.add(node("t", 2, "table", "Sheet1"));
        nodes.add(node("a1", 3, "table cell", "A1", "selectable", "focusable", "selected"));
        nodes.add(node("a2", 3, "table cell", "Send payment", "selectable", "focusable"));
        ScopedTree t = new ScopedTree(1, 1, nodes, false);
        assertEquals(List.of(), Proposals.reach(t, byUid(t, "a1")));
        assertEquals(Optional.empty(), judged(t, "a1", "Down", null));
    }

    @Test
    void keysAndTypingWhileTheAppsOwnMenuHoldsTheKeyboardChooseAnItem() {
        ProposedAction.Element view = new ProposedAction.Element("text", "", false, true, true);
        ProposedAction.WindowContext menu =
                new ProposedAction.WindowContext(false, "", Optional.empty()).withMenuHoldsKeys(true);
        ConsequentialWords w = ConsequentialWords.defaults();
        for (ProposedAction a : List.of(
                ProposedAction.type(1, 1, view, "p"),
                ProposedAction.key("p", 1, 1, view),
                ProposedAction.key("Enter", 1, 1, view),
                ProposedAction.key("space", 1, 1, view),
                ProposedAction.key("Tab", 1, 1, view))) {
            Consequential.Match m =
                    Consequential.classify(a.withContext(menu), w).orElseThrow();
            assertTrue(m.categories().contains(Consequential.UNIDENTIFIED), m.toString());
            assertTrue(m.what().contains("the app's own menu holds the keyboard"), m.what());
        }
        for (String free : List.of("Down", "Up", "Escape")) {
            assertEquals(
                    Optional.empty(),
                    Consequential.classify(ProposedAction.key(free, 1, 1, view).withContext(menu), w),
                    free);
        }
        // the same typing with no menu open is data
        assertEquals(Optional.empty(), Consequential.classify(ProposedAction.type(1, 1, view, "p"), w));
    }
}

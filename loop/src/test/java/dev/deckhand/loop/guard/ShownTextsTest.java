package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.Consequential;
import dev.deckhand.grant.ConsequentialWords;
import dev.deckhand.grant.ProposedAction;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.desktop.Basis;
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
 * What the guard makes of the tree for the consequential gate ({@link Proposals#element(ScopedTree, Node)}): every
 * text a control shows (its description, its own text, its descendants'), the label of a group it is the only
 * control of, and the control a click on its label or icon reaches — in trees shaped as Chromium, GTK 3 and
 * LibreOffice show them (measured with {@code platform.atspi} on the apps installed here, docs/security.md).
 */
@Tag("pure")
class ShownTextsTest {

    static final long WINDOW = 0x500001L;
    static final int PID = 200;

    private static Node node(
            String uid, int depth, String role, String name, String description, String text, Geometry bounds) {
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
                bounds,
                false,
                false,
                Set.of(),
                description,
                text);
    }

    private static Node node(String uid, int depth, String role, String name) {
        return node(uid, depth, role, name, "", "", null);
    }

    private static DesktopFacts facts() {
        List<WindowInfo> windows = List.of(new WindowInfo(
                WINDOW, "Shop - Chromium", "chromium", PID, new Geometry(0, 0, 800, 600), 0, true, false, false));
        return new DesktopFacts(
                false,
                false,
                Set.of("chromium"),
                windows,
                Optional.empty(),
                WINDOW,
                Optional.empty(),
                List.of(),
                Optional.empty());
    }

    private static ProposedAction click(ScopedTree tree, String uid) {
        return Proposals.propose(new Action.Click(uid), tree, WINDOW, null, null, facts());
    }

    private static ProposedAction clickAt(ScopedTree tree, int x, int y) {
        Basis basis = new Basis(1, WINDOW, new Geometry(0, 0, 800, 600), 1.0);
        return Proposals.propose(new Action.ClickAt(x, y, "b"), tree, WINDOW, null, basis, facts());
    }

    private static Set<String> gate(ProposedAction a) {
        return Consequential.classify(a, ConsequentialWords.defaults())
                .map(Consequential.Match::categories)
                .orElse(Set.of());
    }

    /**
     * Chromium: {@code <button aria-label="Cancel">Pay now</button>} is a push button named Cancel whose Text
     * interface shows "Pay now" (no children); {@code <button><span>Pay</span> <b>now</b></button>} has static
     * children; an icon-only button has an unnamed image child; an icon-only link likewise.
     */
    private static ScopedTree page() {
        List<Node> n = new ArrayList<>();
        n.add(node("u0", 0, "frame", "Shop - Chromium"));
        // a browser window is no dialog (it has many controls; here a menu bar says so): the page's own texts do not
        // make every button of it consequential
        n.add(node("ub", 1, "menu bar", ""));
        n.add(node("u1", 1, "document web", "Shop"));
        n.add(node("u2", 2, "push button", "Cancel", "", "Pay now", new Geometry(10, 10, 80, 20)));
        n.add(node("u3", 2, "push button", "Back", "", "Back", new Geometry(100, 10, 80, 20)));
        n.add(node("u4", 2, "push button", "", "", "\uFFFC", new Geometry(10, 40, 20, 20)));
        n.add(node("u5", 3, "image", "", "", "", new Geometry(12, 42, 16, 16)));
        n.add(node("u6", 2, "push button", "Pay now", "", "Pay now", new Geometry(10, 70, 80, 20)));
        n.add(node("u7", 3, "static", "Pay", "", "Pay", new Geometry(12, 72, 30, 16)));
        n.add(node("u8", 3, "static", "now", "", "now", new Geometry(50, 72, 30, 16)));
        n.add(node("u9", 2, "link", "", "", "\uFFFC", new Geometry(10, 100, 20, 20)));
        n.add(node("u10", 3, "image", "", "", "", new Geometry(12, 102, 16, 16)));
        n.add(node("u11", 2, "push button", "Go", "Deletes everything", "Go", new Geometry(10, 130, 80, 20)));
        n.add(node("u12", 2, "image", "", "", "", new Geometry(300, 300, 16, 16)));
        n.add(node("u13", 2, "paragraph", "", "", "1 item, 499.00 EUR", new Geometry(300, 10, 200, 20)));
        return new ScopedTree(WINDOW, 1, n, false);
    }

    @Test
    void theTextAControlShowsIsGatedAsItsName() {
        ScopedTree page = page();
        ProposedAction cancel = click(page, "u2");
        assertEquals("Cancel", cancel.element().orElseThrow().name());
        assertEquals(List.of("Pay now"), cancel.element().get().shown());
        assertEquals(Set.of("pay"), gate(cancel), "the visible text pays whatever the name says");
        assertEquals(Set.of("delete"), gate(click(page, "u11")), "the description is shown as a tooltip");
        assertEquals(Set.of(), gate(click(page, "u3")));
    }

    @Test
    void aClickOnPartOfAControlIsAPressOfTheControl() {
        ScopedTree page = page();
        // "now" alone says nothing consequential; the button it is part of pays
        ProposedAction onNow = click(page, "u8");
        assertEquals("push button", onNow.element().orElseThrow().role());
        assertEquals(Set.of("pay"), gate(onNow));
        assertEquals(Set.of("pay"), gate(clickAt(page, 60, 80)), "the point on 'now' presses the button");
        assertEquals(Set.of("pay"), gate(clickAt(page, 20, 15)), "the point on the Cancel-named button");
    }

    @Test
    void anIconOnlyControlIsUnidentifiedByUidAndByPoint() {
        ScopedTree page = page();
        for (ProposedAction a : List.of(
                click(page, "u4"),
                click(page, "u5"),
                clickAt(page, 20, 50),
                click(page, "u9"),
                click(page, "u10"),
                clickAt(page, 20, 110))) {
            assertEquals(Set.of(Consequential.UNIDENTIFIED), gate(a), a.toString());
        }
        // an unnamed image that is no control's part: a click on it says nothing either
        assertEquals(Set.of(Consequential.UNIDENTIFIED), gate(click(page, "u12")));
        assertEquals(Set.of(Consequential.UNIDENTIFIED), gate(clickAt(page, 305, 305)));
        // a paragraph of text is a text: clicking it is not pressing anything
        assertEquals(Set.of(), gate(clickAt(page, 310, 15)));
    }

    /**
     * LibreOffice wraps an icon of the sidebar's tab bar in a panel whose description is its tooltip, inside a tool bar
     * named as the deck; a toolbar's icon in a panel described "Close Infobar"; a combo box's drop-down toggle in a
     * panel named as the combo box. Each names its one control; a tool bar of two unnamed buttons names neither.
     */
    @Test
    void aControlThatShowsNothingTakesTheLabelOfTheGroupItIsTheOnlyControlOf() {
        List<Node> n = new ArrayList<>();
        n.add(node("u0", 0, "frame", "Untitled 1 - LibreOffice Writer"));
        n.add(node("mb", 1, "menu bar", "")); // a main window, not a dialog that asks one thing
        n.add(node("u1", 1, "tool bar", "Properties", "Properties", "", null));
        n.add(node("u2", 2, "panel", "", "Properties (Ctrl+Alt+1)", "", null));
        n.add(node("u3", 3, "toggle button", ""));
        n.add(node("u4", 1, "tool bar", ""));
        n.add(node("u5", 2, "panel", "", "Close Infobar", "", null));
        n.add(node("u6", 3, "push button", ""));
        n.add(node("u7", 1, "panel", "Font Name"));
        n.add(node("u8", 2, "filler", ""));
        n.add(node("u9", 3, "text", ""));
        n.add(node("u10", 3, "toggle button", ""));
        n.add(node("u11", 1, "tool bar", "Trash"));
        n.add(node("u12", 2, "push button", ""));
        n.add(node("u13", 1, "tool bar", "Standard"));
        n.add(node("u14", 2, "push button", ""));
        n.add(node("u15", 2, "push button", ""));
        ScopedTree tree = new ScopedTree(WINDOW, 1, n, false);
        assertEquals(Set.of(), gate(click(tree, "u3")), "the sidebar's Properties tab");
        assertTrue(click(tree, "u3").element().orElseThrow().shown().contains("Properties (Ctrl+Alt+1)"));
        assertEquals(Set.of(), gate(click(tree, "u6")), "Close Infobar");
        assertEquals(Set.of(), gate(click(tree, "u10")), "the font name's drop-down");
        assertEquals(Set.of("delete"), gate(click(tree, "u12")), "the group's label is gated as the control's own");
        assertEquals(Set.of(Consequential.UNIDENTIFIED), gate(click(tree, "u14")), "a tool bar of two names neither");
        assertEquals(Set.of(Consequential.UNIDENTIFIED), gate(click(tree, "u15")));
    }

    /**
     * Qt: a menu bar's menu item holds the popup menu it opens; that menu's items are controls of their own, and the
     * menu item that opens them shows none of their texts (opening File deletes nothing).
     */
    @Test
    void aNestedControlsTextsAreItsOwn() {
        List<Node> n = new ArrayList<>();
        n.add(node("u0", 0, "frame", "Untitled"));
        n.add(node("u1", 1, "menu bar", ""));
        n.add(node("u2", 2, "menu item", "Edit"));
        n.add(node("u3", 3, "popup menu", ""));
        n.add(node("u4", 4, "menu item", "Delete"));
        n.add(node("u5", 4, "menu item", "Paste"));
        n.add(node("u6", 5, "label", "Paste"));
        n.add(node("u7", 4, "separator", ""));
        n.add(node("u8", 2, "push button", "Open"));
        n.add(node("u9", 3, "link", "Send"));
        n.add(node("u10", 3, "label", "Open the file"));
        ScopedTree tree = new ScopedTree(WINDOW, 1, n, false);
        assertEquals(Set.of(), gate(click(tree, "u2")));
        assertEquals(List.of(), click(tree, "u2").element().orElseThrow().shown());
        assertEquals(Set.of("delete"), gate(click(tree, "u4")));
        assertEquals(
                List.of("Open the file"),
                click(tree, "u8").element().orElseThrow().shown(),
                "the link is its own");
    }

    /**
     * GTK 3: a button's label is its name (no children); the calculators' keys (galculator, gnome-calculator) are
     * mathematical symbols and punctuation, which say something; a pictograph alone does not.
     */
    @Test
    void namedControlsAndSymbolsAreNotUnidentified() {
        List<Node> n = new ArrayList<>();
        n.add(node("u0", 0, "frame", "Calculator"));
        n.add(node("mb", 1, "menu bar", "")); // galculator's; gnome-calculator's window has more than 15 controls
        n.add(node("u1", 1, "panel", ""));
        for (String key : List.of("+", "−", "×", "÷", "=", "<-", "+/-", "%", "7", "C", "AC"))
            n.add(node("k" + key, 2, "push button", key));
        ScopedTree tree = new ScopedTree(WINDOW, 1, n, false);
        for (Node k : tree.nodes()) {
            if (!k.role().equals("push button")) continue;
            assertEquals(Set.of(), gate(click(tree, k.uid())), k.name());
            assertFalse(click(tree, k.uid()).element().orElseThrow().saysNothing(), k.name());
        }
        List<Node> icons = new ArrayList<>(n);
        icons.add(node("trash", 2, "push button", "\uD83D\uDDD1"));
        ScopedTree withIcon = new ScopedTree(WINDOW, 1, icons, false);
        assertEquals(Set.of(Consequential.UNIDENTIFIED), gate(click(withIcon, "trash")), "a wastebasket pictograph");
    }

    /**
     * Round 4's L4: a page's {@code role="alertdialog"} asking "Delete all 3 messages permanently?" with an OK: the
     * page's dialog is a dialog, so its OK carries what it asks, as a window dialog's does; an OK elsewhere does not.
     */
    @Test
    void anOkInsideAPagesAlertDialogCarriesWhatTheDialogAsks() {
        List<Node> n = new ArrayList<>();
        n.add(node("u0", 0, "frame", "Mail - Chromium"));
        n.add(node("ub", 1, "menu bar", ""));
        n.add(node("u1", 1, "document web", "Mail"));
        n.add(node("ok0", 2, "push button", "OK"));
        n.add(node("d1", 2, "alert", "Delete all 3 messages permanently?"));
        n.add(node("det", 3, "push button", "Details"));
        n.add(node("ok1", 3, "push button", "OK"));
        n.add(node("after", 2, "push button", "Next"));
        ScopedTree tree = new ScopedTree(WINDOW, 1, n, false);
        assertEquals(Set.of("delete"), gate(click(tree, "ok1")), "the dialog's OK");
        assertEquals(Set.of("delete"), gate(click(tree, "det")), "every button of a gated dialog");
        assertEquals(Set.of(), gate(click(tree, "ok0")), "an OK outside the dialog");
        assertEquals(Set.of(), gate(click(tree, "after")), "a button after the dialog's subtree");
    }
}

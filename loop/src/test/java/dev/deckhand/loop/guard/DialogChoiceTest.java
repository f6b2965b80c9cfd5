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

    /** A node; a list's row carries {@code selectable}, as GTK 3's list cells do (measured on yad's and zenity's). */
    private static Node node(String uid, int depth, String role, String name, Set<String> states) {
        Set<String> all = new java.util.HashSet<>(states);
        if (dev.deckhand.grant.ProposedAction.Element.ROW_ROLES.contains(role)) all.add("selectable");
        return new Node(uid, depth, role, name, false, null, true, false, false, true, null, false, false, all, "", "");
    }

    /** A node with a value: a combo box, a spin button, a field (also for {@link DialogWordsTest}). */
    static Node valued(
            String uid,
            int depth,
            String role,
            String name,
            String value,
            boolean editable,
            boolean singleLine,
            Set<String> states) {
        return new Node(
                uid,
                depth,
                role,
                name,
                true,
                value,
                true,
                false,
                editable,
                true,
                null,
                singleLine,
                false,
                states,
                "",
                "");
    }

    private static Set<String> okGates(List<Node> chosen) {
        List<Node> nodes = new java.util.ArrayList<>(
                List.of(node("f", 0, "frame", "Files", Set.of()), node("l", 1, "label", "What now?", Set.of())));
        nodes.addAll(chosen);
        nodes.add(node("ok", 1, "push button", "OK", Set.of()));
        nodes.add(node("no", 1, "push button", "Cancel", Set.of()));
        return gates(
                nodes,
                "ok",
                new WindowInfo(WINDOW, "Files", "yad", 300, new Geometry(0, 0, 400, 300), 0, true, false, false));
    }

    /** The categories a click on {@code uid} is gated by, in the window {@code window} the tree is of. */
    private static Set<String> gates(List<Node> nodes, String uid, WindowInfo window) {
        return gates(nodes, new Action.Click(uid), window, Optional.empty());
    }

    /**
     * The categories {@code action} is gated by, in the window {@code window} the tree is of (id {@link #WINDOW}), with
     * the accessibility focus {@code focus} read now (also for {@link DialogWordsTest}).
     */
    static Set<String> gates(
            List<Node> nodes, Action action, WindowInfo window, Optional<DesktopFacts.FocusedElement> focus) {
        ScopedTree tree = new ScopedTree(WINDOW, 1, nodes, false);
        DesktopFacts facts = new DesktopFacts(
                false,
                false,
                Set.of(window.app()),
                List.of(window),
                Optional.empty(),
                WINDOW,
                focus,
                List.of(),
                Optional.empty());
        return Consequential.classify(
                        Proposals.propose(action, tree, WINDOW, null, null, facts), ConsequentialWords.defaults())
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
        Node entry = valued("e", 2, "text", "", "Delete originals", true, true, Set.of());
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

    /**
     * Round 9 (LR3): a click on a row of yad's list ("Choose a file", buttons Cancel and Send, no default marked in the
     * tree) activated it, which yad takes as its OK: Send. Where the tree marks no default button, Enter or an
     * activating click may press any of the dialog's buttons.
     */
    @Test
    void aRowsClickInADialogWithNoMarkedDefaultMayPressAnyOfItsButtons() {
        List<Node> nodes = List.of(
                node("f", 0, "frame", "Files", Set.of()),
                node("l", 1, "label", "Choose a file", Set.of()),
                node("t", 1, "table", "", Set.of()),
                node("a", 2, "table cell", "a.txt", Set.of()),
                node("b", 2, "table cell", "b.txt", Set.of()),
                node("no", 1, "push button", "Cancel", Set.of()),
                node("send", 1, "push button", "Send", Set.of()));
        assertTrue(clickGates(nodes, "a").contains("send"), "the row's click");
        List<Node> open = new java.util.ArrayList<>(nodes.subList(0, 6));
        open.add(node("open", 1, "push button", "Open", Set.of()));
        assertEquals(Set.of(), clickGates(open, "a"), "a list whose buttons are harmless");
    }

    /**
     * Round 8 (ZR): zenity's and yad's radio and check lists put the checked state on an unnamed toggle cell before
     * the row's text: the row after it is the choice.
     */
    @Test
    void aCheckedToggleCellChoosesTheTextOfItsRow() {
        Node table = node("t", 1, "table", "", Set.of());
        List<Node> keep = List.of(
                table,
                node("h1", 2, "table column header", "Pick", Set.of()),
                node("h2", 2, "table column header", "Action", Set.of()),
                node("k0", 2, "table cell", "", Set.of("checked")),
                node("k1", 2, "table cell", "Keep originals", Set.of()),
                node("d0", 2, "table cell", "", Set.of()),
                node("d1", 2, "table cell", "Delete originals", Set.of()));
        assertEquals(Set.of(), okGates(keep), "the harmless row checked");
        List<Node> delete = List.of(
                table,
                node("k0", 2, "table cell", "", Set.of()),
                node("k1", 2, "table cell", "Keep originals", Set.of()),
                node("d0", 2, "table cell", "", Set.of("checked")),
                node("d1", 2, "table cell", "Delete originals", Set.of()));
        assertTrue(okGates(delete).contains("delete"), "the row its toggle checks");
    }

    /**
     * Round 8 (CS1–CS3): a web page's OK confirms the option its {@code <select>} shows (Chromium gives the combo's
     * value as U+FFFC and the option as a selected child), its checked radio button and its selected tab, though the
     * browser's window around the page has more controls than a dialog.
     */
    @Test
    void aWebPagesOkConfirmsItsSelectRadioOrTabChoice() {
        List<Node> browser = new java.util.ArrayList<>();
        browser.add(node("f", 0, "frame", "Import - Chromium", Set.of()));
        for (int i = 0; i < 20; i++) browser.add(node("b" + i, 1, "push button", "Tool " + i, Set.of()));
        browser.add(node("d", 1, "document web", "Import", Set.of()));
        browser.add(node("h", 2, "heading", "Import finished", Set.of()));
        Node select = valued("s", 2, "combo box", "Then:", "\uFFFC", false, false, Set.of());
        for (List<Node> choice : List.of(
                List.of(
                        select,
                        node("m", 3, "menu", "", Set.of()),
                        node("o1", 4, "menu item", "Keep originals", Set.of()),
                        node("o2", 4, "menu item", "Delete originals", Set.of("selected"))),
                List.of(
                        node("r1", 2, "radio button", "Keep originals", Set.of()),
                        node("r2", 2, "radio button", "Delete originals", Set.of("checked"))),
                List.of(
                        node("t1", 2, "page tab", "Keep originals", Set.of()),
                        node("t2", 2, "page tab", "Delete originals", Set.of("selected"))))) {
            List<Node> nodes = new java.util.ArrayList<>(browser);
            nodes.addAll(choice);
            nodes.add(node("ok", 2, "push button", "OK", Set.of()));
            assertTrue(clickGates(nodes, "ok").contains("delete"), choice.toString());
        }
        // round 9: as real Chromium gives a <select> — its value U+FFFC, no option in the tree — the choice is not
        // read, so a press of the page's OK is unidentified
        List<Node> unread = new java.util.ArrayList<>(browser);
        unread.add(select);
        unread.add(node("ok", 2, "push button", "OK", Set.of()));
        assertEquals(Set.of(Consequential.UNIDENTIFIED), clickGates(unread, "ok"), "a select whose choice is not read");
        // round 9 (WD): a datalist, an editable combo whose value is the page's preset choice
        List<Node> datalist = new java.util.ArrayList<>(browser);
        datalist.add(valued("dl", 2, "combo box", "Then:", "Delete originals", true, true, Set.of("editable")));
        datalist.add(node("ok", 2, "push button", "OK", Set.of()));
        assertTrue(clickGates(datalist, "ok").contains("delete"), "a datalist's preset value");
        // round 10 (PR, SP): a toggle button shown pressed, a spin button whose value is words
        List<Node> pressed = new java.util.ArrayList<>(browser);
        pressed.add(node("tg", 2, "toggle button", "Delete originals", Set.of("pressed")));
        pressed.add(node("ok", 2, "push button", "OK", Set.of()));
        assertTrue(clickGates(pressed, "ok").contains("delete"), "a pressed toggle button");
        List<Node> spin = new java.util.ArrayList<>(browser);
        spin.add(valued("sp", 2, "spin button", "Then", "Delete originals", false, false, Set.of()));
        spin.add(node("ok", 2, "push button", "OK", Set.of()));
        assertTrue(clickGates(spin, "ok").contains("delete"), "a spin button's value text");
        // round 10 (PR), as Chromium 143 gives them: a menu button named by its value (has-popup), a link marked
        // current (aria-current: active), a read-only field's value
        List<Node> menuButton = new java.util.ArrayList<>(browser);
        menuButton.add(node("mb", 2, "push button", "Then: Delete originals", Set.of("has-popup", "expandable")));
        menuButton.add(node("ok", 2, "push button", "OK", Set.of()));
        assertTrue(clickGates(menuButton, "ok").contains("delete"), "a menu button named by its value");
        List<Node> current = new java.util.ArrayList<>(browser);
        current.add(node("k", 2, "link", "Keep originals", Set.of("focusable")));
        current.add(node("c", 2, "link", "Delete originals", Set.of("focusable", "active")));
        current.add(node("ok", 2, "push button", "OK", Set.of()));
        assertTrue(clickGates(current, "ok").contains("delete"), "a link marked current");
        List<Node> readOnly = new java.util.ArrayList<>(browser);
        readOnly.add(valued(
                "ro", 2, "entry", "Action", "Delete originals", false, true, Set.of("read-only", "single-line")));
        readOnly.add(node("ok", 2, "push button", "OK", Set.of()));
        assertTrue(clickGates(readOnly, "ok").contains("delete"), "a read-only field's value");
        // round 11 (VT): a scroll bar's and a meter's value text
        for (String role : List.of("scroll bar", "level bar")) {
            List<Node> valued = new java.util.ArrayList<>(browser);
            valued.add(valued("v", 2, role, "Then", "Delete originals", false, false, Set.of()));
            valued.add(node("ok", 2, "push button", "OK", Set.of()));
            assertTrue(clickGates(valued, "ok").contains("delete"), role);
        }
        List<Node> harmless = new java.util.ArrayList<>(browser);
        harmless.add(node("r1", 2, "radio button", "Keep originals", Set.of("checked")));
        harmless.add(node("r2", 2, "radio button", "Delete originals", Set.of()));
        harmless.add(node("ok", 2, "push button", "OK", Set.of()));
        assertEquals(Set.of(), clickGates(harmless, "ok"), "the harmless radio button checked");
    }

    private static Set<String> clickGates(List<Node> nodes, String uid) {
        return gates(
                nodes,
                uid,
                new WindowInfo(
                        WINDOW,
                        "Import - Chromium",
                        "chromium",
                        300,
                        new Geometry(0, 0, 800, 600),
                        0,
                        true,
                        false,
                        false));
    }

    /**
     * Round 10's NW10 through the guard's reading of the window: a dialog that asks one thing (yad: a frame, a text and
     * two buttons) makes a button no list places {@code unlisted}; an editor with no menu bar (a GTK 4 header bar and a
     * text area), a page that shows a choice and a main window keep judging buttons by their words.
     */
    @Test
    void aButtonThatAnswersADialogAndSaysWhatNoListKnowsIsUnlisted() {
        WindowInfo yad =
                new WindowInfo(WINDOW, "Dialog", "yad", 300, new Geometry(0, 0, 400, 300), 0, true, false, false);
        List<Node> asks = List.of(
                node("f", 0, "frame", "Dialog", Set.of()),
                node("l", 1, "label", "Please review", Set.of()),
                node("s", 1, "push button", "Shred", Set.of()),
                node("later", 1, "push button", "Later", Set.of()));
        assertEquals(Set.of(ConsequentialWords.UNLISTED), gates(asks, "s", yad));
        assertEquals(Set.of(), gates(asks, "later", yad));
        // round 11 (D): nothing but text and buttons is a question, whose Yes does what the text says
        List<Node> question = List.of(
                node("f", 0, "frame", "Dialog", Set.of()),
                node("l", 1, "label", "Shred all 3 files in Documents now?", Set.of()),
                node("y", 1, "push button", "Yes", Set.of()),
                node("later", 1, "push button", "Later", Set.of()));
        assertEquals(Set.of(ConsequentialWords.UNLISTED), gates(question, "y", yad));
        assertEquals(Set.of(), gates(question, "later", yad));
        // round 12: a link or a text to read sets nothing; one button that says more than OK answers
        List<Node> withLink = new java.util.ArrayList<>(question);
        withLink.add(node("a", 1, "link", "Learn more", Set.of()));
        withLink.add(node("t", 1, "text", "The files go for good.", Set.of()));
        assertEquals(Set.of(ConsequentialWords.UNLISTED), gates(withLink, "y", yad));
        List<Node> lone = List.of(
                node("f", 0, "frame", "Dialog", Set.of()),
                node("l", 1, "label", "Shred all 3 files in Documents now?", Set.of()),
                node("c", 1, "push button", "Continue", Set.of()));
        assertEquals(Set.of(ConsequentialWords.UNLISTED), gates(lone, "c", yad));
        List<Node> info = List.of(
                node("f", 0, "frame", "Dialog", Set.of()),
                node("l", 1, "label", "Saved.", Set.of()),
                node("ok", 1, "push button", "OK", Set.of()));
        assertEquals(Set.of(), gates(info, "ok", yad), "an information box's OK acknowledges");
        // round 13 (Q6): a text that names its one button says what the button does
        for (String[] says : List.of(
                new String[] {"Pressing OK terminates the production server.", "OK"},
                new String[] {"Pressing OK shreds all 3 files in Documents.", "OK"},
                // round 14's Q5: a form of the label names it too
                new String[] {"The 3 files in Documents are shredded when this window is closed.", "Close"})) {
            List<Node> named = List.of(
                    node("f", 0, "frame", "Dialog", Set.of()),
                    node("l", 1, "label", says[0], Set.of()),
                    node("ok", 1, "push button", says[1], Set.of()));
            assertEquals(Set.of(ConsequentialWords.UNLISTED), gates(named, "ok", yad), says[0]);
        }
        List<Node> form = new java.util.ArrayList<>(question);
        form.add(node("c", 1, "check box", "Keep a copy", Set.of()));
        assertEquals(Set.of(), gates(form, "y", yad), "a form's OK is judged by what it shows chosen");
        // round 11 (LR20): a list's rows are no controls of the window: 20 files and a Shred button are still a dialog
        List<Node> files = new java.util.ArrayList<>(
                List.of(node("f", 0, "frame", "Dialog", Set.of()), node("t", 1, "table", "", Set.of())));
        for (int i = 1; i <= 20; i++) files.add(node("r" + i, 2, "table cell", "f" + i + ".txt", Set.of()));
        files.add(node("s", 1, "push button", "Shred", Set.of()));
        files.add(node("later", 1, "push button", "Later", Set.of()));
        assertEquals(Set.of(ConsequentialWords.UNLISTED), gates(files, "s", yad));
        assertTrue(gates(files, "r3", yad).contains(ConsequentialWords.UNLISTED), "a row's click is Enter: any button");
        // a page's <dialog> with a question and OK, Later
        List<Node> webQuestion = List.of(
                node("f", 0, "frame", "Shop - Chromium", Set.of()),
                node("m", 1, "menu bar", "", Set.of()),
                node("d", 1, "document web", "Shop", Set.of()),
                node("a", 2, "dialog", "", Set.of()),
                node("p", 3, "paragraph", "Shred all 3 files in Documents now?", Set.of()),
                node("ok", 3, "push button", "OK", Set.of()),
                node("l", 3, "push button", "Later", Set.of()));
        assertEquals(Set.of(ConsequentialWords.UNLISTED), gates(webQuestion, "ok", yad));
        assertEquals(Set.of(), gates(webQuestion, "l", yad));
        // a web page's alertdialog inside a page of many controls
        List<Node> page = new java.util.ArrayList<>(List.of(
                node("f", 0, "frame", "Shop - Chromium", Set.of()),
                node("m", 1, "menu bar", "", Set.of()),
                node("d", 1, "document web", "Shop", Set.of()),
                node("a", 2, "alert", "Really?", Set.of()),
                node("s", 3, "push button", "Shred", Set.of()),
                node("c", 3, "push button", "Cancel", Set.of()),
                node("b", 2, "push button", "Follow", Set.of())));
        assertEquals(Set.of(ConsequentialWords.UNLISTED), gates(page, "s", yad));
        assertEquals(Set.of(), gates(page, "c", yad));
        assertEquals(Set.of(), gates(page, "b", yad), "outside the page's dialog the words judge");
        // a page that shows a choice: its OK is judged by the choice, its other buttons by their words
        List<Node> choice = List.of(
                node("f", 0, "frame", "Shop", Set.of()),
                node("d", 1, "document web", "Shop", Set.of()),
                node("k", 2, "check box", "Remember me", Set.of("checked")),
                node("b", 2, "push button", "Log on", Set.of()));
        assertEquals(Set.of(), gates(choice, "b", yad));
        // an editor whose window has no menu bar (gnome-text-editor's header bar) and a text area
        Node area = valued("t", 1, "text", "", "", true, false, Set.of());
        List<Node> editor = List.of(
                node("f", 0, "frame", "Untitled", Set.of()),
                node("n", 1, "push button", "New tab", Set.of()),
                node("m", 1, "push button", "Main Menu", Set.of()),
                area);
        assertEquals(Set.of(), gates(editor, "n", yad));
        assertEquals(Set.of(), gates(editor, "m", yad));
        // a main window (a menu bar)
        List<Node> main = List.of(
                node("f", 0, "frame", "Files", Set.of()),
                node("mb", 1, "menu bar", "", Set.of()),
                node("s", 1, "push button", "Shred", Set.of()));
        assertEquals(Set.of(), gates(main, "s", yad));
    }
}

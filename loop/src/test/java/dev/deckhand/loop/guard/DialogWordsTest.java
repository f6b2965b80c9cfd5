package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Which words say what a dialog's button does (docs/security.md, "What a dialog says"). From the task suite's pending
 * tasks (2026-12-07): GTK 3's Open dialog lists the place "Trash" among its sidebar's rows, and every button in it was
 * "in a dialog about delete". Then a reviewer's dialogs, which put the words where the gate did not read them: a column
 * header, a read-only text view or field, a list that offers no choice, a GTK list box's rows, a chosen row past a
 * blank cell, the app's other window. Every text a window shows counts but a control's own label, a value that can be
 * written now, and a list's rows beside its chosen one (any row of a file chooser); every window of the observation
 * speaks for a button in any of them, and the strictest window sets the rules. Each case has its control.
 */
@Tag("pure")
class DialogWordsTest {

    static final long WINDOW = DialogChoiceTest.WINDOW;

    private static Node node(String uid, int depth, String role, String name, Set<String> states) {
        return new Node(
                uid, depth, role, name, false, null, true, false, false, true, null, false, false, states, "", "");
    }

    /** GTK 3's Open dialog as AT-SPI shows it: a places list of rows holding labels, the files' list, two buttons. */
    private static List<Node> openDialog(Set<String> trashRowStates, String label) {
        trashRowStates = new java.util.HashSet<>(trashRowStates);
        trashRowStates.add("selectable");
        List<Node> nodes = new ArrayList<>(List.of(
                node("d", 0, "file chooser", "Open File", Set.of()),
                node("l", 1, "label", label, Set.of()),
                node("p", 1, "list", "", Set.of()),
                node("p1", 2, "list item", "", Set.of("selectable")),
                node("p1l", 3, "label", "Home", Set.of()),
                node("p2", 2, "list item", "", trashRowStates),
                node("p2l", 3, "label", "Trash", Set.of()),
                node("p3", 2, "list item", "", Set.of("selectable", "selected")),
                node("p3l", 3, "label", "work", Set.of()),
                node("t", 1, "table", "", Set.of()),
                node("c1", 2, "table cell", "notes.txt", Set.of("selectable")),
                node("c2", 2, "table cell", "plan.txt", Set.of("selectable"))));
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
        return gates(nodes, new Action.Click(uid), window, Optional.empty());
    }

    /** The categories {@code action} is gated by, with the accessibility focus {@code focus} read now. */
    private static Set<String> gates(
            List<Node> nodes, Action action, WindowInfo window, Optional<DesktopFacts.FocusedElement> focus) {
        return DialogChoiceTest.gates(nodes, action, window, focus);
    }

    @Test
    void aPlaceListedBesideTheChosenOneDoesNotSpeakForTheDialog() {
        assertEquals(Set.of(), gates(openDialog(Set.of(), "Files"), "open", window("Open File", true)));
    }

    /**
     * A list that shows no row chosen says what its rows say (yad's `--no-selection` list of one notice), but not in a
     * file chooser, whose places and files are what its Open chooses from: GTK 3's sidebar marks no place selected.
     */
    @Test
    void aListWithNoRowChosenSpeaksForTheDialogButAFileChoosersDoesNot() {
        List<Node> unchosen = new ArrayList<>(openDialog(Set.of(), "Files"));
        unchosen.replaceAll(n -> n.uid().equals("p3") ? node("p3", 2, "list item", "", Set.of("selectable")) : n);
        assertEquals(Set.of(), gates(unchosen, "open", window("Open File", true)), "a file chooser's places");
        List<Node> notice = List.of(
                node("d", 0, "dialog", "Notice", Set.of()),
                node("t", 1, "table", "", Set.of()),
                node("c", 2, "table cell", "Pressing OK deletes all 3 files", Set.of("selectable")),
                node("ok", 1, "push button", "OK", Set.of()));
        assertTrue(gates(notice, "ok", window("Notice", true)).contains("delete"), "a notice in a list");
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

    /** An app grant's observation: the app's window, then a small dialog that joined it (a root of its own). */
    private static List<Node> mainWithDialog(String mainLabel, String dialogLabel, String dialogRole) {
        return List.of(
                node("w", 0, "frame", "Files - Tool", Set.of()),
                node("mb", 1, "menu bar", "", Set.of()),
                node("ml", 1, "label", mainLabel, Set.of()),
                node("d", 0, dialogRole, "Tool", Set.of()),
                node("dl", 1, "label", dialogLabel, Set.of()),
                node("ok", 1, "push button", "OK", Set.of()));
    }

    /**
     * The reviewer's split: the app's window says what its dialog's lone OK does, the dialog only "Ready.". Every
     * window's words count for a button of any of them; the dialog's title too, whatever its root's role.
     */
    @Test
    void everyWindowOfTheObservationSpeaksForADialogsButton() {
        WindowInfo main = window("Files - Tool", false);
        assertTrue(
                gates(mainWithDialog("Pressing OK deletes all files", "Ready.", "dialog"), "ok", main)
                        .contains("delete"),
                "the main window's words");
        assertEquals(Set.of(), gates(mainWithDialog("3 files", "Ready.", "dialog"), "ok", main), "the control");
        List<Node> titled = new ArrayList<>(mainWithDialog("3 files", "Ready.", "frame"));
        titled.set(3, node("d", 0, "frame", "Delete Files", Set.of()));
        assertTrue(gates(titled, "ok", main).contains("delete"), "the joined window's title");
    }

    /** What a window shows beyond labels, each once a reviewer's place for the words (2026-12-07). */
    @Test
    void everyTextTheDialogShowsCountsButAControlsOwnLabelAndAWrittenValue() {
        WindowInfo yad = window("yad", true);
        List<Node> header = List.of(
                node("d", 0, "dialog", "yad", Set.of()),
                node("t", 1, "table", "", Set.of()),
                node("h", 2, "table column header", "Pressing OK deletes all files", Set.of()),
                node("c", 2, "table cell", "a.txt", Set.of("selectable")),
                node("ok", 1, "push button", "OK", Set.of()),
                node("no", 1, "push button", "Cancel", Set.of()));
        assertTrue(gates(header, "ok", yad).contains("delete"), "a column header");
        List<Node> view = List.of(
                node("d", 0, "dialog", "yad", Set.of()),
                DialogChoiceTest.valued(
                        "v", 1, "text", "", "Pressing OK deletes all files", false, false, Set.of("read-only")),
                node("ok", 1, "push button", "OK", Set.of()));
        assertTrue(gates(view, "ok", yad).contains("delete"), "a read-only text view's value");
        List<Node> progress = List.of(
                node("d", 0, "dialog", "yad", Set.of()),
                node("p", 1, "progress bar", "Pressing OK deletes all files", Set.of()),
                node("ok", 1, "push button", "OK", Set.of()));
        assertTrue(gates(progress, "ok", yad).contains("delete"), "a progress bar's text");
        List<Node> fixedRows = List.of(
                node("d", 0, "dialog", "yad", Set.of()),
                node("l", 1, "list", "", Set.of()),
                node("r", 2, "list item", "", Set.of()),
                node("rl", 3, "label", "Pressing OK deletes all files", Set.of()),
                node("ok", 1, "push button", "OK", Set.of()));
        assertTrue(gates(fixedRows, "ok", yad).contains("delete"), "a row of a list that offers no choice");
        // the controls: a button's own label and a written value say nothing of the dialog
        List<Node> written = List.of(
                node("d", 0, "dialog", "yad", Set.of()),
                DialogChoiceTest.valued("e", 1, "text", "", "delete", true, true, Set.of()),
                node("del", 1, "push button", "Remove", Set.of()),
                node("ok", 1, "push button", "OK", Set.of()),
                node("no", 1, "push button", "Cancel", Set.of()));
        assertEquals(Set.of(), gates(written, "no", yad), "Cancel beside a Remove button, a field holding typed text");
    }

    /** zenity's radio list with a blank cell between the toggle and the row's text: the headers give the row. */
    @Test
    void aChosenRowIsReadToItsLastColumnPastABlankCell() {
        WindowInfo zenity = window("zenity", true);
        List<Node> nodes = List.of(
                node("d", 0, "dialog", "zenity", Set.of()),
                node("t", 1, "table", "", Set.of()),
                node("h1", 2, "table column header", "Pick", Set.of()),
                node("h2", 2, "table column header", "Note", Set.of()),
                node("h3", 2, "table column header", "Action", Set.of()),
                node("r1a", 2, "table cell", "", Set.of("selectable", "checked")),
                node("r1b", 2, "table cell", "", Set.of("selectable")),
                node("r1c", 2, "table cell", "Delete the originals", Set.of("selectable")),
                node("r2a", 2, "table cell", "", Set.of("selectable")),
                node("r2b", 2, "table cell", "", Set.of("selectable")),
                node("r2c", 2, "table cell", "Keep them", Set.of("selectable")),
                node("ok", 1, "push button", "OK", Set.of()),
                node("no", 1, "push button", "Cancel", Set.of()));
        assertTrue(gates(nodes, "ok", zenity).contains("delete"));
    }
}

package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.DeniedPlaces;
import dev.deckhand.grant.ProposedAction;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ActionParser;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * File dialogs, address bars and window titles read for denied places, on trees shaped like the ones GTK 3
 * gives (mousepad's Open dialog: a path bar listed deepest first, a location entry, rows of name cells), and
 * the actions that would type, choose or open a path in one. Every refusal is {@code DENY_PATH} and its
 * detail names the kind of place, never the text.
 */
@Tag("pure")
class ShownPlacesTest {

    static final String CONFIG_KIND = "Deckhand's config directory";
    static final DeniedPlaces PLACES = new DeniedPlaces(
            Path.of("/home/ann"),
            List.of(
                    new DeniedPlaces.Place(Path.of("/home/ann/deckhand-home"), CONFIG_KIND),
                    new DeniedPlaces.Place(Path.of("/home/ann/.ssh"), "~/.ssh")),
            true,
            DeniedPlaces.Links.NONE);
    static final Geometry G = new Geometry(0, 0, 10, 10);

    static Node node(String uid, int depth, String role, String name) {
        return new Node(uid, depth, role, name, false, null, true, false, false, true, G);
    }

    static Node toggle(String uid, int depth, String name, boolean checked) {
        return new Node(
                uid,
                depth,
                "toggle button",
                name,
                false,
                null,
                true,
                false,
                false,
                true,
                G,
                false,
                false,
                checked ? Set.of("checked") : Set.of());
    }

    static Node entry(String uid, int depth, String value, boolean focused) {
        return new Node(uid, depth, "text", "", true, value, true, focused, true, true, G, true, false);
    }

    /**
     * mousepad with its Open dialog joined: the path bar shows {@code bar} (deepest first, the checked one
     * marked {@code *}; none: the location entry is open instead), the entry holds {@code entry}.
     */
    static ScopedTree editor(String title, List<String> bar, String entry, boolean rowFocused) {
        List<Node> n = new ArrayList<>();
        n.add(node("frame", 0, "frame", title));
        n.add(new Node(
                "doc",
                1,
                "text",
                "",
                true,
                "notes: my key is in ~/.ssh/id_ed25519",
                true,
                !rowFocused && entry == null,
                true,
                true,
                G));
        n.add(node("dialog", 0, "file chooser", "Open File"));
        n.add(node("widget", 1, "file chooser", "File Chooser Widget"));
        n.add(node("bar", 2, "panel", ""));
        for (int i = 0; i < bar.size(); i++) {
            String b = bar.get(i);
            n.add(toggle("b" + i, 3, b.replace("*", ""), b.startsWith("*")));
        }
        n.add(node("up", 3, "push button", "Up Path"));
        n.add(toggle("create", 2, "Create Folder", false));
        if (entry != null) n.add(entry("location", 2, entry, true));
        n.add(node("files", 2, "table", "Files"));
        n.add(node("row1", 3, "table cell", ""));
        n.add(new Node("cell1", 4, "table cell", "deckhand-home", false, null, true, rowFocused, false, true, G));
        n.add(node("row2", 3, "table cell", ""));
        n.add(node("cell2", 4, "table cell", "Documents"));
        n.add(node("open", 2, "push button", "Open"));
        return new ScopedTree(1, 1, n, false);
    }

    static final List<String> AT_HOME = List.of("Music", "*ann", "home", "File System Root");

    static void assertDenied(Optional<Refusal> r, String kind, String... never) {
        assertTrue(r.isPresent(), "refused");
        assertEquals(RefusalCode.DENY_PATH, r.get().code(), r.get().toString());
        assertTrue(r.get().detail().contains(kind), r.get().detail());
        for (String n : never) assertFalse(r.get().detail().contains(n), r.get().detail());
    }

    @Test
    void thePathBarIsReadFromTheRootToTheCheckedFolder() {
        assertEquals(
                Optional.of(Path.of("/home/ann")), ShownPlaces.chooserFolder(editor("Mousepad", AT_HOME, null, false)));
        assertEquals(
                Optional.of(Path.of("/home/ann/Music")),
                ShownPlaces.chooserFolder(
                        editor("Mousepad", List.of("*Music", "ann", "home", "File System Root"), null, false)));
        assertEquals(
                Optional.of(Path.of("/")),
                ShownPlaces.chooserFolder(editor("Mousepad", List.of("usr", "*File System Root"), null, false)));
        assertEquals(Optional.empty(), ShownPlaces.chooserFolder(editor("Mousepad", List.of(), "", false)));
    }

    @Test
    void aChooserShowingTheConfigDirectoryEndsTheRun() {
        ScopedTree clean = editor("/home/ann/notes.txt - Mousepad", AT_HOME, null, false);
        assertEquals(Optional.empty(), ShownPlaces.shown(clean, PLACES, Optional.empty()));
        ScopedTree inside =
                editor("Mousepad", List.of("*deckhand-home", "ann", "home", "File System Root"), null, false);
        assertDenied(ShownPlaces.shown(inside, PLACES, Optional.empty()), CONFIG_KIND, "deckhand-home");
        assertDenied(
                ShownPlaces.shown(
                        editor("Mousepad", List.of("*.ssh", "ann", "home", "File System Root"), null, false),
                        PLACES,
                        Optional.empty()),
                "~/.ssh");
    }

    @Test
    void aChoosersEntryNamingAPlaceEndsTheRunAbsoluteOrRelative() {
        for (String text :
                List.of("/home/ann/deckhand-home/owner-token", "~/deckhand-home/", "file:///home/ann/deckhand-home")) {
            assertDenied(
                    ShownPlaces.shown(editor("Mousepad", List.of(), text, false), PLACES, Optional.empty()),
                    CONFIG_KIND,
                    "owner-token");
        }
        // GTK hides the path bar while the location entry is open: the folder read before counts
        ScopedTree relative = editor("Mousepad", List.of(), "deckhand-home/owner-token", false);
        assertDenied(ShownPlaces.shown(relative, PLACES, Optional.of(Path.of("/home/ann"))), CONFIG_KIND);
        assertEquals(Optional.empty(), ShownPlaces.shown(relative, PLACES, Optional.empty()));
        assertDenied(
                ShownPlaces.shown(editor("Mousepad", List.of(), ".ssh/id_rsa", false), PLACES, Optional.empty()),
                DeniedPlaces.HIDDEN);
        assertEquals(
                Optional.empty(),
                ShownPlaces.shown(
                        editor("Mousepad", List.of(), "Documents/report.odt", false),
                        PLACES,
                        Optional.of(Path.of("/home/ann"))));
    }

    @Test
    void aTitleNamingAPlaceEndsTheRunButADocumentMentioningOneDoesNot() {
        assertDenied(
                ShownPlaces.shown(
                        editor("/home/ann/deckhand-home/owner-token - Mousepad", AT_HOME, null, false),
                        PLACES,
                        Optional.empty()),
                CONFIG_KIND,
                "owner-token");
        assertDenied(
                ShownPlaces.shown(
                        editor("owner-token (~/deckhand-home) - gedit", AT_HOME, null, false),
                        PLACES,
                        Optional.empty()),
                CONFIG_KIND);
        // the editor's own text mentions ~/.ssh; that is what the document says, not where the app is
        assertEquals(
                Optional.empty(),
                ShownPlaces.shown(editor("notes.txt - Mousepad", AT_HOME, null, false), PLACES, Optional.empty()));
    }

    @Test
    void anAddressBarHoldingAFileUrlInAPlaceEndsTheRun() {
        List<Node> n = List.of(
                node("f", 0, "frame", "Index of /home/ann - Browser"),
                entry("url", 1, "file:///home/ann/.ssh/", false),
                node("doc", 1, "document web", "Index"));
        assertDenied(ShownPlaces.shown(new ScopedTree(1, 1, n, false), PLACES, Optional.empty()), "~/.ssh");
        List<Node> search =
                List.of(node("f", 0, "frame", "Browser"), entry("url", 1, "how to use ~/.ssh/config", false));
        assertEquals(
                Optional.empty(), ShownPlaces.shown(new ScopedTree(1, 1, search, false), PLACES, Optional.empty()));
    }

    static Optional<Refusal> act(String json, ScopedTree tree, Optional<Path> remembered) {
        Action a = ActionParser.parse(json);
        Optional<Node> focus = tree.focused();
        ProposedAction p = ProposedAction.on(
                dev.deckhand.grant.ActionKind.TYPE,
                1,
                1,
                focus.map(Proposals::element).orElse(null));
        return ShownPlaces.inAction(a, p, tree, PLACES, remembered);
    }

    @Test
    void typingAPathIntoAPlaceIsRefusedWhereverItIsTyped() {
        ScopedTree entry = editor("Mousepad", List.of(), "", false);
        assertDenied(
                act("{\"action\":\"type\",\"text\":\"/home/ann/deckhand-home/owner-token\"}", entry, Optional.empty()),
                CONFIG_KIND,
                "owner-token");
        assertDenied(
                act(
                        "{\"action\":\"type\",\"text\":\"deckhand-home/owner-token\"}",
                        entry,
                        Optional.of(Path.of("/home/ann"))),
                CONFIG_KIND);
        assertDenied(
                act(
                        "{\"action\":\"set_text\",\"uid\":\"location\",\"text\":\"~/.ssh/id_rsa\"}",
                        entry,
                        Optional.empty()),
                "~/.ssh");
        // typed in two pieces: the second lands after what the entry already holds
        ScopedTree half = editor("Mousepad", List.of(), "/home/ann/deck", false);
        assertDenied(
                act("{\"action\":\"type\",\"text\":\"hand-home/owner-token\"}", half, Optional.empty()), CONFIG_KIND);
        // outside any dialog too: a terminal, an editor
        ScopedTree doc = editor("notes.txt - Mousepad", AT_HOME, null, false);
        assertDenied(act("{\"action\":\"type\",\"text\":\"cat ~/.ssh/id_ed25519\"}", doc, Optional.empty()), "~/.ssh");
        assertEquals(
                Optional.empty(),
                act(
                        "{\"action\":\"type\",\"text\":\"Documents/report.odt\"}",
                        entry,
                        Optional.of(Path.of("/home/ann"))));
        assertEquals(Optional.empty(), act("{\"action\":\"type\",\"text\":\"hello\"}", doc, Optional.empty()));
    }

    /**
     * Round 20's D4: " /tmp/" typed, then a "." written by the input method's Unicode entry (ctrl+shift+u, "2e",
     * space), then "canary" typed: each typed text named no path, the document's text then did. Typing into a text of
     * many lines is read after what it holds, unless that names a path already (a document may mention one).
     */
    @Test
    void typingThatCompletesAPathAfterADocumentsTextIsRefused() {
        ScopedTree composing = new ScopedTree(
                1,
                1,
                List.of(
                        node("frame", 0, "frame", "notes.txt - Mousepad"),
                        new Node("doc", 1, "text", "", true, "line one /home/ann/.", true, true, true, true, G)),
                false);
        assertDenied(act("{\"action\":\"type\",\"text\":\"ssh/id_rsa\"}", composing, Optional.empty()), "~/.ssh");
        ScopedTree plain = new ScopedTree(
                1,
                1,
                List.of(
                        node("frame", 0, "frame", "notes.txt - Mousepad"),
                        new Node("doc", 1, "text", "", true, "line one /home/ann/", true, true, true, true, G)),
                false);
        assertEquals(
                Optional.empty(),
                act("{\"action\":\"type\",\"text\":\"Documents/report.odt\"}", plain, Optional.empty()));
        assertDenied(act("{\"action\":\"type\",\"text\":\".ssh/id_rsa\"}", plain, Optional.empty()), "~/.ssh");
    }

    /**
     * Round 5 of the review (A7): featherpad's Qt file dialog moved up to the config directory's parent, then
     * {@code deckhand-home/policy.json} typed relative to it opened the file. Qt's dialog has no file chooser node;
     * its "Look in:" combo is named with its folder, which makes it one.
     */
    @Test
    void aQtFileDialogsFolderIsItsLookInCombo() {
        List<Node> n = new ArrayList<>();
        n.add(node("frame", 0, "frame", "/tmp/notes.txt"));
        n.add(node("dlg", 0, "dialog", "Open file..."));
        n.add(node("look", 1, "label", "Look in:"));
        n.add(node("combo", 1, "combo box", "/home/ann"));
        n.add(node("up", 1, "push button", "Parent Directory"));
        n.add(new Node("name", 1, "text", "File name:", true, "", true, true, true, true, G, true, false));
        n.add(node("open", 1, "push button", "Open"));
        ScopedTree qt = new ScopedTree(1, 1, n, false);
        assertEquals(Optional.of(Path.of("/home/ann")), ShownPlaces.chooserFolder(qt));
        assertDenied(
                act("{\"action\":\"type\",\"text\":\"deckhand-home/policy.json\"}", qt, Optional.empty()),
                CONFIG_KIND,
                "policy.json");
        assertEquals(
                Optional.empty(), act("{\"action\":\"type\",\"text\":\"Documents/report.odt\"}", qt, Optional.empty()));
        n.set(3, node("combo", 1, "combo box", "/home/ann/deckhand-home"));
        assertDenied(
                ShownPlaces.shown(new ScopedTree(1, 1, n, false), PLACES, Optional.empty()),
                CONFIG_KIND,
                "deckhand-home");
    }

    @Test
    void textOrEnterToAFocusTheTreeDoesNotShowInAChooserIsRefused() {
        List<Node> n =
                new ArrayList<>(editor("Mousepad", List.of(), null, false).nodes());
        n.set(1, new Node("doc", 1, "text", "", true, "", true, false, true, true, G)); // nothing focused
        ScopedTree unseen = new ScopedTree(1, 1, n, false);
        ProposedAction focusUnknown = ProposedAction.on(
                dev.deckhand.grant.ActionKind.TYPE, 1, 1, new ProposedAction.Element("text", "", false, false, true));
        for (String a : List.of(
                "{\"action\":\"type\",\"text\":\"work/x\"}",
                "{\"action\":\"key\",\"keys\":\"Enter\"}",
                "{\"action\":\"key\",\"keys\":\"w\"}")) {
            Optional<Refusal> r =
                    ShownPlaces.inAction(ActionParser.parse(a), focusUnknown, unseen, PLACES, Optional.empty());
            assertDenied(r, "cannot be judged", "work/x");
        }
        assertEquals(
                Optional.empty(),
                ShownPlaces.inAction(
                        ActionParser.parse("{\"action\":\"key\",\"keys\":\"Escape\"}"),
                        focusUnknown,
                        unseen,
                        PLACES,
                        Optional.empty()));
    }

    @Test
    void choosingARowThatIsAPlaceIsRefused() {
        ScopedTree home = editor("Mousepad", AT_HOME, null, false);
        assertDenied(
                act("{\"action\":\"click\",\"uid\":\"cell1\"}", home, Optional.empty()), CONFIG_KIND, "deckhand-home");
        assertDenied(act("{\"action\":\"click\",\"uid\":\"row1\"}", home, Optional.empty()), CONFIG_KIND);
        assertEquals(Optional.empty(), act("{\"action\":\"click\",\"uid\":\"cell2\"}", home, Optional.empty()));
        assertEquals(Optional.empty(), act("{\"action\":\"click\",\"uid\":\"open\"}", home, Optional.empty()));
        // Enter on the focused row opens it
        ScopedTree focused = editor("Mousepad", AT_HOME, null, true);
        assertDenied(act("{\"action\":\"key\",\"keys\":\"Enter\"}", focused, Optional.empty()), CONFIG_KIND);
        // elsewhere the row names nothing: a folder named so under /srv is no place
        ScopedTree srv = editor("Mousepad", List.of("*srv", "File System Root"), null, false);
        assertEquals(Optional.empty(), act("{\"action\":\"click\",\"uid\":\"cell1\"}", srv, Optional.empty()));
    }

    @Test
    void aLocalPageThatFramesAnotherDocumentIsRefusedAsItsFrameCannotBeJudged() {
        List<Node> framed = List.of(
                node("w", 0, "frame", "Local Page - Chromium"),
                node("d", 1, "document web", "Local Page"),
                node("f", 2, "internal frame", ""),
                node("d2", 3, "document web", ""),
                node("p", 4, "paragraph", "{ \"permissionMode\": \"auto\" }"));
        ScopedTree tree = new ScopedTree(1, 1, framed, false);
        Optional<dev.deckhand.grant.Refusal> r =
                ShownPlaces.framedLocalPage(tree, () -> Optional.of(dev.deckhand.grant.Facts.LOCAL_DOCUMENT));
        assertEquals(dev.deckhand.grant.RefusalCode.DENY_HOST, r.orElseThrow().code());
        assertTrue(r.get().detail().contains("frames another document"), r.get().detail());
        assertFalse(r.get().detail().contains("permissionMode"), "the detail quotes nothing the page shows");
        // a web page's frames are the host rules' business (a page on the web cannot frame a local file)
        assertEquals(Optional.empty(), ShownPlaces.framedLocalPage(tree, () -> Optional.of("example.org")));
        // a local page without frames, and two tabs' documents side by side, are not framed
        List<Node> plain = List.of(
                node("w", 0, "frame", "Local Page - Chromium"),
                node("d", 1, "document web", "Local Page"),
                node("p", 2, "paragraph", "hello"),
                node("d2", 1, "document web", "Other"));
        assertEquals(Optional.empty(), ShownPlaces.framedLocalPage(new ScopedTree(1, 1, plain, false), () -> {
            throw new AssertionError("the host is read only for a tree that frames a document");
        }));
    }
}

package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The focused-password search told from one {@code Collection.GetMatches} list answers as the
 * child-by-child walk does, both asked without the focus source: on a GTK 3 password dialog whose password
 * field holds the focus, and whose button holds it; and it stands aside (the walk decides) for an app without
 * Collection (Qt) and for a window with a list that manages its descendants (GTK 3 tree view). Its own JVM, as
 * every platform test class.
 */
@Tag("desktop")
class FocusedPasswordListTest {

    private AtspiBridge bridge;
    private TestApp app;

    @BeforeEach
    void start() {
        TestApp.requireDesktop();
        bridge = AtspiBridge.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (app != null) app.close();
        if (bridge != null) bridge.close();
    }

    @Test
    void onAGtk3PasswordDialogTheListAnswersAsTheWalkDoes() throws Exception {
        app = SampleApp.PASSWORD_DIALOG.launch();
        String title = app.awaitWindow(bridge, SampleApp.PASSWORD_TITLE::equals, 30_000);
        ScopedTree tree = app.awaitTree(
                bridge, title, t -> t.nodes().stream().anyMatch(n -> n.role().equals("password text")));
        Node password = only(tree, n -> n.role().equals("password text"));
        Node button = tree.nodes().stream()
                .filter(n -> n.role().equals("push button") && n.showing())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no button in\n" + tree.nodes()));

        long listedBefore = bridge.listedSearches();
        bridge.focus(password.uid());
        Boolean[] onPassword = awaitSearches(true);
        assertEquals(List.of(true, true), Arrays.asList(onPassword), "focus on the password field: {listed, walked}");
        assertTrue(bridge.listedSearches() > listedBefore, "a list answered");
        assertTrue(bridge.passwordFocused(), "the facts' own read");

        bridge.focus(button.uid());
        Boolean[] onButton = awaitSearches(false);
        assertEquals(
                List.of(false, false), Arrays.asList(onButton), "focus on " + button.name() + ": {listed, walked}");
        assertFalse(bridge.passwordFocused(), "the facts' own read");
    }

    @Test
    void aQtWindowHasNoListAndIsWalked() throws Exception {
        app = TestApp.launch(List.of("featherpad"));
        String title = app.awaitWindow(bridge, t -> t.equals("Untitled") || t.contains("FeatherPad"), 30_000);
        app.awaitTree(bridge, title, t -> t.nodes().size() > 10);
        Boolean[] searches = bridge.passwordSearches();
        assertNull(searches[0], "Qt offers no Collection: the walk decides");
        assertFalse(searches[1], "no password field is focused");
        assertFalse(bridge.passwordFocused());
    }

    @Test
    void aListThatManagesItsDescendantsLeavesTheAnswerToTheWalk() throws Exception {
        String listTitle = "deckhand list";
        app = TestApp.launch(
                List.of("yad", "--list", "--title", listTitle, "--column", "Name", "alpha", "beta", "gamma"));
        String title = app.awaitWindow(bridge, listTitle::equals, 30_000);
        app.awaitTree(bridge, title, t -> t.nodes().stream()
                .anyMatch(n -> n.role().equals("table") || n.role().equals("tree table")));
        Boolean[] searches = bridge.passwordSearches();
        assertNull(searches[0], "a tree view manages its descendants: the walk decides");
        assertFalse(searches[1], "no password field is focused");
    }

    /** The searches once the walk tells {@code walked} (the focus moves a moment after the call). */
    private Boolean[] awaitSearches(boolean walked) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        Boolean[] s = bridge.passwordSearches();
        while (s[1] != walked && System.nanoTime() < deadline) {
            Thread.sleep(100);
            s = bridge.passwordSearches();
        }
        return s;
    }

    private static Node only(ScopedTree tree, Predicate<Node> which) {
        List<Node> found = tree.nodes().stream().filter(which).toList();
        assertEquals(1, found.size(), "one such element in\n" + tree.nodes());
        return found.get(0);
    }
}

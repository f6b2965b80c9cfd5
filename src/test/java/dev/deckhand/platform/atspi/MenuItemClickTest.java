package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A menu's item clicked by uid as a model clicks it, then what the next walks show (issue 28,
 * e2e.MenuModelE2ETest): Qt 5's menu closes after its item's click as after a person's.
 */
@Tag("desktop")
class MenuItemClickTest {

    private static final Geometry ORIGIN = new Geometry(0, 0, 0, 0);

    private static Optional<Node> find(ScopedTree tree, String role, String name) {
        return tree.nodes().stream()
                .filter(n -> n.role().equals(role) && n.name().equals(name))
                .findFirst();
    }

    private static Node showing(ScopedTree tree, String role, String name) {
        return find(tree, role, name)
                .filter(Node::showing)
                .orElseThrow(() -> new AssertionError("no showing " + role + " '" + name + "' in " + tree.nodes()));
    }

    /** Whether any item of an open menu shows (Qt lists a closed popup menu, not showing, without its items). */
    private static boolean itemsShow(ScopedTree tree) {
        return find(tree, "menu item", "To Upper Case").filter(Node::showing).isPresent();
    }

    /** The app's one window as it is titled now (FeatherPad retitles its window while it starts). */
    private static ScopedTree walk(AtspiBridge bridge, TestApp app) throws InterruptedException {
        RuntimeException last = null;
        for (int i = 0; i < 40; i++) {
            List<String> titles = bridge.windowTitles(app.pid());
            if (titles.size() == 1) {
                try {
                    return bridge.snapshot(app.pid(), titles.get(0), ORIGIN, 0, 1);
                } catch (RuntimeException retitled) {
                    last = retitled;
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError("no single window of pid " + app.pid() + " to walk", last);
    }

    @Test
    void qt5MenuClosesAfterItsItemsClickAndOpensAgainOnItsMenuBarItem() throws Exception {
        TestApp.requireDesktop();
        Path file = Files.createTempDirectory("deckhand-menus").resolve("memo.txt");
        Files.writeString(file, "quiet words");
        try (AtspiBridge bridge = AtspiBridge.start();
                TestApp app = TestApp.launch(List.of("featherpad", file.toString()))) {
            app.awaitWindow(bridge, t -> t.contains("memo.txt"), 30_000);
            ScopedTree tree = walk(bridge, app);
            bridge.click(showing(tree, "menu item", "Edit").uid());
            bridge.settle(Duration.ofMillis(1500));
            tree = walk(bridge, app);
            bridge.click(showing(tree, "menu item", "Select All").uid());
            bridge.settle(Duration.ofMillis(1500));
            tree = walk(bridge, app);
            // before: Qt's Press triggered the item and left its menu open, and the next ShowMenu closed it
            assertFalse(itemsShow(tree), "the Edit menu closed after its item's click: " + tree.nodes());
            bridge.click(showing(tree, "menu item", "Edit").uid());
            bridge.settle(Duration.ofMillis(1500));
            tree = walk(bridge, app);
            assertTrue(itemsShow(tree), "the Edit menu opened again with its items: " + tree.nodes());
            bridge.click(showing(tree, "menu item", "To Upper Case").uid());
            bridge.settle(Duration.ofMillis(1500));
            tree = walk(bridge, app);
            assertFalse(itemsShow(tree), "closed again: " + tree.nodes());
            Node text = tree.nodes().stream()
                    .filter(n -> n.role().equals("text") && n.editable())
                    .findFirst()
                    .orElseThrow();
            assertTrue(
                    bridge.readText(text.uid()).orElse("").equals("QUIET WORDS"),
                    "Select All, then To Upper Case, took: " + bridge.readText(text.uid()));
        }
    }
}

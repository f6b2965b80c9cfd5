package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A menu bar with no area, and its subtree, leave the snapshot; one a person can see stays (measured on Writer: e2e.MenuModelE2ETest). */
@Tag("pure")
class FlatMenuBarTest {

    private static Node node(String uid, int depth, String role, Geometry bounds) {
        return new Node(uid, depth, role, uid, false, null, true, false, false, true, bounds, false, false, Set.of());
    }

    @Test
    void aMenuBarWithNoAreaLeavesWithItsMenusAndItsSiblingsStay() {
        Geometry seen = new Geometry(0, 19, 1256, 25);
        List<Node> nodes = List.of(
                node("frame", 0, "frame", new Geometry(0, 0, 1280, 800)),
                node("flat", 1, "menu bar", new Geometry(0, 19, 1280, 0)),
                node("flatFile", 2, "menu", null),
                node("flatItem", 3, "menu item", null),
                node("panel", 1, "panel", seen),
                node("bar", 2, "menu bar", seen),
                node("file", 3, "menu", new Geometry(0, 19, 40, 25)),
                node("narrow", 2, "menu bar", new Geometry(0, 0, 0, 25)),
                node("narrowFile", 3, "menu", null),
                node("doc", 2, "document text", seen),
                node("unknown", 1, "menu bar", null));
        assertEquals(
                List.of("frame", "panel", "bar", "file", "doc", "unknown"),
                AtspiTree.withoutFlatMenuBars(nodes).stream().map(Node::uid).toList());
    }
}

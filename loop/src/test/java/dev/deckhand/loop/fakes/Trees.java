package dev.deckhand.loop.fakes;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.util.ArrayList;
import java.util.List;

/** Small hand-built trees for tests. Uids carry the revision ("r1-ok") so a stale one is easy to make. */
public final class Trees {

    private Trees() {}

    public static Node node(String uid, int depth, String role, String name) {
        return new Node(uid, depth, role, name, false, null, true, false, false, true, new Geometry(0, 0, 10, 10));
    }

    public static Node text(String uid, int depth, String value, boolean focused) {
        return new Node(uid, depth, "text", "", true, value, true, focused, true, true, new Geometry(0, 0, 100, 20));
    }

    /** A dialog: frame > filler > [push button OK, push button Cancel, text field, password field]. */
    public static ScopedTree dialog(long windowId, long revision) {
        String r = "r" + revision + "-";
        List<Node> n = new ArrayList<>();
        n.add(node(r + "frame", 0, "frame", "Dialog"));
        n.add(node(r + "filler", 1, "filler", ""));
        n.add(node(r + "ok", 2, "push button", "OK"));
        n.add(node(r + "cancel", 2, "push button", "Cancel"));
        n.add(text(r + "name", 2, "", true));
        n.add(new Node(
                r + "pw",
                2,
                "password text",
                "Password",
                true,
                null,
                true,
                false,
                true,
                true,
                new Geometry(0, 0, 100, 20)));
        return new ScopedTree(windowId, revision, n, false);
    }

    /** A calculator keypad: digits 0-9, ×, =, and a read-only result display. */
    public static ScopedTree calculator(long windowId, long revision, String display) {
        String r = "r" + revision + "-";
        List<Node> n = new ArrayList<>();
        n.add(node(r + "frame", 0, "frame", "Calculator"));
        n.add(new Node(
                r + "display",
                1,
                "text",
                "Result",
                true,
                display,
                true,
                false,
                false,
                true,
                new Geometry(0, 0, 200, 40)));
        n.add(node(r + "panel", 1, "panel", ""));
        for (int d = 0; d <= 9; d++) n.add(node(r + "d" + d, 2, "push button", String.valueOf(d)));
        n.add(node(r + "times", 2, "push button", "×"));
        n.add(node(r + "equals", 2, "push button", "="));
        // the hidden advanced-mode panel repeats the digits; hidden nodes never match a selector
        n.add(new Node(r + "adv", 1, "panel", "", false, null, true, false, false, false, null));
        n.add(new Node(r + "adv1", 2, "push button", "1", false, null, true, false, false, false, null));
        return new ScopedTree(windowId, revision, n, false);
    }

    /** A window whose tree the platform could not read completely. */
    public static ScopedTree partial(long windowId, long revision) {
        return new ScopedTree(windowId, revision, List.of(node("r" + revision + "-frame", 0, "frame", "Canvas")), true);
    }
}

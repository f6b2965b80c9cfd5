package dev.deckhand.loop.desktop;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The accessibility tree of one granted window, in document order, with uids bound to
 * {@code grantRevision}. {@code partial} says the platform could not read all of it (a hung app,
 * a timeout); an incomplete tree never reads like an empty window.
 */
public record ScopedTree(long windowId, long grantRevision, List<Node> nodes, boolean partial) {

    public ScopedTree {
        nodes = List.copyOf(Objects.requireNonNull(nodes, "nodes"));
    }

    public Optional<Node> byUid(String uid) {
        return nodes.stream().filter(n -> n.uid().equals(uid)).findFirst();
    }

    public Optional<Node> focused() {
        return nodes.stream().filter(Node::focused).reduce((a, b) -> b);
    }

    /**
     * The element under screen point {@code (x, y)}: the deepest showing element whose bounds contain it;
     * among equally deep ones the last in document order. What a {@code click_at} there lands on.
     */
    public Optional<Node> at(int x, int y) {
        Node best = null;
        for (Node n : nodes) {
            if (n.bounds() == null || !n.showing() || !n.bounds().contains(x, y)) continue;
            if (best == null || n.depth() >= best.depth()) best = n;
        }
        return Optional.ofNullable(best);
    }

    /** This tree followed by {@code other}'s nodes (a dialog that joins an app-scoped observation). */
    public ScopedTree plus(ScopedTree other) {
        java.util.List<Node> all = new java.util.ArrayList<>(nodes);
        all.addAll(other.nodes());
        return new ScopedTree(windowId, grantRevision, all, partial || other.partial());
    }
}

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
}

package dev.deckhand.platform.atspi;

import dev.deckhand.loop.desktop.Node;
import java.util.List;
import java.util.Optional;

/**
 * The nodes of the latest snapshot of the current revision, for {@code hit}: the one piece of tree state
 * read off the libatspi thread (a hit needs no native call), hence published through a volatile field.
 * The tree writes it on the libatspi thread; anyone may read it.
 */
final class LatestNodes {

    private volatile List<Node> nodes = List.of();

    void set(List<Node> latest) {
        nodes = latest;
    }

    void clear() {
        nodes = List.of();
    }

    /** See {@link AtspiBridge#hit(int, int)}. */
    Optional<String> hit(int screenX, int screenY) {
        return hit(nodes, screenX, screenY);
    }

    /** See {@link AtspiBridge#hitPath(int, int)}. */
    List<Node> hitPath(int screenX, int screenY) {
        return hitPath(nodes, screenX, screenY);
    }

    /**
     * The node {@link #hit} finds, followed by its ancestors (nearest first) as the document order and depths of
     * {@code nodes} give them; empty when no node contains the point.
     */
    static List<Node> hitPath(List<Node> nodes, int x, int y) {
        int best = -1;
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            if (n.bounds() == null || !n.showing() || !n.bounds().contains(x, y)) continue;
            if (best < 0 || n.depth() >= nodes.get(best).depth()) best = i;
        }
        if (best < 0) return List.of();
        List<Node> path = new java.util.ArrayList<>();
        path.add(nodes.get(best));
        int depth = nodes.get(best).depth();
        for (int i = best - 1; i >= 0 && depth > 0; i--) {
            if (nodes.get(i).depth() < depth) {
                path.add(nodes.get(i));
                depth = nodes.get(i).depth();
            }
        }
        return List.copyOf(path);
    }

    /**
     * The uid of the deepest showing node of {@code nodes} whose bounds contain the point, the last in
     * document order among equally deep ones; empty when none does.
     */
    static Optional<String> hit(List<Node> nodes, int x, int y) {
        Node best = null;
        for (Node n : nodes) {
            if (n.bounds() == null || !n.showing() || !n.bounds().contains(x, y)) continue;
            if (best == null || n.depth() >= best.depth()) best = n;
        }
        return Optional.ofNullable(best).map(Node::uid);
    }
}

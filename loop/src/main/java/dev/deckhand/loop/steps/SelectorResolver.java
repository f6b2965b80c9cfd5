package dev.deckhand.loop.steps;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves a {@link Selector} inside one scoped tree. Candidates are the tree's <em>showing</em>
 * nodes (hidden ones, such as the panels of another calculator mode, can neither be acted on nor
 * make a selector ambiguous) whose role equals {@code role} and, when given, whose name equals
 * {@code name} exactly. With an index the n-th candidate in document order is taken; without one
 * there must be exactly one. Anything else is a {@link SelectorException}.
 */
public final class SelectorResolver {

    private SelectorResolver() {}

    public static List<Node> matches(Selector selector, ScopedTree tree) {
        List<Node> out = new ArrayList<>();
        for (Node n : tree.nodes()) {
            if (!n.showing()) continue;
            if (!n.role().equals(selector.role())) continue;
            if (selector.name().isPresent() && !selector.name().get().equals(n.name())) continue;
            out.add(n);
        }
        return out;
    }

    /** @throws SelectorException on no match, an ambiguous match, or an index past the matches */
    public static Node resolve(Selector selector, ScopedTree tree) {
        List<Node> m = matches(selector, tree);
        if (selector.index().isPresent()) {
            int i = selector.index().get();
            if (i >= m.size()) {
                throw new SelectorException("no element matches " + selector.describe() + " in scope (" + m.size()
                        + " match" + (m.size() == 1 ? "" : "es") + " without the index)");
            }
            return m.get(i);
        }
        if (m.isEmpty()) throw new SelectorException("no element matches " + selector.describe() + " in scope");
        if (m.size() > 1) {
            throw new SelectorException(
                    m.size() + " elements match " + selector.describe() + " in scope; add an index");
        }
        return m.get(0);
    }
}

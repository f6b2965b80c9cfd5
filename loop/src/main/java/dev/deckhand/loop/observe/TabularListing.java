package dev.deckhand.loop.observe;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole tree as tab-separated lines, one per node: {@code index depth role name value states
 * bounds} — the verbose form the compact {@link ObservationText} is measured against. Never writes a
 * password field's value. Tabs and newlines inside names and values are written as spaces.
 */
public final class TabularListing {

    private TabularListing() {}

    public static String render(ScopedTree tree) {
        StringBuilder b = new StringBuilder("index\tdepth\trole\tname\tvalue\tstates\tbounds\n");
        int i = 0;
        for (Node n : tree.nodes()) {
            b.append(i++)
                    .append('\t')
                    .append(n.depth())
                    .append('\t')
                    .append(n.role())
                    .append('\t')
                    .append(clean(n.name()))
                    .append('\t')
                    .append(n.value() == null || Roles.password(n.role()) ? "" : clean(n.value()))
                    .append('\t')
                    .append(String.join(",", states(n)))
                    .append('\t')
                    .append(bounds(n.bounds()))
                    .append('\n');
        }
        return b.toString();
    }

    static List<String> states(Node n) {
        List<String> s = new ArrayList<>();
        if (n.enabled()) s.add("enabled");
        if (n.focused()) s.add("focused");
        if (n.editable()) s.add("editable");
        if (n.showing()) s.add("showing");
        return s;
    }

    private static String bounds(Geometry g) {
        return g == null ? "" : g.x() + "," + g.y() + "," + g.width() + "x" + g.height();
    }

    private static String clean(String s) {
        return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}

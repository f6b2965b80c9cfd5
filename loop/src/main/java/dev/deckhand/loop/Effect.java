package dev.deckhand.loop;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What a delivered action did, from a cheap comparison of before and after: the app's top-level
 * windows, the granted window's title, the focused element, and a digest of the scoped tree (role,
 * name, value, enabled/editable/showing of every element, in order; uids and bounds left out). A key
 * or type the app dropped leaves all of them as they were: {@code no_change}, never "delivered" alone.
 */
public enum Effect {
    CHANGED,
    NO_CHANGE,
    FOCUS_MOVED,
    WINDOW_OPENED,
    WINDOW_CLOSED;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * One look at the app, before or after an action.
     *
     * @param windows the visible top-levels of the granted window's client (itself, its dialogs)
     * @param title the granted window's title, null when it is gone
     * @param focus the focused element (depth, role, name, position), "" when none
     * @param content the tree's digest without focus
     * @param partial the tree was not read in full, so sameness proves nothing
     */
    public record Glance(Set<Long> windows, String title, String focus, long content, boolean partial) {

        public static Glance of(ScopedTree tree, List<WindowInfo> all, long grantedWindow) {
            Optional<WindowInfo> granted =
                    all.stream().filter(w -> w.id() == grantedWindow).findFirst();
            Set<Long> ids = new HashSet<>();
            granted.ifPresent(g -> ids.add(g.id()));
            for (WindowInfo w : all) {
                if (!w.visible() || w.own()) continue;
                if (granted.isPresent() && (w.sameClient(granted.get()) || w.transientFor() == grantedWindow))
                    ids.add(w.id());
            }
            String focus = "";
            long h = 0xcbf29ce484222325L;
            List<Node> nodes = tree.nodes();
            for (int i = 0; i < nodes.size(); i++) {
                Node n = nodes.get(i);
                if (n.focused()) focus = i + "|" + n.depth() + "|" + n.role() + "|" + n.name();
                h = mix(
                        h,
                        n.depth() + "|" + n.role() + "|" + n.name() + "|" + n.hasValue() + "|" + n.value() + "|"
                                + n.enabled() + n.editable() + n.showing());
            }
            return new Glance(Set.copyOf(ids), granted.map(WindowInfo::title).orElse(null), focus, h, tree.partial());
        }

        private static long mix(long h, String s) {
            for (int i = 0; i < s.length(); i++) {
                h ^= s.charAt(i);
                h *= 0x100000001b3L;
            }
            h ^= 0x1e;
            return h * 0x100000001b3L;
        }
    }

    /**
     * The effect from {@code before} to {@code after}, in this order: a window of the app opened, one
     * closed (the granted one included), the content or title changed, the focus moved, nothing changed.
     * Empty when nothing differs but a tree was partial (no change cannot be proven).
     */
    public static Optional<Effect> between(Glance before, Glance after) {
        if (!before.windows().containsAll(after.windows())) return Optional.of(WINDOW_OPENED);
        if (!after.windows().containsAll(before.windows()) || after.title() == null) return Optional.of(WINDOW_CLOSED);
        if (before.content() != after.content() || !java.util.Objects.equals(before.title(), after.title()))
            return Optional.of(CHANGED);
        if (!before.focus().equals(after.focus())) return Optional.of(FOCUS_MOVED);
        if (before.partial() || after.partial()) return Optional.empty();
        return Optional.of(NO_CHANGE);
    }
}

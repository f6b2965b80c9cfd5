package dev.deckhand.platform.atspi;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;

/**
 * Prints one window's scoped tree, for inspecting what an app exposes:
 * {@code java ... AtspiDump PID 'Window title' [X Y]} (X Y: the window origin, for GTK 4).
 */
public final class AtspiDump {

    private AtspiDump() {}

    public static void main(String[] args) {
        int pid = Integer.parseInt(args[0]);
        Geometry g = args.length > 3
                ? new Geometry(Integer.parseInt(args[2]), Integer.parseInt(args[3]), 0, 0)
                : new Geometry(0, 0, 0, 0);
        try (AtspiBridge bridge = AtspiBridge.start()) {
            System.out.println("apps: " + bridge.applicationNames());
            System.out.println("windows of " + pid + ": " + bridge.windowTitles(pid));
            if (args.length < 2) return;
            long t0 = System.nanoTime();
            ScopedTree tree = bridge.snapshot(pid, args[1], g, 0, 1);
            System.out.printf(
                    "%d nodes, partial=%s, %.1f ms%n",
                    tree.nodes().size(), tree.partial(), (System.nanoTime() - t0) / 1e6);
            for (Node n : tree.nodes()) {
                System.out.printf(
                        "%s%s %s '%s'%s%s%s%s%s %s %s%n",
                        "  ".repeat(n.depth()),
                        n.uid(),
                        n.role(),
                        n.name(),
                        n.hasValue() ? " value=" + (n.value() == null ? "(hidden)" : "'" + n.value() + "'") : "",
                        n.enabled() ? "" : " disabled",
                        n.focused() ? " focused" : "",
                        n.editable() ? " editable" : "",
                        n.showing() ? "" : " hidden",
                        n.bounds(),
                        n.states());
            }
            System.out.println("passwordFocused=" + bridge.passwordFocused());
        }
    }
}

package dev.deckhand.platform.atspi;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * Prints medians (and p90) of 25 runs after 5 warm-ups for the AT-SPI operations one loop step
 * uses, against real apps it starts itself (mousepad, gnome-calculator). Run inside the virtual
 * desktop; the command is in docs/driver-atspi.md.
 */
public final class AtspiBench {

    static final int WARMUP = 5;
    static final int RUNS = 25;

    private AtspiBench() {}

    public static void main(String[] args) throws Exception {
        TestApp.requireDesktop();
        try (AtspiBridge bridge = AtspiBridge.start();
                TestApp mousepad = TestApp.launch(List.of("mousepad"));
                TestApp calc = TestApp.launch(List.of("gnome-calculator"))) {
            String mpTitle = mousepad.awaitWindow(bridge, t -> t.endsWith("Mousepad"), 30_000);
            String calcTitle = calc.awaitWindow(bridge, "Calculator"::equals, 30_000);
            Geometry mpGeo = mousepad.geometry(mpTitle);
            Geometry calcGeo = calc.geometry(calcTitle);
            Thread.sleep(1500);

            ScopedTree mp = bridge.snapshot(mousepad.pid(), mpTitle, mpGeo, 1, 1, true);
            ScopedTree ca = bridge.snapshot(calc.pid(), calcTitle, calcGeo, 2, 1);
            long mpBounds = mp.nodes().stream().filter(n -> n.bounds() != null).count();
            long caBounds = ca.nodes().stream().filter(n -> n.bounds() != null).count();
            System.out.printf(
                    Locale.ROOT,
                    "mousepad: %d nodes (%d with bounds); calculator: %d nodes (%d with bounds)%n",
                    mp.nodes().size(),
                    mpBounds,
                    ca.nodes().size(),
                    caBounds);
            System.out.printf(Locale.ROOT, "%-58s %9s %9s%n", "operation", "median", "p90");

            report(
                    "snapshot mousepad, all 321 nodes (states+bounds, same revision)",
                    () -> bridge.snapshot(mousepad.pid(), mpTitle, mpGeo, 1, 1, true));
            System.out.println("  " + bridge.lastWalkStats());
            bridge.useCollection(false);
            report(
                    "the same, child by child (no GetMatches)",
                    () -> bridge.snapshot(mousepad.pid(), mpTitle, mpGeo, 1, 1, true));
            System.out.println("  " + bridge.lastWalkStats());
            report(
                    "hidden subtrees pruned, child by child",
                    () -> bridge.snapshot(mousepad.pid(), mpTitle, mpGeo, 1, 1));
            bridge.useCollection(true);
            bridge.pipelinedExtents(false);
            report(
                    "all nodes, one GetExtents call per element",
                    () -> bridge.snapshot(mousepad.pid(), mpTitle, mpGeo, 1, 1, true));
            System.out.println("  " + bridge.lastWalkStats());
            report(
                    "calculator GTK 4, one GetExtents call per element",
                    () -> bridge.snapshot(calc.pid(), calcTitle, calcGeo, 2, 1));
            System.out.println("  " + bridge.lastWalkStats());
            bridge.pipelinedExtents(true);
            ScopedTree pruned = bridge.snapshot(mousepad.pid(), mpTitle, mpGeo, 1, 1);
            report(
                    "snapshot mousepad, hidden subtrees pruned ("
                            + pruned.nodes().size() + " nodes)",
                    () -> bridge.snapshot(mousepad.pid(), mpTitle, mpGeo, 1, 1));
            bridge.askHiddenAlways(true);
            report(
                    "the same, hidden elements asked afresh (as after the app changed)",
                    () -> bridge.snapshot(mousepad.pid(), mpTitle, mpGeo, 1, 1));
            bridge.askHiddenAlways(false);
            long[] rev = {100};
            report(
                    "snapshot mousepad, all nodes, new revision (all uids minted)",
                    () -> bridge.snapshot(mousepad.pid(), mpTitle, mpGeo, 1, rev[0]++, true));
            System.out.println("  " + bridge.lastWalkStats());
            report(
                    "snapshot calculator GTK4 (states+bounds, same revision)",
                    () -> bridge.snapshot(calc.pid(), calcTitle, calcGeo, 2, rev[0]));
            System.out.println("  " + bridge.lastWalkStats());

            ScopedTree calcTree = bridge.snapshot(calc.pid(), calcTitle, calcGeo, 2, rev[0]);
            String one = calcTree.nodes().stream()
                    .filter(n -> n.role().equals("push button")
                            && (n.name().equals("1") || n.name().equals("1 1")))
                    .findFirst()
                    .orElseThrow()
                    .uid();
            report("click (do_action) calculator button", () -> {
                bridge.click(one);
                return null;
            });

            ScopedTree mpTree = bridge.snapshot(mousepad.pid(), mpTitle, mpGeo, 1, rev[0]);
            Node editor = mpTree.nodes().stream()
                    .filter(n -> n.role().equals("text") && n.editable())
                    .findFirst()
                    .orElseThrow();
            int[] i = {0};
            report("set_text (set_text_contents) mousepad", () -> {
                bridge.setText(editor.uid(), "bench ✓ " + i[0]++);
                return null;
            });
            report("read_text mousepad", () -> bridge.readText(editor.uid()));
            report("set_text + settle (events quiet 75 ms, max 1 s)", () -> {
                bridge.setText(editor.uid(), "settle ✓ " + i[0]++);
                bridge.settle(Duration.ofSeconds(1));
                return null;
            });
            report("settle with nothing happening (max 1 s)", () -> {
                bridge.settle(Duration.ofSeconds(1));
                return null;
            });
            report("passwordFocused (focus walk of active windows)", bridge::passwordFocused);
            report("applicationNames", bridge::applicationNames);
            report("hit (from the latest snapshot)", () -> bridge.hit(mpGeo.centerX(), mpGeo.centerY()));
        }
    }

    private static void report(String what, Callable<?> op) throws Exception {
        for (int i = 0; i < WARMUP; i++) op.call();
        double[] ms = new double[RUNS];
        for (int i = 0; i < RUNS; i++) {
            long t0 = System.nanoTime();
            op.call();
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        System.out.printf(Locale.ROOT, "%-58s %7.2f ms %6.2f ms%n", what, ms[RUNS / 2], ms[(int) (RUNS * 0.9)]);
    }
}

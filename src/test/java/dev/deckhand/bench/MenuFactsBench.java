package dev.deckhand.bench;

import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.linux.LinuxDesktop;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the policy facts cost with and without the granted app's menu holding the keyboard, and galculator's
 * View → Scientific/Basic Mode round done as the loop does it (a whole facts read before each click): prints
 * medians and how many rounds toggled the mode. Runs on any build of the port (main and a branch alike).
 *   java -cp ... dev.deckhand.bench.MenuFactsBench [RUNS [ROUNDS]]
 */
public final class MenuFactsBench {
    public static void main(String[] args) throws Exception {
        TestApp.requireDesktop();
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 41;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        try (LinuxDesktop d = LinuxDesktop.open();
                TestApp calc = TestApp.launch(List.of("galculator"))) {
            WindowInfo w = null;
            for (int i = 0; i < 300 && w == null; i++) {
                w = d.windows().stream()
                        .filter(x -> x.pid() == calc.pid() && x.visible())
                        .findFirst()
                        .orElse(null);
                if (w == null) Thread.sleep(100);
            }
            if (w == null) throw new IllegalStateException("no galculator window");
            long win = w.id();
            for (int i = 0; i < 300 && d.snapshot(win, 1).nodes().size() < 10; i++) Thread.sleep(100);
            d.settle(Duration.ofSeconds(2));
            // no grab held: the ordinary case
            double[] fresh = time(runs, d::freshFacts);
            double[] kept = time(runs, d::facts);
            double[] probe = time(runs, () -> d.x11().keyboardGrabbed());
            // the app's menu open, holding the keyboard
            click(d, win, "menu", "View");
            long t0 = System.nanoTime();
            while (!d.freshFacts().keyboardGrabbed() && System.nanoTime() - t0 < 5_000_000_000L) Thread.sleep(20);
            boolean held = d.freshFacts().keyboardGrabbed();
            double[] freshMenu = time(runs, d::freshFacts);
            double[] keptMenu = time(runs, d::facts);
            DesktopFacts f = d.freshFacts();
            System.out.printf(Locale.ROOT, "menu open: keyboard grabbed %b, facts say %s%n", held, f);
            escape();
            d.settle(Duration.ofSeconds(1));
            // rounds: View, then the other mode's item, each click after a whole facts read as the loop does
            int toggled = 0;
            double[] roundMs = new double[rounds];
            double[] factsMs = new double[rounds * 2];
            int fi = 0;
            for (int r = 0; r < rounds; r++) {
                boolean scientific = showing(d, win, "toggle button", "sin");
                String item = scientific ? "Basic Mode" : "Scientific Mode";
                long r0 = System.nanoTime();
                long a = System.nanoTime();
                d.freshFacts();
                factsMs[fi++] = (System.nanoTime() - a) / 1e6;
                click(d, win, "menu", "View");
                d.settle(Duration.ofSeconds(2));
                Optional<Node> it = Optional.empty();
                for (int i = 0; i < 50 && it.isEmpty(); i++) {
                    it = find(d.snapshot(win, 1), "radio menu item", item).filter(Node::showing);
                    if (it.isEmpty()) Thread.sleep(50);
                }
                a = System.nanoTime();
                d.freshFacts();
                factsMs[fi++] = (System.nanoTime() - a) / 1e6;
                if (it.isPresent()) d.click(it.get().uid());
                boolean done = false;
                for (int i = 0; i < 100 && !done; i++) {
                    done = showing(d, win, "toggle button", "sin") != scientific;
                    if (!done) Thread.sleep(50);
                }
                roundMs[r] = (System.nanoTime() - r0) / 1e6;
                if (done) toggled++;
                else {
                    ScopedTree all = d.atspi()
                            .snapshot(
                                    calc.pid(),
                                    d.windows().stream()
                                            .filter(x -> x.id() == win)
                                            .findFirst()
                                            .orElseThrow()
                                            .title(),
                                    d.windows().stream()
                                            .filter(x -> x.id() == win)
                                            .findFirst()
                                            .orElseThrow()
                                            .geometry(),
                                    win,
                                    1,
                                    true);
                    System.out.printf(
                            Locale.ROOT,
                            "round %d: %s did not take (item found %b); now: %s; sin: %s%n",
                            r,
                            item,
                            it.isPresent(),
                            find(all, "radio menu item", item)
                                    .map(n -> n.states().toString())
                                    .orElse("-"),
                            find(all, "toggle button", "sin")
                                    .map(n -> n.states().toString())
                                    .orElse("-"));
                    escape();
                    d.settle(Duration.ofSeconds(1));
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "facts, no grab:   fresh %s  kept %s  grab probe %s%n",
                    stat(fresh),
                    stat(kept),
                    stat(probe));
            System.out.printf(Locale.ROOT, "facts, menu open: fresh %s  kept %s%n", stat(freshMenu), stat(keptMenu));
            System.out.printf(
                    Locale.ROOT,
                    "rounds: %d of %d toggled; round %s; facts read before each click %s%n",
                    toggled,
                    rounds,
                    stat(roundMs),
                    stat(Arrays.copyOf(factsMs, fi)));
        }
    }

    /** Escape as a person presses it (xdotool): it goes to the menu's grab on every build. */
    private static void escape() throws Exception {
        new ProcessBuilder("xdotool", "key", "Escape").inheritIO().start().waitFor();
    }

    private static void click(LinuxDesktop d, long win, String role, String name) {
        d.click(find(d.snapshot(win, 1), role, name)
                .orElseThrow(() -> new IllegalStateException("no " + name))
                .uid());
    }

    private static boolean showing(LinuxDesktop d, long win, String role, String name) {
        return find(d.snapshot(win, 1), role, name).map(Node::showing).orElse(false);
    }

    private static Optional<Node> find(ScopedTree t, String role, String name) {
        return t.nodes().stream()
                .filter(n -> n.role().equals(role) && n.name().equals(name))
                .findFirst();
    }

    /** What each timed call returned last, kept so that no call is optimised away. */
    private static volatile Object sink;

    private static double[] time(int runs, Supplier<?> s) {
        for (int i = 0; i < 5; i++) sink = s.get();
        double[] ms = new double[runs];
        for (int i = 0; i < runs; i++) {
            long a = System.nanoTime();
            sink = s.get();
            ms[i] = (System.nanoTime() - a) / 1e6;
        }
        return ms;
    }

    private static String stat(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return String.format(
                Locale.ROOT,
                "median %.2f ms (p90 %.2f, max %.2f, n %d)",
                s[s.length / 2],
                s[(int) Math.min(s.length - 1, Math.round(s.length * 0.9))],
                s[s.length - 1],
                s.length);
    }
}

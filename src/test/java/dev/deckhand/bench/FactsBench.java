package dev.deckhand.bench;

import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.Processes;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.linux.LinuxDesktop;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Where one read of the policy facts goes, segment by segment, on a focused galculator. */
public final class FactsBench {
    public static void main(String[] args) throws Exception {
        TestApp.requireDesktop();
        try (LinuxDesktop d = LinuxDesktop.open();
                TestApp calc = TestApp.launch(List.of("galculator"))) {
            for (int i = 0;
                    i < 100
                            && d.windows().stream()
                                    .noneMatch(w ->
                                            w.app().toLowerCase(Locale.ROOT).contains("galculator"));
                    i++) Thread.sleep(100);
            Thread.sleep(4000);
            String[] names = {
                "windows",
                "appNames",
                "proc",
                "relations",
                "password",
                "grab",
                "browserHost",
                "focused",
                "total",
                "facts()"
            };
            int runs = 40;
            double[][] ms = new double[names.length][runs];
            for (int r = -5; r < runs; r++) {
                long[] t = new long[names.length];
                long t0 = System.nanoTime(), a = t0;
                List<WindowInfo> w = d.windows();
                t[0] = System.nanoTime() - a;
                a = System.nanoTime();
                d.atspi().applicationNames();
                t[1] = System.nanoTime() - a;
                a = System.nanoTime();
                Processes.names();
                t[2] = System.nanoTime() - a;
                a = System.nanoTime();
                d.x11().relations(w);
                t[3] = System.nanoTime() - a;
                a = System.nanoTime();
                d.atspi().passwordFocused();
                t[4] = System.nanoTime() - a;
                a = System.nanoTime();
                d.x11().keyboardGrabbed();
                t[5] = System.nanoTime() - a;
                a = System.nanoTime();
                d.atspi().focusedBrowserHost();
                t[6] = System.nanoTime() - a;
                a = System.nanoTime();
                d.atspi().focusedElement();
                t[7] = System.nanoTime() - a;
                a = System.nanoTime();
                t[8] = a - t0;
                d.facts();
                t[9] = System.nanoTime() - a;
                if (r >= 0) for (int k = 0; k < names.length; k++) ms[k][r] = t[k] / 1e6;
            }
            for (int i = 0; i < 5; i++) {
                long e0 = d.atspi().events();
                List<WindowInfo> w0 = d.windows();
                d.facts();
                long e1 = d.atspi().events();
                List<WindowInfo> w1 = d.windows();
                System.out.printf(
                        Locale.ROOT,
                        "events %d -> %d, windows equal %s, full reads %d%n",
                        e0,
                        e1,
                        w0.equals(w1),
                        d.wholeFactsReads());
                if (!w0.equals(w1)) System.out.println(w0 + "\n" + w1);
            }
            long win = d.windows().stream()
                    .filter(x -> x.app().toLowerCase(Locale.ROOT).contains("galculator"))
                    .findFirst()
                    .orElseThrow()
                    .id();
            var tree = d.snapshot(win, 1);
            String ac = tree.nodes().stream()
                    .filter(n -> n.name().equals("AC"))
                    .findFirst()
                    .orElseThrow()
                    .uid();
            for (int i = 0; i < 5; i++) {
                StringBuilder line = new StringBuilder("call:");
                long e0 = d.atspi().events();
                for (String step : List.of("run", "preflight", "observe", "check", "last", "ACT", "observe")) {
                    if (step.equals("ACT")) {
                        d.click(ac);
                        d.settle(Duration.ofSeconds(2));
                        d.snapshot(win, 1);
                        line.append(" act(events ")
                                .append(d.atspi().events() - e0)
                                .append(")");
                        continue;
                    }
                    long r = d.wholeFactsReads(), e = d.atspi().events(), t = System.nanoTime();
                    if (step.equals("last")) d.freshFacts();
                    else d.facts();
                    line.append(String.format(
                            Locale.ROOT,
                            " %s=%s%.1fms(ev+%d)",
                            step,
                            d.wholeFactsReads() > r ? "FULL " : "",
                            (System.nanoTime() - t) / 1e6,
                            d.atspi().events() - e));
                    if (step.equals("observe")) d.snapshot(win, 1);
                }
                System.out.println(line);
                Thread.sleep(300);
            }
            String[] parts = {
                "windows", "appNames", "proc", "relations", "password", "grab", "browserHost", "focused", "nothing"
            };
            for (int k = 0; k < parts.length; k++) {
                long sum = 0;
                for (int i = 0; i < 10; i++) {
                    d.settle(Duration.ofMillis(500));
                    long e0 = d.atspi().events();
                    switch (k) {
                        case 0 -> d.windows();
                        case 1 -> d.atspi().applicationNames();
                        case 2 -> Processes.names();
                        case 3 -> d.x11().relations(d.windows());
                        case 4 -> d.atspi().passwordFocused();
                        case 5 -> d.x11().keyboardGrabbed();
                        case 6 -> d.atspi().focusedBrowserHost();
                        case 7 -> d.atspi().focusedElement();
                        default -> {}
                    }
                    Thread.sleep(30);
                    sum += d.atspi().events() - e0;
                }
                System.out.printf(Locale.ROOT, "events after %-12s %.1f per read%n", parts[k], sum / 10.0);
            }
            for (int k = 0; k < names.length; k++) {
                Arrays.sort(ms[k]);
                System.out.printf(
                        Locale.ROOT,
                        "%-12s median %7.2f ms  p90 %7.2f%n",
                        names[k],
                        ms[k][runs / 2],
                        ms[k][runs * 9 / 10]);
            }
            // does the grab probe make the app emit accessibility events? settle returns after QUIET when none come
            double[] quiet = new double[10], probed = new double[10];
            for (int i = 0; i < 10; i++) {
                d.settle(Duration.ofMillis(1000));
                long a = System.nanoTime();
                d.settle(Duration.ofMillis(1000));
                quiet[i] = (System.nanoTime() - a) / 1e6;
                d.x11().keyboardGrabbed();
                a = System.nanoTime();
                d.settle(Duration.ofMillis(1000));
                probed[i] = (System.nanoTime() - a) / 1e6;
            }
            Arrays.sort(quiet);
            Arrays.sort(probed);
            System.out.printf(
                    Locale.ROOT,
                    "settle when quiet: median %.1f ms; settle right after a grab probe: median %.1f ms%n",
                    quiet[5],
                    probed[5]);
        }
    }
}

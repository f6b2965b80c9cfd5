package dev.deckhand.platform.x11;

import dev.deckhand.loop.desktop.WindowInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Prints the Stop shortcut's latency — from the chord's key press sent through XTEST to the Stop callback —
 * as p50 and p99 over 200 presses, with a GTK 3 menu open (mousepad's, which holds the keyboard: only the
 * raw key reader sees the press) and, for comparison, with nothing open (the ordinary case). Needs the
 * private virtual desktop; the command is in docs/driver-x11.md. Figures only — nothing here asserts a time.
 */
public final class StopLatencyBench {

    private static final String CHORD = "ctrl+alt+shift+Escape";
    private static final int PRESSES = 200;
    private static final int WARMUP = 20;

    public static void main(String[] args) throws Exception {
        TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open(System.getenv())) {
            Path file = Files.createTempFile("deckhand-stop-bench", ".txt");
            apps.start("mousepad", "mousepad", file.toString());
            WindowInfo w =
                    TestApps.awaitWindow(x, i -> i.app().equalsIgnoreCase("mousepad") && i.visible(), "mousepad");
            AtomicLong fired = new AtomicLong();
            AtomicLong count = new AtomicLong();
            try (StopKeyGrab grab = StopKeyGrab.start(CHORD, System.getenv(), () -> {
                fired.set(System.nanoTime());
                count.incrementAndGet();
            })) {
                System.out.println("Stop shortcut: " + grab.status().detail());
                XConnection c = XConnection.open(System.getenv());
                try {
                    int[] codes = keycodes(c, List.of("Control_L", "Alt_L", "Shift_L", "Escape"));
                    System.out.println(report("nothing open (ordinary)", measure(c, codes, fired, count)));
                    TestApps.run("xdotool", "windowactivate", "--sync", Long.toString(w.id()));
                    TestApps.sleep(300);
                    TestApps.run("xdotool", "key", "F10");
                    TestApps.await(x::keyboardGrabbed, java.time.Duration.ofSeconds(3));
                    System.out.println("GTK 3 menu open, holding the keyboard: " + x.keyboardGrabbed());
                    System.out.println(report("GTK 3 menu open", measure(c, codes, fired, count)));
                } finally {
                    c.close();
                }
            }
        }
    }

    private static int[] keycodes(XConnection c, List<String> names) {
        int[] out = new int[names.size()];
        for (int i = 0; i < out.length; i++)
            out[i] = Xlib.X.XKeysymToKeycode(c.dpy, Xlib.X.XStringToKeysym(names.get(i)));
        return out;
    }

    /** Latencies in ms of PRESSES chords after WARMUP, each waited for before the next. */
    private static double[] measure(XConnection c, int[] codes, AtomicLong fired, AtomicLong count) {
        double[] ms = new double[PRESSES];
        for (int i = -WARMUP; i < PRESSES; i++) {
            long before = count.get();
            long t0 = System.nanoTime();
            for (int code : codes) Xtst.X.XTestFakeKeyEvent(c.dpy, code, Xlib.True, 0);
            for (int k = codes.length - 1; k >= 0; k--) Xtst.X.XTestFakeKeyEvent(c.dpy, codes[k], Xlib.False, 0);
            c.sync();
            long deadline = t0 + 2_000_000_000L;
            while (count.get() == before && System.nanoTime() < deadline) Thread.onSpinWait();
            if (count.get() == before) throw new IllegalStateException("Stop did not fire within 2 s on press " + i);
            if (i >= 0) ms[i] = (fired.get() - t0) / 1e6;
            TestApps.sleep(5);
        }
        return ms;
    }

    private static String report(String what, double[] ms) {
        double[] s = ms.clone();
        Arrays.sort(s);
        return String.format(
                Locale.ROOT,
                "%-26s p50 %.2f ms  p99 %.2f ms  max %.2f ms  (%d presses)",
                what,
                s[s.length / 2],
                s[(int) Math.ceil(s.length * 0.99) - 1],
                s[s.length - 1],
                s.length);
    }
}

package dev.deckhand.platform.x11;

import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.WindowInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Prints medians (and p90) of 25 runs after warm-up for the X11 half, side by side with the reference
 * subprocess path ({@code scrot}, {@code xdotool}). Needs the private virtual desktop; see
 * docs/driver-x11.md for the command. Figures only — nothing here asserts a time.
 */
public final class X11Bench {

    private static final int RUNS = 25;
    private static final int WARMUP = 10;

    public static void main(String[] args) throws Exception {
        TestApps.requireDisplay();
        try (TestApps apps = new TestApps();
                X11Display x = X11Display.open()) {
            // A realistic editor window: mousepad showing this driver's source, client area 1280×800.
            Path src = Path.of("src/main/java/dev/deckhand/platform/x11/X11Display.java");
            Path file = apps.home().resolve("bench.java");
            Files.writeString(file, Files.exists(src) ? Files.readString(src) : "bench\n".repeat(400));
            apps.start("mousepad", "mousepad", file.toString());
            WindowInfo w = TestApps.awaitWindow(x, i -> i.title().contains("bench.java"), "mousepad bench.java");
            TestApps.run("xdotool", "windowsize", Long.toString(w.id()), "1280", "800");
            TestApps.run("xdotool", "windowmove", Long.toString(w.id()), "0", "0");
            TestApps.await(
                    () -> x.geometry(w.id()).width() == 1280
                            && x.geometry(w.id()).height() == 800,
                    java.time.Duration.ofSeconds(5));
            TestApps.sleep(1000); // let it paint once; figures below are steady-state
            long id = w.id();
            // More windows for a realistic list: FeatherPad and a few plain X clients' windows.
            apps.start("featherpad", "featherpad");
            TestApps.awaitWindow(x, i -> "FeatherPad".equals(i.app()), "featherpad");
            OtherClient other = new OtherClient(System.getenv("DISPLAY"));
            for (int i = 0; i < 5; i++)
                other.solidWindow("bench-" + i, 100 + 40 * i, 100 + 30 * i, 300, 200, 0x103050 * (i + 1));
            TestApps.await(() -> x.windows().size() >= 7, java.time.Duration.ofSeconds(10));
            TestApps.sleep(1000);
            System.out.printf(
                    Locale.ROOT,
                    "X11Bench: %d windows, target 0x%x %s, composite=%s, load %s%n",
                    x.windows().size(),
                    id,
                    x.geometry(id),
                    x.compositeCapture(),
                    Files.readString(Path.of("/proc/loadavg")).strip());
            System.out.printf(
                    Locale.ROOT,
                    "| %-50s | %8s | %8s | %8s |%n",
                    "operation (25 runs after 10 warm-up)",
                    "median ms",
                    "p90 ms",
                    "CPU ms");
            System.out.println("|---|---:|---:|---:|");

            row("window list, kept (" + x.windows().size() + " windows, no change)", () -> x.windows());
            try (XConnection rc = XConnection.open(System.getenv())) {
                Windows fresh = new Windows(rc, new WindowProperties(rc));
                row("window list, read (" + fresh.list().size() + " windows, as before WatchedWindows)", fresh::list);
            }
            row("grab 1280x800 (composite pixmap" + (x.shmCapture() ? ", XShm" : "") + ")", () -> x.grab(id));
            RgbImage raw = x.grab(id);
            row("encode PNG 1280x800 (deflate 1, no filter, bands)", raw::png);
            RgbImage.maxBands = 1;
            row("encode PNG 1280x800 (same, one thread)", raw::png);
            RgbImage.maxBands = 4;
            row("encode JPEG 1280x800 (ImageIO q0.85)", () -> raw.jpeg(0.85f));
            row("downscale 1280x800 -> 1024x640", () -> raw.downscale(1024, 640));
            Capture png = x.capture(id, 1, 1280, "png");
            Capture jpg = x.capture(id, 1, 1280, "jpeg");
            row(
                    "capture+encode PNG 1280x800 (" + png.image().length / 1024 + " KB)",
                    () -> x.capture(id, 1, 1280, "png"));
            row(
                    "capture+encode JPEG 1280x800 (" + jpg.image().length / 1024 + " KB)",
                    () -> x.capture(id, 1, 1280, "jpeg"));
            row("capture+encode PNG long edge 1024", () -> x.capture(id, 1, 1024, "png"));
            row("basis re-measure", () -> x.basisValid(png.basis()));
            row("keyboard grab probe", x::keyboardGrabbed);
            row("key dispatch (XSendEvent 'Right', synced)", () -> x.key(id, dev.deckhand.grant.Chord.parse("Right")));
            row(
                    "key chord (XSendEvent 'ctrl+Home', synced)",
                    () -> x.key(id, dev.deckhand.grant.Chord.parse("ctrl+Home")));
            row("type 'hello' (XSendEvent, synced)", () -> x.type(id, "hello"));
            row("type 'é✓' (spare keycodes, synced)", () -> x.type(id, "é✓"));
            Path shot = apps.home().resolve("shot.png");
            row("reference: scrot full screen (subprocess)", () -> TestApps.run("scrot", "-o", shot.toString()));
            row(
                    "reference: xdotool key --window (subprocess)",
                    () -> TestApps.run("xdotool", "key", "--window", Long.toString(id), "Right"));
            row(
                    "reference: xdotool type hello (subprocess)",
                    () -> TestApps.run("xdotool", "type", "--window", Long.toString(id), "hello"));
            System.out.println("XShm in use: " + x.shmCapture());
            other.close();
        }
    }

    private interface Op {
        void run() throws Exception;
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Wall time, and this thread's CPU time (what the figure would be on an idle machine, minus X server work). */
    private static void row(String name, Op op) throws Exception {
        for (int i = 0; i < WARMUP; i++) op.run();
        long[] ns = new long[RUNS];
        long[] cpu = new long[RUNS];
        for (int i = 0; i < RUNS; i++) {
            long c = THREADS.getCurrentThreadCpuTime();
            long t = System.nanoTime();
            op.run();
            ns[i] = System.nanoTime() - t;
            cpu[i] = THREADS.getCurrentThreadCpuTime() - c;
        }
        Arrays.sort(ns);
        Arrays.sort(cpu);
        System.out.printf(
                Locale.ROOT,
                "| %-50s | %8.2f | %8.2f | %8.2f |%n",
                name,
                ns[RUNS / 2] / 1e6,
                ns[(int) (RUNS * 0.9)] / 1e6,
                cpu[RUNS / 2] / 1e6);
    }

    private X11Bench() {}
}

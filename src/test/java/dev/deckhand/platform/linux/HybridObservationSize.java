package dev.deckhand.platform.linux;

import dev.deckhand.loop.LoopLimits;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.observe.ObservationText;
import dev.deckhand.platform.atspi.TestApp;
import java.util.List;
import java.util.Optional;

/**
 * What one model turn's observation weighs on real apps, before and after the hybrid route: on a {@code pixels}
 * grant a window with a usable tree used to get its tree alone (bounds in window pixels), and now gets the tree
 * (bounds in the capture's pixels) and a capture at the loop's default long edge. Prints, per app, the observation's
 * characters and estimated tokens, the capture's size, PNG bytes and the image tokens two providers' published
 * rules give (OpenAI high detail: 85 + 170 per 512-pixel tile after fitting 2048 and a 768 short side; Anthropic:
 * width × height / 750 after fitting 1568 and 1.15 megapixels). Not a test: run by hand (docs/model.md).
 *
 * <p>After {@code mvn -B -q -o -pl src -am test-compile}: {@code scripts/desktop.sh run -- java -cp
 * "src/target/test-classes:src/target/classes:loop/target/classes:scope-grant/target/classes:<the jars of JNA,
 * jboss-logging, jackson-databind, -core, -annotations and icu4j from ~/.m2>"
 * dev.deckhand.platform.linux.HybridObservationSize}.
 */
public final class HybridObservationSize {

    private HybridObservationSize() {}

    public static void main(String[] args) throws Exception {
        TestApp.requireDesktop();
        try (LinuxDesktop desktop = LinuxDesktop.open()) {
            measure(desktop, List.of("mousepad"), w -> w.app().equalsIgnoreCase("mousepad"));
            measure(desktop, List.of("galculator"), w -> w.app().equalsIgnoreCase("galculator"));
            measure(
                    desktop,
                    List.of("/usr/bin/python3", PersonsDisplay.canvasApp().toString(), "Deckhand Canvas"),
                    w -> w.title().equals("Deckhand Canvas"));
        }
    }

    private static void measure(
            LinuxDesktop desktop, List<String> command, java.util.function.Predicate<WindowInfo> which)
            throws Exception {
        try (TestApp app = TestApp.launch(command)) {
            WindowInfo w = null;
            for (int i = 0; i < 300 && w == null; i++) {
                w = desktop.windows().stream()
                        .filter(x -> x.visible() && which.test(x))
                        .findFirst()
                        .orElse(null);
                if (w == null) Thread.sleep(100);
            }
            if (w == null) throw new AssertionError("no window of " + command);
            ScopedTree tree = null;
            for (int i = 0; i < 100; i++) {
                try {
                    tree = desktop.snapshot(w.id(), 1);
                    if (tree.nodes().size() > 3 && !tree.partial()) break;
                } catch (RuntimeException starting) {
                    // the app is not on the bus yet
                }
                Thread.sleep(200);
            }
            Thread.sleep(1_000);
            tree = desktop.snapshot(w.id(), 1);
            int budget = LoopLimits.DEFAULTS.observationTokens();
            String before = ObservationText.render(
                    tree, w, budget, Optional.of(new ObservationText.Frame(w.geometry(), 1, "window pixels")));
            Capture c = desktop.capture(w.id(), 1, LoopLimits.DEFAULTS.captureLongEdge());
            String after = ObservationText.render(
                    tree,
                    w,
                    budget,
                    Optional.of(new ObservationText.Frame(
                            c.basis().windowGeometry(), c.basis().scale(), "capture c1's pixels")));
            System.out.printf(
                    "%s (%dx%d, %d elements): before %d chars (~%d tokens); after %d chars (~%d tokens)"
                            + " + capture %dx%d, %d PNG bytes, image tokens OpenAI %d, Anthropic %d%n",
                    command.get(command.size() - 1),
                    w.geometry().width(),
                    w.geometry().height(),
                    tree.nodes().size(),
                    before.length(),
                    ObservationText.estimateTokens(before),
                    after.length(),
                    ObservationText.estimateTokens(after),
                    c.width(),
                    c.height(),
                    c.image().length,
                    openAi(c.width(), c.height()),
                    anthropic(c.width(), c.height()));
        }
    }

    /** OpenAI's high-detail rule: fit 2048×2048, then the short side to 768; 85 + 170 per 512-pixel tile. */
    static int openAi(int w, int h) {
        double s = Math.min(1, 2048.0 / Math.max(w, h));
        double fw = w * s, fh = h * s;
        double t = Math.min(1, 768.0 / Math.min(fw, fh));
        fw *= t;
        fh *= t;
        return 85 + 170 * (int) (Math.ceil(fw / 512) * Math.ceil(fh / 512));
    }

    /** Anthropic's rule: fit a 1568 long edge and 1.15 megapixels; width × height / 750. */
    static int anthropic(int w, int h) {
        double s = Math.min(1, 1568.0 / Math.max(w, h));
        s = Math.min(s, Math.sqrt(1_150_000.0 / (w * (double) h)));
        return (int) Math.round(w * s * h * s / 750);
    }
}

package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One app never wedges another: with a SIGSTOPped FeatherPad beside a running mousepad, the stopped one is
 * flagged unresponsive (that app only) while the bridge goes on serving the other — its tree, its
 * actions and the facts — and it comes back when it answers again. Times are printed, not asserted.
 * Its own JVM, as every platform test class.
 */
@Tag("desktop")
class AppIsolationTest {

    private AtspiBridge bridge;
    private TestApp running;
    private TestApp stopped;
    private String runningTitle;
    private String stoppedTitle;

    @BeforeEach
    void start() throws Exception {
        TestApp.requireDesktop();
        bridge = AtspiBridge.start();
        running = TestApp.launch(List.of("mousepad"));
        runningTitle = running.awaitWindow(bridge, t -> t.endsWith("Mousepad"), 30_000);
        stopped = TestApp.launch(List.of("featherpad")); // mousepad is single-instance: another app
        stoppedTitle = stopped.awaitWindow(bridge, t -> t.equals("Untitled") || t.contains("FeatherPad"), 30_000);
        for (int i = 0;
                i < 100
                        && (tree(running, runningTitle).nodes().size() < 50
                                || tree(stopped, stoppedTitle).nodes().size() < 10);
                i++) {
            Thread.sleep(100);
        }
        runningTitle = edited(runningTitle);
    }

    /**
     * Mousepad puts "*" before its title at the first edit, a moment after the edit: a round that read the
     * title just before that would snapshot a title that is gone (a refusal that is the test's race, not the
     * bridge's). Edit once and wait for the "*" so the title stays the same through the rounds.
     */
    private String edited(String title) throws Exception {
        Node editor = tree(running, title).nodes().stream()
                .filter(n -> n.role().equals("text") && n.editable())
                .findFirst()
                .orElseThrow();
        bridge.setText(editor.uid(), "edited");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            List<String> titles = bridge.windowTitles(running.pid());
            if (!titles.isEmpty() && titles.get(0).startsWith("*")) return titles.get(0);
            Thread.sleep(50);
        }
        throw new AssertionError("mousepad's title never showed the edit: " + bridge.windowTitles(running.pid()));
    }

    @AfterEach
    void stop() throws Exception {
        if (stopped != null) stopped.close();
        if (running != null) running.close();
        if (bridge != null) bridge.close();
    }

    private ScopedTree tree(TestApp app, String title) {
        return bridge.snapshot(app.pid(), title, new Geometry(0, 0, 0, 0), 3L, 1);
    }

    @Test
    void aStoppedAppBesideDoesNotStopTheOther() throws Exception {
        Node editor = tree(running, runningTitle).nodes().stream()
                .filter(n -> n.role().equals("text") && n.editable())
                .findFirst()
                .orElseThrow();
        stopped.sigstop();
        // The first reads that reach the stopped app may wait for its call timeout and refuse; then it is
        // flagged and skipped.
        long t0 = System.nanoTime();
        boolean flagged = false;
        for (int i = 0; i < 3 && !flagged; i++) {
            try {
                flagged = tree(stopped, stoppedTitle).partial();
            } catch (RefusedException e) {
                assertEquals(RefusalCode.A11Y_UNAVAILABLE, e.code(), e.getMessage());
                flagged = true;
            }
        }
        assertTrue(flagged, "the stopped app is refused or partial");
        System.out.printf("stopped app flagged in %.0f ms%n", (System.nanoTime() - t0) / 1e6);
        for (int i = 0; i < 3; i++) {
            try {
                bridge.passwordFocused();
            } catch (RefusedException once) {
                System.out.println("facts refused once while the stopped app was found: " + once.getMessage());
            }
        }

        for (int round = 0; round < 5; round++) {
            long t1 = System.nanoTime();
            ScopedTree other = tree(running, runningTitle);
            long t2 = System.nanoTime();
            assertFalse(other.partial(), "the running app's whole tree");
            assertFalse(bridge.passwordFocused(), "the facts answer beside a stopped app");
            long t3 = System.nanoTime();
            bridge.setText(editor.uid(), "round " + round);
            assertEquals("round " + round, bridge.readText(editor.uid()).orElseThrow());
            long t4 = System.nanoTime();
            System.out.printf(
                    "beside a stopped app: snapshot %.0f ms, passwordFocused %.0f ms, set+read %.0f ms%n",
                    (t2 - t1) / 1e6, (t3 - t2) / 1e6, (t4 - t3) / 1e6);
        }
        RefusedException still = assertThrows(RefusedException.class, () -> tree(stopped, stoppedTitle));
        assertEquals(RefusalCode.A11Y_UNAVAILABLE, still.code());

        stopped.sigcont();
        long t5 = System.nanoTime();
        ScopedTree back = null;
        while (back == null && System.nanoTime() - t5 < 20_000_000_000L) {
            try {
                ScopedTree t = tree(stopped, stoppedTitle);
                if (!t.partial()) back = t;
            } catch (RefusedException e) {
                Thread.sleep(100);
            }
        }
        assertTrue(back != null && back.nodes().size() >= 10, "the continued app answers again");
        System.out.printf("continued app back in %.0f ms%n", (System.nanoTime() - t5) / 1e6);
    }

    @Test
    void aLibreOfficeWindowBesideDoesNotStopTheOther() throws Exception {
        stopped.close(); // this test needs mousepad and Calc only
        stopped = TestApp.launchCalc(java.nio.file.Files.createTempDirectory("deckhand-calc-beside"));
        long deadline = System.nanoTime() + 60_000_000_000L;
        int calc = -1;
        while (calc < 0 || !calcWindowShown(calc)) {
            if (System.nanoTime() > deadline) throw new AssertionError("no Calc window within 60 s");
            Thread.sleep(200);
            calc = TestApp.calcPid(stopped);
        }
        Node editor = tree(running, runningTitle).nodes().stream()
                .filter(n -> n.role().equals("text") && n.editable())
                .findFirst()
                .orElseThrow();
        for (int round = 0; round < 5; round++) {
            long t1 = System.nanoTime();
            ScopedTree other = tree(running, runningTitle);
            long t2 = System.nanoTime();
            assertFalse(other.partial(), "mousepad's whole tree beside Calc");
            boolean password;
            try {
                password = bridge.passwordFocused();
            } catch (RefusedException busy) {
                // A starting LibreOffice may miss one bound; it is flagged and skipped, never wedging the bridge.
                System.out.println("facts refused once beside a starting Calc: " + busy.getMessage());
                password = bridge.passwordFocused();
            }
            assertFalse(password);
            long t3 = System.nanoTime();
            bridge.setText(editor.uid(), "beside calc " + round);
            assertEquals("beside calc " + round, bridge.readText(editor.uid()).orElseThrow());
            System.out.printf(
                    "beside Calc: snapshot %.0f ms, passwordFocused %.0f ms, set+read %.0f ms%n",
                    (t2 - t1) / 1e6, (t3 - t2) / 1e6, (System.nanoTime() - t3) / 1e6);
        }
    }

    /** Whether Calc shows its window yet; a starting LibreOffice may not answer the title read in its bound. */
    private boolean calcWindowShown(int calc) {
        try {
            return bridge.windowTitles(calc).stream().anyMatch(t -> t.endsWith("LibreOffice Calc"));
        } catch (RefusedException starting) {
            assertEquals(RefusalCode.A11Y_UNAVAILABLE, starting.code(), starting.getMessage());
            return false;
        }
    }
}

package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
 * The bridge's hung flag: a stopped (SIGSTOP) app is refused or partial, stays refused (flagged hung,
 * also for actions) until it answers a probe again, and then gives its whole tree back. Elapsed times
 * are printed, not asserted. Stopping or killing the app mid-walk through the {@code Desktop} port is
 * in {@code platform.linux.DesktopContract}.
 */
// This class was off for a while: one CI run in four aborted the JVM natively after the mid-walk
// stop. The cause was libatspi dispatching the app's removal inside a blocking call and then reading
// the disposed object (see AtspiThread#runInsideDispatch); calls now run inside a GLib dispatch.
@Tag("desktop")
class UnresponsiveAppTest {

    private AtspiBridge bridge;
    private TestApp app;
    private String title;
    private Geometry geometry;

    @BeforeEach
    void start() throws Exception {
        TestApp.requireDesktop();
        bridge = AtspiBridge.start();
        app = TestApp.launch(List.of("mousepad"));
        title = app.awaitWindow(bridge, t -> t.endsWith("Mousepad"), 30_000);
        geometry = app.geometry(title);
        for (int i = 0; i < 100 && snapshot(1).nodes().size() < 50; i++) Thread.sleep(100);
    }

    @AfterEach
    void stop() throws Exception {
        if (app != null) app.close();
        if (bridge != null) bridge.close();
    }

    private ScopedTree snapshot(long revision) {
        return bridge.snapshot(app.pid(), title, geometry, 7L, revision);
    }

    @Test
    void stoppedAppIsRefusedOrPartialThenRecovers() throws Exception {
        ScopedTree warm = snapshot(1);
        Node editor = warm.nodes().stream()
                .filter(n -> n.role().equals("text") && n.editable())
                .findFirst()
                .orElseThrow();
        app.sigstop();
        long t0 = System.nanoTime();
        try {
            ScopedTree t = snapshot(1);
            assertTrue(t.partial(), "a stopped app's tree is marked partial");
        } catch (RefusedException e) {
            assertEquals(RefusalCode.A11Y_UNAVAILABLE, e.code(), e.getMessage());
        }
        System.out.printf("stopped app: snapshot answered in %.0f ms%n", (System.nanoTime() - t0) / 1e6);

        long t1 = System.nanoTime();
        RefusedException act = assertThrows(RefusedException.class, () -> bridge.setText(editor.uid(), "x"));
        assertEquals(RefusalCode.A11Y_UNAVAILABLE, act.code());
        assertTrue(act.getMessage().contains("not responding"), act.getMessage());
        System.out.printf("stopped app: action refused in %.0f ms%n", (System.nanoTime() - t1) / 1e6);

        long t2 = System.nanoTime();
        RefusedException again = assertThrows(RefusedException.class, () -> snapshot(1));
        assertEquals(RefusalCode.A11Y_UNAVAILABLE, again.code());
        System.out.printf("stopped app flagged hung: snapshot refused in %.0f ms%n", (System.nanoTime() - t2) / 1e6);

        app.sigcont();
        ScopedTree recovered = null;
        for (int i = 0; i < 50 && recovered == null; i++) {
            try {
                ScopedTree t = snapshot(1);
                if (!t.partial()) recovered = t;
            } catch (RefusedException e) {
                Thread.sleep(100);
            }
        }
        if (recovered == null) fail("the continued app never answered again");
        assertEquals(warm.nodes().size(), recovered.nodes().size(), "the whole tree is back");
        bridge.setText(editor.uid(), "back");
        assertEquals("back", bridge.readText(editor.uid()).orElseThrow());
    }
}

package dev.deckhand.platform.wayland;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The X11 contract's two liveness cases on the Wayland route (a GTK 3 mousepad): a SIGSTOPped app's
 * window is refused within the bound (never a hang), and comes back under the same id after SIGCONT; a
 * killed app's window is refused, an action on its element is refused, and it leaves the list — with this
 * JVM alive throughout. The common contract and mousepad's own test run first (they carry no order).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("desktop")
class StoppedAppWaylandTest extends MousepadWaylandTest {

    static final long REFUSAL_BOUND_MILLIS = 5_000;

    @Test
    @Order(Integer.MAX_VALUE - 1)
    void aStoppedAppIsRefusedWithinTheBoundAndComesBackUnderTheSameId() throws Exception {
        snapshot();
        app.sigstop();
        try {
            long t0 = System.nanoTime();
            Object stopped = outcome(this::snapshot);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("Wayland: snapshot of the stopped app: %s after %d ms%n", stopped, ms);
            if (stopped instanceof ScopedTree t) {
                assertTrue(t.partial(), "a stopped app's tree is marked partial");
            } else {
                assertRefused(stopped);
            }
            assertTrue(ms < REFUSAL_BOUND_MILLIS, "ended within the bound: " + ms + " ms");
        } finally {
            app.sigcont();
        }
        assertTrue(
                poll(
                        () -> outcome(this::snapshot) instanceof ScopedTree t && !t.partial() && contentReady(t),
                        Duration.ofSeconds(20)),
                "the continued app's window answers again under id " + windowId);
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void aKilledAppIsRefusedAndLeavesTheList() throws Exception {
        ScopedTree tree = snapshot();
        Node text = find(tree, "editable text", MousepadWaylandTest::isText);
        app.kill();
        assertTrue(!app.alive(), "the app is dead");
        long t0 = System.nanoTime();
        Object after = outcome(this::snapshot);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("Wayland: snapshot after the kill: %s after %d ms%n", after, ms);
        assertRefused(after);
        assertTrue(ms < REFUSAL_BOUND_MILLIS, "refused within the bound: " + ms + " ms");
        Object act = outcome(() -> {
            desktop.setText(text.uid(), "after death");
            return "set";
        });
        assertRefused(act);
        assertTrue(
                poll(() -> desktop.windows().stream().noneMatch(w -> w.id() == windowId), Duration.ofSeconds(10)),
                "the dead app's window leaves the list");
    }

    private static Object outcome(Supplier<?> call) {
        try {
            return call.get();
        } catch (RefusedException e) {
            return e;
        }
    }

    /** A11Y_UNAVAILABLE, or PREFLIGHT_FAILED when the window is gone from the bus (a Wayland frame has no other list). */
    private static void assertRefused(Object outcome) {
        if (!(outcome instanceof RefusedException e)) {
            fail("a refusal: " + outcome);
            return;
        }
        assertTrue(
                e.code() == RefusalCode.A11Y_UNAVAILABLE
                        || e.code() == RefusalCode.PREFLIGHT_FAILED
                        || e.code() == RefusalCode.OUT_OF_SCOPE,
                e.toString());
    }
}

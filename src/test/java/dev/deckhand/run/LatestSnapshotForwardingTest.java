package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.Trees;
import dev.deckhand.platform.CursorDesktop;
import dev.deckhand.platform.DrawnCursor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The decorators between the verifier or the loop and the driver pass {@link Trees#latestSnapshot} on as
 * itself: one that turned it into {@code snapshot} would walk every time, silently (the port has no default
 * that could, and the decorators go through {@link Desktop#around}, which passes every method on as itself).
 */
@Tag("pure")
class LatestSnapshotForwardingTest {

    private static final long WINDOW = 7;
    private static final ScopedTree TREE = new ScopedTree(
            WINDOW,
            3,
            List.of(new Node(
                    "u1", 0, "push button", "OK", false, null, true, false, false, true, new Geometry(10, 20, 30, 40))),
            false);

    private final List<String> calls = new ArrayList<>();

    /** A desktop that records the names of the methods called on it; both reads answer {@link #TREE}. */
    private final Desktop real = PortProxy.of((proxy, method, args) -> {
        calls.add(method.getName());
        if (method.getReturnType() == ScopedTree.class) return TREE;
        if (method.getReturnType() == boolean.class) return true;
        return null;
    });

    @Test
    void theTimedDesktopPassesItOn() {
        assertSame(TREE, TimedDesktop.over(real, new StepPhases()).trees().latestSnapshot(WINDOW, 3));
        assertEquals(List.of("latestSnapshot"), calls);
    }

    @Test
    void theCursorDesktopPassesItOnAndKnowsTheElementsWhereaboutsFromIt() {
        List<String> moves = new ArrayList<>();
        DrawnCursor cursor = new DrawnCursor() {
            @Override
            public Arrival moveTo(int x, int y, boolean press) {
                moves.add(x + "," + y);
                return Arrival.NOW;
            }

            @Override
            public void hide() {}

            @Override
            public void close() {}
        };
        Desktop shown = CursorDesktop.over(real, cursor, () -> {});
        assertSame(TREE, shown.trees().latestSnapshot(WINDOW, 3));
        assertEquals("latestSnapshot", calls.get(0));
        assertEquals(0, calls.stream().filter("snapshot"::equals).count());
        shown.showing().showElement("u1", true);
        assertEquals(List.of("25,40"), moves, "the cursor travels to the element the latest snapshot read");
    }
}

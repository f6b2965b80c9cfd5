package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.platform.CursorDesktop;
import dev.deckhand.platform.DrawnCursor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The drawn cursor around the run's desktop, on a fake cursor (here beside the run's other decorators: tests
 * under platform/ run only in the desktop execution): the voice line before the first input only, the cursor
 * off the screen before a capture, the elements' places from whatever read a tree, none for a Wayland window,
 * a broken cursor that changes nothing, and pacing.
 */
@Tag("pure")
class CursorDesktopTest {

    private static final long X11 = 7;
    private static final long WAYLAND = 1L << 40;

    /** What happened, in order: the calls that reached the desktop below, the cursor's and the hook's. */
    private final List<String> events = new ArrayList<>();

    private boolean cursorBroken;

    private final Desktop real = PortProxy.of((proxy, method, args) -> {
        events.add(method.getName());
        if (method.getName().equals("syntheticInput")) return (long) args[0] == X11;
        if (method.getReturnType() == ScopedTree.class) return tree((long) args[0]);
        return PortProxy.zero(method.getReturnType());
    });

    private final DrawnCursor cursor = new DrawnCursor() {
        @Override
        public Arrival moveTo(int x, int y, boolean press) {
            if (cursorBroken) throw new IllegalStateException("the overlay is gone");
            events.add("move " + x + "," + y + (press ? " press" : ""));
            return () -> events.add("arrived");
        }

        @Override
        public void hide() {
            if (cursorBroken) throw new IllegalStateException("the overlay is gone");
            events.add("hide");
        }

        @Override
        public void close() {}
    };

    private static ScopedTree tree(long window) {
        return new ScopedTree(
                window,
                3,
                List.of(new Node(
                        "u" + window,
                        0,
                        "push button",
                        "OK",
                        false,
                        null,
                        true,
                        false,
                        false,
                        true,
                        new Geometry(10, 20, 30, 40))),
                false);
    }

    private Desktop shown(boolean paced) {
        return CursorDesktop.over(real, cursor, () -> events.add("voice"), paced);
    }

    @Test
    void theVoiceLineComesOnceRightBeforeTheFirstInput() {
        Desktop d = shown(true);
        d.display().windows();
        d.trees().snapshot(X11, 3);
        d.input().click("u7");
        d.input().key(X11, null);
        assertEquals(List.of("windows", "snapshot", "syntheticInput", "voice", "click", "key"), events);
    }

    @Test
    void theCursorLeavesTheScreenBeforeACapture() {
        shown(true).captures().capture(X11, 3, 100);
        assertEquals(List.of("hide", "capture"), events);
    }

    @Test
    void itTravelsToAnElementEitherReadPlacedAndWaitsForTheArrivalWhenPaced() {
        Desktop d = shown(true);
        d.trees().snapshot(X11, 3);
        events.clear();
        d.showing().showElement("u7", true);
        d.showing().awaitShown();
        d.input().click("u7");
        assertEquals(List.of("voice", "move 25,40 press", "arrived", "click"), events);
    }

    @Test
    void unpacedItTravelsWithoutWaiting() {
        Desktop d = shown(false);
        d.trees().latestSnapshot(X11, 3);
        events.clear();
        d.showing().showPoint(20, 10, new Basis(3, X11, new Geometry(100, 200, 400, 300), 0.5));
        d.showing().awaitShown();
        assertEquals(List.of("voice", "move 140,220 press"), events);
    }

    @Test
    void aWaylandWindowsElementsHaveNoPlaceOnScreen() {
        Desktop d = shown(true);
        d.trees().snapshot(WAYLAND, 3);
        events.clear();
        d.showing().showElement("u" + WAYLAND, false);
        assertEquals(List.of("voice"), events);
    }

    @Test
    void aBrokenCursorChangesNothing() {
        cursorBroken = true;
        Desktop d = shown(true);
        d.trees().snapshot(X11, 3);
        d.showing().showElement("u7", true);
        d.showing().awaitShown();
        d.captures().capture(X11, 3, 100);
        d.input().click("u7");
        assertEquals(List.of("snapshot", "syntheticInput", "voice", "capture", "click"), events);
    }
}

package dev.deckhand.platform.wayland;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.platform.atspi.TestApp;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The Wayland contract on GTK 3: mousepad holds the text set by uid, and its retitled frame is the same window. */
@Tag("desktop")
class MousepadWaylandTest extends WaylandDesktopContract {

    @Override
    protected TestApp launchApp() throws Exception {
        return weston.launch("mousepad");
    }

    @Override
    protected Predicate<String> windowTitle() {
        return t -> t.endsWith("Mousepad");
    }

    @Override
    protected boolean contentReady(ScopedTree tree) {
        return tree.nodes().stream().anyMatch(MousepadWaylandTest::isText);
    }

    static boolean isText(Node n) {
        return n.role().equals("text") && n.editable();
    }

    @Test
    void setTextByUidIsReadBackAndTheRetitledFrameKeepsItsId() {
        String before = window().title();
        Node text = find(snapshot(), "editable text", MousepadWaylandTest::isText);
        long t0 = System.nanoTime();
        desktop.setText(text.uid(), "hello from Wayland");
        desktop.settle(Duration.ofSeconds(2));
        System.out.printf("mousepad set_text + settle: %.1f ms%n", (System.nanoTime() - t0) / 1e6);
        assertEquals(
                "hello from Wayland",
                awaitValue(
                        () -> snapshot().byUid(text.uid()).orElseThrow().value(),
                        "hello from Wayland",
                        Duration.ofSeconds(5)));
        // mousepad marks the edited document in its title: the same frame, the same id.
        String[] now = {before};
        poll(() -> !(now[0] = window().title()).equals(before), Duration.ofSeconds(5));
        assertNotEquals(before, now[0], "mousepad retitles the edited document");
        assertEquals(
                "hello from Wayland",
                find(snapshot(), "editable text", MousepadWaylandTest::isText).value());
    }
}

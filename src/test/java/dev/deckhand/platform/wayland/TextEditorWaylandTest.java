package dev.deckhand.platform.wayland;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.platform.atspi.TestApp;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The Wayland contract on GTK 4: gnome-text-editor holds the text set by uid. */
@Tag("desktop")
class TextEditorWaylandTest extends WaylandDesktopContract {

    @Override
    protected TestApp launchApp() throws Exception {
        return weston.launch("gnome-text-editor", "--standalone");
    }

    @Override
    protected Predicate<String> windowTitle() {
        return t -> !t.isBlank();
    }

    @Override
    protected boolean contentReady(ScopedTree tree) {
        return tree.nodes().stream().anyMatch(TextEditorWaylandTest::isText);
    }

    static boolean isText(Node n) {
        return n.role().equals("text") && n.editable();
    }

    @Test
    void setTextByUidIsReadBack() {
        Node text = find(snapshot(), "editable text", TextEditorWaylandTest::isText);
        desktop.setText(text.uid(), "written through AT-SPI alone");
        desktop.settle(Duration.ofSeconds(2));
        assertEquals(
                "written through AT-SPI alone",
                awaitValue(
                        () -> find(snapshot(), "editable text", TextEditorWaylandTest::isText)
                                .value(),
                        "written through AT-SPI alone",
                        Duration.ofSeconds(5)));
    }
}

package dev.deckhand.platform.wayland;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.platform.atspi.TestApp;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The Wayland contract on a GTK 3 dialog: a zenity entry filled and confirmed by uid prints what was set. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("desktop")
class ZenityWaylandTest extends WaylandDesktopContract {

    static final String TITLE = "Deckhand Wayland Entry";

    @Override
    protected TestApp launchApp() throws Exception {
        return weston.launch("zenity", "--entry", "--title", TITLE, "--text", "Name:");
    }

    @Override
    protected Predicate<String> windowTitle() {
        return TITLE::equals;
    }

    @Override
    protected boolean contentReady(ScopedTree tree) {
        return tree.nodes().stream().anyMatch(n -> n.role().equals("text") && n.editable())
                && tree.nodes().stream()
                        .anyMatch(
                                n -> n.role().equals("push button") && n.name().equals("OK"));
    }

    /** Runs last: the dialog exits. */
    @Test
    @Order(Integer.MAX_VALUE)
    void TheEntrySetAndConfirmedByUidIsWhatTheDialogAnswers() throws Exception {
        ScopedTree tree = snapshot();
        Node entry = find(tree, "entry", n -> n.role().equals("text") && n.editable());
        desktop.setText(entry.uid(), "Ada Lovelace");
        desktop.settle(Duration.ofSeconds(2));
        assertEquals(
                "Ada Lovelace",
                awaitValue(
                        () -> snapshot().byUid(entry.uid()).orElseThrow().value(),
                        "Ada Lovelace",
                        Duration.ofSeconds(5)));
        desktop.click(
                find(tree, "OK", n -> n.role().equals("push button") && n.name().equals("OK"))
                        .uid());
        assertTrue(poll(() -> !app.alive(), Duration.ofSeconds(10)), "zenity answers and exits");
        assertTrue(app.log().contains("Ada Lovelace"), "zenity printed the entry: " + app.log());
    }
}

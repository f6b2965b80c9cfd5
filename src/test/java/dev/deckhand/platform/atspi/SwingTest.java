package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Swing through the ATK wrapper: a text field and a button in a child JVM. */
@Tag("desktop")
class SwingTest extends EditorContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.SWING;
    }

    @Test
    void clickingTheButtonRunsItsAction() {
        ScopedTree tree = snapshot();
        Node ok = find(
                tree,
                "OK button",
                n -> n.role().equals("push button") && n.name().equals("OK"));
        Node field = editor(tree);
        bridge.setText(field.uid(), "before");
        bridge.click(ok.uid());
        bridge.settle(Duration.ofMillis(500));
        assertEquals("clicked", bridge.readText(field.uid()).orElseThrow());
    }
}

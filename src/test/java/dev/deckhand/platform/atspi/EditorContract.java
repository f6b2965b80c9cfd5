package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.time.Duration;
import java.util.Comparator;
import org.junit.jupiter.api.Test;

/** The contract for apps with an editable text element: UTF-8 text set and read back by uid. */
abstract class EditorContract extends AtspiAppContract {

    static final String UTF8_TEXT = "grüße ✓ 日本";

    /** The editor: by default the largest showing editable text element. */
    protected Node editor(ScopedTree tree) {
        return tree.nodes().stream()
                .filter(n -> n.editable() && n.showing() && n.bounds() != null && n.role().equals("text"))
                .max(Comparator.comparingLong(n -> (long) n.bounds().width() * n.bounds().height()))
                .orElseGet(() -> find(tree, "editable text", n -> n.editable() && n.role().equals("text")));
    }

    @Test
    void setTextRoundTripsUtf8() {
        Node ed = editor(snapshot());
        bridge.setText(ed.uid(), UTF8_TEXT);
        bridge.settle(Duration.ofMillis(500));
        assertEquals(UTF8_TEXT, bridge.readText(ed.uid()).orElseThrow());
        Node again = snapshot().byUid(ed.uid()).orElseThrow();
        assertEquals(UTF8_TEXT, again.value(), "the snapshot carries the value");
    }

    @Test
    void setTextReplacesTheWholeText() {
        Node ed = editor(snapshot());
        bridge.setText(ed.uid(), "first line\nsecond");
        bridge.setText(ed.uid(), "only");
        bridge.settle(Duration.ofMillis(500));
        assertEquals("only", bridge.readText(ed.uid()).orElseThrow());
    }

    @Test
    void editorIsNotAPasswordField() {
        Node ed = editor(snapshot());
        assertFalse(ed.role().equals("password text"));
        assertFalse(bridge.passwordFocused(), "no password field is focused while an editor is");
    }
}

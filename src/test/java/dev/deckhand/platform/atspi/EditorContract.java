package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.time.Duration;
import java.util.Comparator;
import org.junit.jupiter.api.Test;

/**
 * The bridge's contract for apps with an editable text element: {@code readText} after a replacing
 * set. UTF-8 set and typed text read back through the port is in
 * {@code platform.linux.EditorDesktopContract}.
 */
abstract class EditorContract extends AtspiAppContract {

    /** The editor: by default the largest showing editable text element. */
    protected Node editor(ScopedTree tree) {
        return tree.nodes().stream()
                .filter(n -> n.editable()
                        && n.showing()
                        && n.bounds() != null
                        && n.role().equals("text"))
                .max(Comparator.comparingLong(
                        n -> (long) n.bounds().width() * n.bounds().height()))
                .orElseGet(() -> find(
                        tree, "editable text", n -> n.editable() && n.role().equals("text")));
    }

    @Test
    void setTextReplacesTheWholeText() {
        Node ed = editor(snapshot());
        bridge.setText(ed.uid(), "first line\nsecond");
        bridge.setText(ed.uid(), "only");
        bridge.settle(Duration.ofMillis(500));
        assertEquals("only", bridge.readText(ed.uid()).orElseThrow());
    }
}

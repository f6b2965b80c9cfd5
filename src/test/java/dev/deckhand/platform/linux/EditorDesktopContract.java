package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link DesktopContract} for apps with an editable text element: UTF-8 text set by uid and typed
 * as keys, each read back from a fresh snapshot's value.
 */
abstract class EditorDesktopContract extends DesktopContract {

    static final String UTF8_TEXT = "grüße ✓ 日本";
    static final String TYPED = "typed grüße ✓ 日本";

    /**
     * Whether the toolkit takes keys only in the active window (Swing). Others (GTK 3, Qt 5) take
     * synthetic keys into an inactive window, and the test types with the focus elsewhere.
     */
    protected boolean keysNeedActiveWindow() {
        return false;
    }

    /** The editor: the largest showing editable text element. */
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

    private String editorValue(String uid) {
        return snapshot()
                .byUid(uid)
                .orElseThrow(() -> new AssertionError("the editor " + uid + " left the tree"))
                .value();
    }

    @Test
    void setTextRoundTripsUtf8ThroughAFreshSnapshot() {
        Node ed = editor(snapshot());
        desktop.setText(ed.uid(), UTF8_TEXT);
        desktop.settle(Duration.ofMillis(500));
        assertEquals(
                UTF8_TEXT,
                awaitSnapshotValue(() -> editorValue(ed.uid()), UTF8_TEXT, Duration.ofSeconds(5)),
                "the fresh snapshot carries the value");
    }

    @Test
    void typedTextReachesTheFocusedEditor() {
        Node ed = editor(snapshot());
        desktop.setText(ed.uid(), "");
        assertEquals("", awaitSnapshotValue(() -> editorValue(ed.uid()), "", Duration.ofSeconds(5)), "emptied first");
        long thief = 0;
        try {
            if (keysNeedActiveWindow()) {
                activate(windowId);
            } else {
                thief = focusElsewhere();
            }
            desktop.type(windowId, TYPED, dev.deckhand.loop.desktop.DeliveryGate.OPEN);
            desktop.settle(Duration.ofMillis(500));
            assertEquals(
                    TYPED,
                    awaitSnapshotValue(() -> editorValue(ed.uid()), TYPED, Duration.ofSeconds(5)),
                    "the typed text, read back from a snapshot");
            if (thief != 0) {
                assertNotEquals(
                        desktop.x11().topLevelOf(windowId),
                        desktop.x11().focusedTopLevel(),
                        "typing never moved the focus to the editor's window");
            }
        } finally {
            if (thief != 0) other.destroy(thief);
        }
    }

    /** Another client's small window, off the editor's, takes the input focus. */
    private long focusElsewhere() {
        Geometry screen = desktop.x11().screen();
        Geometry g = window().geometry();
        List<int[]> corners = List.of(
                new int[] {screen.width() - 90, screen.height() - 90},
                new int[] {10, screen.height() - 90},
                new int[] {screen.width() - 90, 10},
                new int[] {10, 10});
        int[] spot = corners.stream()
                .filter(c -> c[0] + 80 + 40 < g.x()
                        || c[0] - 40 > g.x() + g.width()
                        || c[1] + 80 + 40 < g.y()
                        || c[1] - 40 > g.y() + g.height())
                .findFirst()
                .orElse(corners.get(0));
        long thief = other.solidWindow("deckhand-focus-thief", spot[0], spot[1], 80, 80, 0x202020);
        assertTrue(
                poll(
                        () -> desktop.windows().stream().anyMatch(w -> w.id() == thief && w.visible()),
                        Duration.ofSeconds(10)),
                "the focus thief mapped");
        activate(thief);
        return thief;
    }

    @Test
    void theFocusedEditorIsNotAPasswordField() {
        Node ed = editor(snapshot());
        assertNotEquals("password text", ed.role());
        activate(windowId);
        desktop.focus(ed.uid());
        desktop.settle(Duration.ofMillis(300));
        assertTrue(
                poll(() -> snapshot().byUid(ed.uid()).map(Node::focused).orElse(false), Duration.ofSeconds(5)),
                "the editor has the keyboard focus:\n" + dump(snapshot()));
        assertFalse(desktop.facts().passwordFocused(), "no password field is focused while the editor is");
    }
}

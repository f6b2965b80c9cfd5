package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** GTK 3: mousepad. */
@Tag("desktop")
class MousepadTest extends EditorContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.MOUSEPAD;
    }

    @Test
    void scrollMovesTheEditorsScrollBar() {
        Node ed = editor(snapshot());
        bridge.setText(
                ed.uid(), IntStream.range(0, 400).mapToObj(i -> "line " + i).collect(Collectors.joining("\n")));
        bridge.settle(Duration.ofMillis(500));
        ScopedTree tree = snapshot();
        Node pane = find(tree, "scroll pane", n -> n.role().equals("scroll pane") && n.showing());
        Node bar = find(
                tree,
                "vertical scroll bar",
                n -> n.role().equals("scroll bar")
                        && n.showing()
                        && n.hasValue()
                        && n.bounds() != null
                        && n.bounds().height() > n.bounds().width());
        double before = Double.parseDouble(bridge.readText(bar.uid()).orElseThrow());
        bridge.scroll(pane.uid(), "down", 5);
        bridge.settle(Duration.ofMillis(500));
        double after = Double.parseDouble(bridge.readText(bar.uid()).orElseThrow());
        assertTrue(after > before, "scrolled down: " + before + " -> " + after);
        bridge.scroll(pane.uid(), "up", 100);
        bridge.settle(Duration.ofMillis(500));
        assertTrue(Double.parseDouble(bridge.readText(bar.uid()).orElseThrow()) < after, "scrolled back up");
    }

    @Test
    void gtk3TreesComeFromOneGetMatchesCall() {
        snapshot();
        assertTrue(bridge.lastWalkStats().contains("GetMatches"), bridge.lastWalkStats());
    }

    @Test
    void repeatedSnapshotsHoldOneReferencePerElement() {
        Node ed = editor(snapshot());
        Node menuBar = find(snapshot(), "menu bar", n -> n.role().equals("menu bar"));
        int editorRefs = bridge.refCount(ed.uid());
        int menuRefs = bridge.refCount(menuBar.uid());
        for (int i = 0; i < 5; i++) snapshot();
        assertEquals(editorRefs, bridge.refCount(ed.uid()), "the editor's references after five more walks");
        assertEquals(menuRefs, bridge.refCount(menuBar.uid()), "the menu bar's references after five more walks");
    }

    @Test
    void libatspiCallsRunInsideAMainLoopDispatchSoTheyNeverDispatchMessagesThemselves() {
        snapshot();
        assertTrue(AtspiThread.shared().mainDepthInCall() >= 1, "g_main_depth() inside a call");
    }

    @Test
    void scrollWithoutAScrollBarIsUnsupported() {
        Node menuBar = find(snapshot(), "menu bar", n -> n.role().equals("menu bar"));
        RefusedException e = assertThrows(RefusedException.class, () -> bridge.scroll(menuBar.uid(), "down", 1));
        assertEquals(RefusalCode.PLATFORM_UNSUPPORTED, e.code());
    }

    @Test
    void focusMovesKeyboardFocusToTheEditor() {
        Node ed = editor(snapshot());
        bridge.focus(ed.uid());
        bridge.settle(Duration.ofMillis(500));
        assertTrue(snapshot().byUid(ed.uid()).orElseThrow().focused(), "the editor has focus");
    }
}

package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Node;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Qt 5: featherpad (its editor is the largest showing text element). */
class FeatherpadTest extends EditorContract {

    @Override
    protected TestApp launchApp() throws Exception {
        return TestApp.launch(List.of("featherpad"));
    }

    @Override
    protected Predicate<String> windowTitle() {
        return t -> t.equals("Untitled") || t.contains("FeatherPad");
    }

    /**
     * Stays here, through the bridge, while {@code platform.linux.FeatherpadDesktopTest} cannot run
     * it through the port (the modified window's X title "*Untitled" no longer matches the bridge's
     * cached frame name "Untitled": a driver bug). For mousepad and Swing it lives in
     * {@code EditorDesktopContract}.
     */
    @Test
    void setTextRoundTripsUtf8() {
        Node ed = editor(snapshot());
        bridge.setText(ed.uid(), UTF8_TEXT);
        bridge.settle(Duration.ofMillis(500));
        assertEquals(UTF8_TEXT, bridge.readText(ed.uid()).orElseThrow());
        Node again = snapshot().byUid(ed.uid()).orElseThrow();
        assertEquals(UTF8_TEXT, again.value(), "the snapshot carries the value");
    }
}

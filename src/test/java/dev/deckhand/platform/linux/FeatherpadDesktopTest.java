package dev.deckhand.platform.linux;

import dev.deckhand.platform.atspi.TestApp;
import java.util.List;
import java.util.function.Predicate;

/**
 * The Desktop contract on Qt 5: FeatherPad (its editor is the largest showing text element). Once
 * the text changes, FeatherPad retitles its window "*Untitled" without announcing the new name on
 * the accessibility bus, so the editor tests also show that a snapshot finds the frame by the X
 * title when libatspi's cached name is stale.
 */
class FeatherpadDesktopTest extends EditorDesktopContract {

    @Override
    protected TestApp launchApp() throws Exception {
        return TestApp.launch(List.of("featherpad"));
    }

    @Override
    protected Predicate<String> windowTitle() {
        return t -> t.equals("Untitled") || t.contains("FeatherPad");
    }
}

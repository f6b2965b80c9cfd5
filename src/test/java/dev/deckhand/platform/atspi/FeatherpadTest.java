package dev.deckhand.platform.atspi;

import java.util.List;
import java.util.function.Predicate;

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
}

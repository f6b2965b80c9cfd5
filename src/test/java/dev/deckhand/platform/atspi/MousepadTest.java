package dev.deckhand.platform.atspi;

import java.util.List;
import java.util.function.Predicate;

/** GTK 3: mousepad. */
class MousepadTest extends EditorContract {

    @Override
    protected TestApp launchApp() throws Exception {
        return TestApp.launch(List.of("mousepad"));
    }

    @Override
    protected Predicate<String> windowTitle() {
        return t -> t.endsWith("Mousepad");
    }
}

package dev.deckhand.platform.linux;

import dev.deckhand.platform.atspi.TestApp;
import java.util.List;
import java.util.function.Predicate;

/** The Desktop contract on GTK 3: mousepad. */
class MousepadDesktopTest extends EditorDesktopContract {

    @Override
    protected TestApp launchApp() throws Exception {
        return TestApp.launch(List.of("mousepad"));
    }

    @Override
    protected Predicate<String> windowTitle() {
        return t -> t.endsWith("Mousepad");
    }
}

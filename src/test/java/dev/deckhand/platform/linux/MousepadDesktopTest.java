package dev.deckhand.platform.linux;

import dev.deckhand.platform.atspi.SampleApp;
import org.junit.jupiter.api.Tag;

/** The Desktop contract on GTK 3: mousepad. */
@Tag("desktop")
class MousepadDesktopTest extends EditorDesktopContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.MOUSEPAD;
    }
}

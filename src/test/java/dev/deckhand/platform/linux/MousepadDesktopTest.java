package dev.deckhand.platform.linux;

import dev.deckhand.platform.atspi.SampleApp;

/** The Desktop contract on GTK 3: mousepad. */
class MousepadDesktopTest extends EditorDesktopContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.MOUSEPAD;
    }
}

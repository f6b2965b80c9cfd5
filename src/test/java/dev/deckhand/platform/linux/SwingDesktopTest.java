package dev.deckhand.platform.linux;

import dev.deckhand.platform.atspi.SampleApp;
import org.junit.jupiter.api.Tag;

/** The Desktop contract on Swing through the ATK wrapper: a text field and a button in a child JVM. */
@Tag("desktop")
class SwingDesktopTest extends EditorDesktopContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.SWING;
    }

    /** Swing takes keys only in its active window (LINUX-DESKTOP.md). */
    @Override
    protected boolean keysNeedActiveWindow() {
        return true;
    }
}

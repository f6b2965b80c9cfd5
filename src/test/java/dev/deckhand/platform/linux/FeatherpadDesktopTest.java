package dev.deckhand.platform.linux;

import dev.deckhand.platform.atspi.SampleApp;
import org.junit.jupiter.api.Tag;

/**
 * The Desktop contract on Qt 5: FeatherPad (its editor is the largest showing text element). Once
 * the text changes, FeatherPad retitles its window "*Untitled" without announcing the new name on
 * the accessibility bus, so the editor tests also show that a snapshot finds the frame by the X
 * title when libatspi's cached name is stale.
 */
@Tag("desktop")
class FeatherpadDesktopTest extends EditorDesktopContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.FEATHERPAD;
    }
}

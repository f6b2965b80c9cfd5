package dev.deckhand.platform.atspi;

import org.junit.jupiter.api.Tag;

/** Qt 5: featherpad (its editor is the largest showing text element). */
@Tag("desktop")
class FeatherpadTest extends EditorContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.FEATHERPAD;
    }
}

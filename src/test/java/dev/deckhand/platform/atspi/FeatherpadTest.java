package dev.deckhand.platform.atspi;


/** Qt 5: featherpad (its editor is the largest showing text element). */
class FeatherpadTest extends EditorContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.FEATHERPAD;
    }
}

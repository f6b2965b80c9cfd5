package dev.deckhand.platform.linux;

import dev.deckhand.platform.atspi.TestApp;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The Desktop contract on Qt 5: FeatherPad (its editor is the largest showing text element).
 *
 * <p>Driver bug (open): once the document changes, FeatherPad retitles its window "*Untitled" on
 * X11, and a fresh process reads the frame's accessible name "*Untitled" as well; but the bridge's
 * cached name (cache mask) stays "Untitled", so {@code LinuxDesktop.snapshot} finds no frame named
 * after the X title and refuses {@code A11Y_UNAVAILABLE} for as long as the JVM runs. The two tests
 * that change the text are off until the driver sees the new name; remove these overrides then
 * (the bridge-level copy of the UTF-8 round trip stays in {@code atspi.FeatherpadTest} meanwhile).
 */
class FeatherpadDesktopTest extends EditorDesktopContract {

    static final String STALE_NAME = "driver bug: after an edit the bridge keeps FeatherPad's cached frame name "
            + "'Untitled' while X11 says '*Untitled', so every later snapshot is refused A11Y_UNAVAILABLE";

    @Override
    protected TestApp launchApp() throws Exception {
        return TestApp.launch(List.of("featherpad"));
    }

    @Override
    protected Predicate<String> windowTitle() {
        return t -> t.equals("Untitled") || t.contains("FeatherPad");
    }

    @Test
    @Disabled(STALE_NAME)
    @Override
    void setTextRoundTripsUtf8ThroughAFreshSnapshot() {
        super.setTextRoundTripsUtf8ThroughAFreshSnapshot();
    }

    @Test
    @Disabled(STALE_NAME)
    @Override
    void typedTextReachesTheFocusedEditor() {
        super.typedTextReachesTheFocusedEditor();
    }
}

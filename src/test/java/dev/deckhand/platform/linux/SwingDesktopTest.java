package dev.deckhand.platform.linux;

import dev.deckhand.platform.atspi.SwingTextFieldApp;
import dev.deckhand.platform.atspi.TestApp;
import java.util.function.Predicate;

/** The Desktop contract on Swing through the ATK wrapper: a text field and a button in a child JVM. */
class SwingDesktopTest extends EditorDesktopContract {

    static final String TITLE = "Deckhand Swing";

    @Override
    protected TestApp launchApp() throws Exception {
        return TestApp.launchSwing(SwingTextFieldApp.class, TITLE);
    }

    @Override
    protected Predicate<String> windowTitle() {
        return TITLE::equals;
    }

    /** Swing takes keys only in its active window (LINUX-DESKTOP.md). */
    @Override
    protected boolean keysNeedActiveWindow() {
        return true;
    }
}

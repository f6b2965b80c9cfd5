package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * When X gives the target the focus before the app's accessibility focus says so, typing waits for the app
 * (bounded) instead of refusing at once; it never waits while another window, or none, holds X's focus.
 */
@Tag("pure")
class FocusLagTest {

    static final long TARGET = 0x400001L;
    static final long OTHER = 0x600001L;

    private static DesktopFacts facts(long focusedWindow, Optional<DesktopFacts.FocusedElement> element) {
        Geometry g = new Geometry(0, 0, 400, 300);
        List<WindowInfo> windows = List.of(
                new WindowInfo(TARGET, "note", "yad", 100, g, 0, true, false, false),
                new WindowInfo(OTHER, "terminal", "yad", 200, g, 1, true, false, false));
        return new DesktopFacts(
                false,
                false,
                Set.of("yad"),
                windows,
                Optional.empty(),
                focusedWindow,
                element,
                List.of(),
                Optional.empty());
    }

    private static Optional<DesktopFacts.FocusedElement> in(int pid) {
        return Optional.of(new DesktopFacts.FocusedElement(pid, "text", "", null));
    }

    @Test
    void theAccessibilityFocusLagsWhileXFocusesTheTargetAndItIsUnknownOrInAnotherProcess() {
        assertTrue(GrantGuard.focusLags(facts(TARGET, Optional.empty()), TARGET));
        assertTrue(GrantGuard.focusLags(facts(TARGET, in(200)), TARGET), "the cache still shows the other app's field");
        assertFalse(GrantGuard.focusLags(facts(TARGET, in(100)), TARGET), "caught up");
    }

    @Test
    void neverWaitsWhenXFocusesAnotherWindowOrNone() {
        assertFalse(GrantGuard.focusLags(facts(OTHER, Optional.empty()), TARGET));
        assertFalse(GrantGuard.focusLags(facts(0, Optional.empty()), TARGET));
    }

    @Test
    void onlyActionsThatWriteToTheFocusWait() {
        assertTrue(GrantGuard.writesToFocus(new Action.Type("hi")));
        assertTrue(GrantGuard.writesToFocus(new Action.Key("ctrl+s")));
        assertFalse(GrantGuard.writesToFocus(new Action.Click("u1")));
    }
}

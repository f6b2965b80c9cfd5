package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.GrabHolder;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Whose keyboard grab it is: the target app's own menu, or another client's (docs/security.md#input-boundary). */
@Tag("pure")
class OwnPopupGrabTest {

    private static final long APP = 0x600000;
    private static final long OTHER = 0x800000;
    private static final WindowInfo TARGET = window(APP + 3, APP, 4242, false, false);
    private static final WindowInfo ELSEWHERE = window(OTHER + 1, OTHER, 777, false, false);

    private static WindowInfo window(long id, long client, int pid, boolean popup, boolean own) {
        return new WindowInfo(
                id,
                popup ? "" : "w",
                "app",
                pid,
                new Geometry(0, 0, 100, 100),
                0,
                true,
                false,
                own,
                client,
                0,
                false,
                1);
    }

    private static DesktopFacts facts(boolean grabbed, long focused, WindowInfo... popups) {
        return new DesktopFacts(
                false,
                grabbed,
                Set.of(),
                List.of(TARGET, ELSEWHERE),
                Optional.empty(),
                focused,
                Optional.empty(),
                List.of(popups),
                Optional.empty());
    }

    private static boolean grabbedFor(DesktopFacts d) {
        return FactsMapper.facts(d, TARGET.id()).keyboardGrabbed();
    }

    @Test
    void theAppsOwnMenuWithTheAppFocusedIsNotAnotherClientsGrab() {
        WindowInfo menu = window(APP + 0x847, APP, 4242, true, false);
        assertFalse(grabbedFor(facts(true, TARGET.id(), menu)));
        assertFalse(grabbedFor(facts(true, menu.id(), menu)), "focus on the menu itself");
        WindowInfo cursor = window(0x900001, 0x900000, 1, true, true);
        assertFalse(grabbedFor(facts(true, TARGET.id(), menu, cursor)), "Deckhand's drawn cursor above it");
    }

    @Test
    void everyOtherGrabStaysAnotherClients() {
        WindowInfo menu = window(APP + 0x847, APP, 4242, true, false);
        WindowInfo foreign = window(OTHER + 0x50, OTHER, 777, true, false);
        assertTrue(grabbedFor(facts(true, TARGET.id())), "no popup at all: a password prompt's grab");
        assertTrue(grabbedFor(facts(true, TARGET.id(), foreign)), "another client's popup");
        assertTrue(grabbedFor(facts(true, TARGET.id(), menu, foreign)), "another client's popup above the app's menu");
        assertTrue(grabbedFor(facts(true, ELSEWHERE.id(), menu)), "the focus is on another client");
        assertTrue(grabbedFor(facts(true, 0, menu)), "the focus is unknown");
        WindowInfo samePidOtherClient = window(OTHER + 0x60, OTHER, 4242, true, false);
        assertTrue(grabbedFor(facts(true, TARGET.id(), samePidOtherClient)), "the same pid but another X client");
        assertFalse(grabbedFor(facts(false, TARGET.id())), "no grab");
    }

    private static DesktopFacts measured(GrabHolder holder, WindowInfo... popups) {
        return new DesktopFacts(
                false,
                true,
                Set.of(),
                List.of(TARGET, ELSEWHERE),
                Optional.empty(),
                TARGET.id(),
                Optional.empty(),
                List.of(popups),
                Optional.empty(),
                holder);
    }

    @Test
    void aMeasuredGrabOfTheTargetsClientOpenedByDeckhandIsTheAppsOwnWithOrWithoutItsPopup() {
        assertFalse(
                grabbedFor(measured(new GrabHolder.Client(APP, TARGET.id(), true))),
                "GTK 3 grabs before it maps the menu: the gap is the app's own grab");
        WindowInfo menu = window(APP + 0x847, APP, 4242, true, false);
        assertFalse(grabbedFor(measured(new GrabHolder.Client(APP, TARGET.id(), true), menu)));
    }

    @Test
    void everyOtherMeasuredGrabStaysAnotherClients() {
        WindowInfo menu = window(APP + 0x847, APP, 4242, true, false);
        assertTrue(
                grabbedFor(measured(new GrabHolder.Client(OTHER, OTHER + 1, true), menu)),
                "another client's grab while the app's popup is on top and the app has the focus");
        assertTrue(
                grabbedFor(measured(new GrabHolder.Client(APP, TARGET.id(), false), menu)),
                "the app's grab, but the person opened it");
        assertTrue(grabbedFor(measured(new GrabHolder.Unknown("a passive grab"), menu)), "unattributed");
        WindowInfo noClient = new WindowInfo(
                APP + 3, "w", "app", 4242, new Geometry(0, 0, 100, 100), 0, true, false, false, 0, 0, false, 1);
        DesktopFacts d = new DesktopFacts(
                false,
                true,
                Set.of(),
                List.of(noClient),
                Optional.empty(),
                noClient.id(),
                Optional.empty(),
                List.of(),
                Optional.empty(),
                new GrabHolder.Client(0, 0, true));
        assertTrue(FactsMapper.facts(d, noClient.id()).keyboardGrabbed(), "a target whose client is not known");
    }
}

package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.ScopedTree;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An app's process id is asked of the bus daemon once per connection (a round trip per app on every
 * walk and facts read): walks and facts after the first ask nothing more, and an app started again — a new
 * process on a new connection — is found by its new process id, never by the old one's answer. Its own JVM, as
 * every platform test class.
 */
@Tag("desktop")
class AppProcessIdsTest {

    private AtspiBridge bridge;
    private TestApp first;
    private TestApp second;

    @BeforeEach
    void start() {
        TestApp.requireDesktop();
        bridge = AtspiBridge.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (second != null) second.close();
        if (first != null) first.close();
        if (bridge != null) bridge.close();
    }

    @Test
    void askedOncePerConnectionAndANewProcessIsFoundByItsOwn() throws Exception {
        first = TestApp.launch(List.of("galculator"));
        String title = first.awaitWindow(bridge, t -> t.toLowerCase(Locale.ROOT).contains("galculator"), 30_000);
        ScopedTree tree = awaitTree(first, title);
        bridge.passwordFocused();
        long asked = bridge.pidQueries();
        for (int i = 0; i < 5; i++) {
            assertEquals(tree.nodes().size(), awaitTree(first, title).nodes().size(), "the same window, walk " + i);
            bridge.passwordFocused();
            bridge.applicationNames();
        }
        assertEquals(asked, bridge.pidQueries(), "walks and facts after the first ask the bus daemon nothing more");

        int old = first.pid();
        first.close();
        first = null;
        second = TestApp.launch(List.of("galculator"));
        assertNotEquals(old, second.pid());
        String again =
                second.awaitWindow(bridge, t -> t.toLowerCase(Locale.ROOT).contains("galculator"), 30_000);
        assertTrue(awaitTree(second, again).nodes().size() > 10, "the new process's window, found by its own pid");
        assertTrue(bridge.pidQueries() > asked, "the new connection was asked");
        RefusedException gone = org.junit.jupiter.api.Assertions.assertThrows(
                RefusedException.class, () -> bridge.snapshot(old, again, new Geometry(0, 0, 0, 0), 3L, 1));
        assertTrue(gone.getMessage().contains(Integer.toString(old)), gone.getMessage());
    }

    /** A whole tree of the app's window (more than 10 elements). */
    private ScopedTree awaitTree(TestApp app, String title) throws InterruptedException {
        return app.awaitTree(bridge, title, t -> !t.partial() && t.nodes().size() > 10);
    }
}

package dev.deckhand.platform.wayland;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.platform.atspi.TestApp;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Wayland contract on a GTK 3 password dialog (zenity): the field shows its role, by which the policy
 * refuses every action on it (SECURE_INPUT), and its value is never read, even once it holds a secret.
 */
@Tag("desktop")
class ZenityPasswordWaylandTest extends WaylandDesktopContract {

    static final String SECRET = "hunter2-wayland";

    @Override
    protected TestApp launchApp() throws Exception {
        return weston.launch("zenity", "--password", "--title", "Deckhand Wayland Password");
    }

    @Override
    protected Predicate<String> windowTitle() {
        return "Deckhand Wayland Password"::equals;
    }

    @Override
    protected boolean contentReady(ScopedTree tree) {
        return tree.nodes().stream().anyMatch(n -> n.role().equals("password text"));
    }

    @Test
    void thePasswordFieldShowsItsRoleAndItsValueIsNeverExposed() {
        Node pw = find(snapshot(), "password text", n -> n.role().equals("password text"));
        // Set here through the driver only to prove the value stays unread; the policy refuses this action.
        desktop.setText(pw.uid(), SECRET);
        desktop.settle(Duration.ofSeconds(1));
        ScopedTree tree = snapshot();
        Node again = tree.byUid(pw.uid()).orElseThrow();
        assertTrue(again.hasValue(), "a password field carries a value");
        assertNull(again.value(), "but it is never read");
        for (Node n : tree.nodes()) {
            assertFalse(
                    n.name().contains(SECRET) || (n.value() != null && n.value().contains(SECRET)),
                    "the secret shows nowhere in the tree: " + n);
        }
    }
}

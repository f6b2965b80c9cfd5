package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.platform.atspi.SampleApp;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Desktop contract on a GTK 3 password dialog (yad): a focused password field shows in the
 * facts, and the field's value is never exposed.
 */
@Tag("desktop")
class PasswordDialogDesktopTest extends DesktopContract {

    static final String SECRET = "hunter2-sekrit";

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.PASSWORD_DIALOG;
    }

    /** yad builds its form after the window maps. */
    @Override
    protected boolean contentReady(ScopedTree tree) {
        return tree.nodes().stream().anyMatch(n -> n.role().equals("password text"));
    }

    @Test
    void aFocusedPasswordFieldShowsInTheFactsAndItsValueIsNeverExposed() {
        Node pw = find(snapshot(), "password text", n -> n.role().equals("password text"));
        desktop.setText(pw.uid(), SECRET);
        desktop.focus(pw.uid());
        desktop.settle(Duration.ofMillis(300));
        assertTrue(
                poll(() -> desktop.facts().passwordFocused(), Duration.ofSeconds(5)),
                "the focused element is a password field:\n" + dump(snapshot()));

        ScopedTree tree = snapshot();
        Node again = tree.byUid(pw.uid()).orElseThrow();
        assertTrue(again.focused(), "the snapshot shows the password field focused");
        assertTrue(again.hasValue(), "a password field carries a value");
        assertNull(again.value(), "but it is never read");
        for (Node n : tree.nodes()) {
            assertFalse(
                    n.name().contains(SECRET) || (n.value() != null && n.value().contains(SECRET)),
                    "the secret shows nowhere in the tree: " + n);
        }
    }
}

package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** GTK 3 password dialog (yad) through the bridge: its password field's text is never read. */
@Tag("desktop")
class PasswordDialogTest extends AtspiAppContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.PASSWORD_DIALOG;
    }

    /**
     * The bridge's own read path refuses a password field's text too. Focus detection and the value
     * missing from the snapshot are in {@code platform.linux.PasswordDialogDesktopTest}.
     */
    @Test
    void readTextOfAPasswordFieldIsEmpty() throws InterruptedException {
        ScopedTree tree = snapshot();
        // yad builds its form after the window maps; under load the field can be a moment late.
        for (int i = 0; i < 20 && tree.nodes().stream().noneMatch(n -> n.role().equals("password text")); i++) {
            Thread.sleep(250);
            tree = snapshot();
        }
        Node pw = find(tree, "password text", n -> n.role().equals("password text"));
        bridge.setText(pw.uid(), "hunter2");
        bridge.settle(Duration.ofMillis(300));
        assertEquals(java.util.Optional.empty(), bridge.readText(pw.uid()));
    }
}

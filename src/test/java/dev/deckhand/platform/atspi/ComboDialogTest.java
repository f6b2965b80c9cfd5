package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Node;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * GTK 3 combo box (yad form): select an option by name through the Selection interface; and its spin button,
 * whose text set by set_text is its value when OK is pressed.
 */
@Tag("desktop")
class ComboDialogTest extends AtspiAppContract {

    @Override
    protected SampleApp sampleApp() {
        return SampleApp.COMBO_DIALOG;
    }

    @Test
    void selectPicksTheNamedOption() {
        Node combo = find(snapshot(), "combo box", n -> n.role().equals("combo box"));
        bridge.select(combo.uid(), "gamma");
        bridge.settle(Duration.ofMillis(500));
        assertEquals("gamma", snapshot().byUid(combo.uid()).orElseThrow().name());
        bridge.select(combo.uid(), "beta");
        bridge.settle(Duration.ofMillis(500));
        assertEquals("beta", snapshot().byUid(combo.uid()).orElseThrow().name());
    }

    @Test
    void anOptionThatDoesNotExistIsRefused() {
        Node combo = find(snapshot(), "combo box", n -> n.role().equals("combo box"));
        RefusedException e = assertThrows(RefusedException.class, () -> bridge.select(combo.uid(), "delta"));
        assertEquals(RefusalCode.OUT_OF_SCOPE, e.code());
    }

    @Test
    void aButtonCannotBeSelectedFrom() {
        Node ok = find(
                snapshot(),
                "OK button",
                n -> n.role().equals("push button") && n.name().equals("OK"));
        RefusedException e = assertThrows(RefusedException.class, () -> bridge.select(ok.uid(), "beta"));
        assertEquals(RefusalCode.PLATFORM_UNSUPPORTED, e.code());
    }

    /**
     * GtkSpinButton takes typed text as its value only on activate or focus-out, and an accessibility click on
     * OK does neither: without the value committed, yad printed the old quantity (eval task yad-form-number).
     */
    @Test
    void aSpinButtonsTextIsItsValueWhenOkIsPressed() throws Exception {
        Node spin = find(snapshot(), "spin button", n -> n.role().equals("spin button"));
        bridge.setText(spin.uid(), "12");
        bridge.settle(Duration.ofMillis(500));
        assertEquals("12", snapshot().byUid(spin.uid()).orElseThrow().value());
        Node ok = find(
                snapshot(),
                "OK button",
                n -> n.role().equals("push button") && n.name().equals("OK"));
        bridge.click(ok.uid());
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (app.alive() && System.nanoTime() < deadline) Thread.sleep(50);
        assertTrue(app.log().contains("|12|"), "yad printed: " + app.log());
    }
}

package dev.deckhand.doctor;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.platform.linux.PointerToolkit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The doctor's words for how a click_at reaches each toolkit on a person's display, as measured. */
@Tag("pure")
class PointerPathCheckTest {

    @Test
    void eachToolkitsPathSaysWhatWasMeasured() {
        assertTrue(
                PointerPathCheck.path(PointerToolkit.GTK3).startsWith("anywhere in the window"),
                PointerPathCheck.path(PointerToolkit.GTK3));
        assertTrue(PointerPathCheck.path(PointerToolkit.XT).startsWith("anywhere in the window"));
        assertTrue(PointerPathCheck.path(PointerToolkit.QT5).startsWith("only while its window is the active one"));
        assertTrue(PointerPathCheck.path(PointerToolkit.CHROMIUM).contains("POINTER_WARP_REFUSED"));
        assertTrue(
                PointerPathCheck.path(PointerToolkit.GTK4).startsWith("on controls only"),
                PointerPathCheck.path(PointerToolkit.GTK4));
        assertTrue(PointerPathCheck.path(PointerToolkit.GTK4).contains("XInput 2"));
        assertTrue(PointerPathCheck.path(PointerToolkit.UNKNOWN).contains("not measured"));
    }
}

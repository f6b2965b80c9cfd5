package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The cursor's pixels and the bounding shape cut from them (pure; no display). */
@Tag("pure")
class CursorArtTest {

    @Test
    void theTipIsTheHotspotAndTheShapeCoversExactlyTheOpaquePixels() {
        for (boolean pressed : new boolean[] {false, true}) {
            int[] px = CursorArt.pixels(pressed);
            assertTrue((px[CursorArt.HOT * CursorArt.SIZE + CursorArt.HOT] >>> 24) == 0xff, "the tip is drawn");
            boolean[] covered = new boolean[px.length];
            List<int[]> spans = CursorArt.spans(px);
            for (int[] s : spans) {
                for (int x = s[0]; x < s[0] + s[2]; x++) covered[s[1] * CursorArt.SIZE + x] = true;
            }
            for (int i = 0; i < px.length; i++) {
                assertEquals((px[i] >>> 24) != 0, covered[i], "pixel " + i + " pressed=" + pressed);
                assertTrue(px[i] == 0 || (px[i] >>> 24) == 0xff, "opaque or empty: no partly transparent pixel");
            }
        }
    }

    @Test
    void onlyThePressShowsTheRing() {
        long ringIdle = java.util.Arrays.stream(CursorArt.pixels(false))
                .filter(p -> p == CursorArt.RING)
                .count();
        long ringPressed = java.util.Arrays.stream(CursorArt.pixels(true))
                .filter(p -> p == CursorArt.RING)
                .count();
        assertEquals(0, ringIdle);
        assertTrue(ringPressed > 100, "ring pixels: " + ringPressed);
    }
}

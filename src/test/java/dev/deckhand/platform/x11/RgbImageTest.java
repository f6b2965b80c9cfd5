package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class RgbImageTest {

    @Test
    void pngRoundTripsThroughImageIo() throws Exception {
        roundTrip(37, 23);
    }

    @Test
    void largePngDeflatedInParallelBandsIsOneValidStream() throws Exception {
        roundTrip(700, 500); // 1 MB raw: split into bands
        roundTrip(1280, 3); // wide and short: at most one band per row
    }

    private static void roundTrip(int w, int h) throws Exception {
        int[] px = new Random(42).ints((long) w * h, 0, 1 << 24).toArray();
        BufferedImage back = ImageIO.read(new ByteArrayInputStream(new RgbImage(w, h, px).png()));
        assertEquals(w, back.getWidth());
        assertEquals(h, back.getHeight());
        int[] got = back.getRGB(0, 0, w, h, null, 0, w);
        for (int i = 0; i < got.length; i++) got[i] &= 0xffffff;
        assertArrayEquals(px, got);
    }

    @Test
    void jpegDecodesToTheRightSize() throws Exception {
        int[] px = new int[64 * 32];
        java.util.Arrays.fill(px, 0x3366cc);
        BufferedImage back = ImageIO.read(new ByteArrayInputStream(new RgbImage(64, 32, px).jpeg(0.9f)));
        assertEquals(64, back.getWidth());
        int c = back.getRGB(10, 10) & 0xffffff;
        assertEquals(0x33, (c >> 16) & 0xff, 3);
        assertEquals(0xcc, c & 0xff, 3);
    }

    @Test
    void scaledSizeKeepsAspectAndNeverUpscales() {
        assertArrayEquals(new int[] {1280, 800}, RgbImage.scaledSize(1280, 800, 1280));
        assertArrayEquals(new int[] {640, 400}, RgbImage.scaledSize(1280, 800, 640));
        assertArrayEquals(new int[] {200, 100}, RgbImage.scaledSize(200, 100, 5000));
        assertArrayEquals(new int[] {50, 100}, RgbImage.scaledSize(300, 600, 100));
    }

    @Test
    void downscaleAveragesEachBox() {
        // 4x2 → 2x1: boxes {0,1 | 4,5} and {2,3 | 6,7}.
        int[] px = {0x000000, 0x0000ff, 0xff0000, 0xff0000, 0x0000ff, 0x000000, 0xff0000, 0xff0000};
        RgbImage out = new RgbImage(4, 2, px).downscale(2, 1);
        assertEquals(0x000080, out.rgb(0, 0), "half blue, rounded");
        assertEquals(0xff0000, out.rgb(1, 0));
    }
}

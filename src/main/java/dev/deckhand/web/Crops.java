package dev.deckhand.web;

import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Geometry;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.imageio.ImageIO;

/** Cuts an approval card's picture out of a window capture: the element, outlined, with context around it. */
final class Crops {

    /** Context kept on each side of the element, in capture pixels. */
    static final int MARGIN = 60;
    /** The longest edge of the picture the card shows. */
    static final int MAX_EDGE = 480;

    private Crops() {}

    /**
     * @param element the element's screen bounds, or null for the whole window
     * @return PNG bytes
     */
    static byte[] around(Capture capture, Geometry element) {
        BufferedImage window = read(capture.image());
        BufferedImage out;
        if (element == null) {
            out = scale(window);
        } else {
            Basis b = capture.basis();
            int ex = (int) Math.floor((element.x() - b.windowGeometry().x()) * b.scale());
            int ey = (int) Math.floor((element.y() - b.windowGeometry().y()) * b.scale());
            int ew = Math.max(1, (int) Math.ceil(element.width() * b.scale()));
            int eh = Math.max(1, (int) Math.ceil(element.height() * b.scale()));
            int x0 = clamp(ex - MARGIN, 0, window.getWidth() - 1);
            int y0 = clamp(ey - MARGIN, 0, window.getHeight() - 1);
            int x1 = clamp(ex + ew + MARGIN, x0 + 1, window.getWidth());
            int y1 = clamp(ey + eh + MARGIN, y0 + 1, window.getHeight());
            BufferedImage cut = new BufferedImage(x1 - x0, y1 - y0, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = cut.createGraphics();
            g.drawImage(window, -x0, -y0, null);
            g.setColor(new Color(0xd9, 0x48, 0x1c));
            g.setStroke(new BasicStroke(3f));
            g.drawRect(ex - x0 - 2, ey - y0 - 2, ew + 3, eh + 3);
            g.dispose();
            out = scale(cut);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            ImageIO.write(out, "png", bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static BufferedImage scale(BufferedImage in) {
        int edge = Math.max(in.getWidth(), in.getHeight());
        if (edge <= MAX_EDGE) return in;
        double f = (double) MAX_EDGE / edge;
        int w = Math.max(1, (int) Math.round(in.getWidth() * f));
        int h = Math.max(1, (int) Math.round(in.getHeight() * f));
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setRenderingHint(
                java.awt.RenderingHints.KEY_INTERPOLATION, java.awt.RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(in, 0, 0, w, h, null);
        g.dispose();
        return out;
    }

    private static BufferedImage read(byte[] png) {
        try {
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
            if (image == null) throw new IllegalStateException("the capture is not an image ImageIO can read");
            return image;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int clamp(int v, int lo, int hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}

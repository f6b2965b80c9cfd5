package dev.deckhand.platform.x11;

import java.util.ArrayList;
import java.util.List;

/**
 * The drawn cursor's pixels: an arrow whose tip is the hotspot, and the same arrow with a ring around
 * the tip for a press. Premultiplied ARGB, one int per pixel, row by row; the opaque parts also give
 * the window's bounding shape as row spans, so the cursor looks right without a compositing manager
 * (where an ARGB window's transparent pixels would paint black).
 */
final class CursorArt {

    /** Window size and the hotspot (arrow tip) inside it. */
    static final int SIZE = 48, HOT = 14;
    /** Fill and outline: a saturated violet no app theme uses for its own pointer, with a white edge. */
    static final int FILL = 0xff7b2ff7, EDGE = 0xffffffff, RING = 0xffff3d7f;

    private CursorArt() {}

    /** The arrow, optionally with the press ring. */
    static int[] pixels(boolean pressed) {
        int[] px = new int[SIZE * SIZE];
        for (int y = 0; y < SIZE; y++) {
            for (int x = 0; x < SIZE; x++) {
                int dx = x - HOT, dy = y - HOT;
                if (pressed) {
                    double r = Math.hypot(dx + 0.5, dy + 0.5);
                    if (r >= 9 && r <= 13) px[y * SIZE + x] = RING;
                }
                if (inArrow(dx, dy, 0)) px[y * SIZE + x] = inArrow(dx, dy, 2) ? FILL : EDGE;
            }
        }
        return px;
    }

    /**
     * The classic pointer silhouette with its tip at (0, 0): a triangle down and to the right plus a
     * short tail, shrunk by {@code inset} pixels for the fill inside the outline.
     */
    static boolean inArrow(int x, int y, int inset) {
        // Triangle: left edge x >= 0 (vertical), hypotenuse y >= x * 0.75 .. bottom edge y <= 24 - x * 0.6.
        boolean head = x >= inset && y >= x * 1.25 + inset * 1.6 && y <= 24 - x * 0.55 - inset * 1.2 && x <= 17;
        // Tail: a slanted bar from the middle of the bottom edge.
        double ux = x - 7, uy = y - 19; // along (0.45, 0.89)
        double along = ux * 0.45 + uy * 0.89, across = Math.abs(ux * 0.89 - uy * 0.45);
        boolean tail = along >= 0 && along <= 13 - inset && across <= 3 - inset * 0.9;
        return head || tail;
    }

    /** Row spans {x, y, width} of the non-transparent pixels. */
    static List<int[]> spans(int[] px) {
        List<int[]> out = new ArrayList<>();
        for (int y = 0; y < SIZE; y++) {
            int start = -1;
            for (int x = 0; x <= SIZE; x++) {
                boolean on = x < SIZE && (px[y * SIZE + x] >>> 24) != 0;
                if (on && start < 0) start = x;
                if (!on && start >= 0) {
                    out.add(new int[] {start, y, x - start});
                    start = -1;
                }
            }
        }
        return out;
    }
}

package dev.deckhand.loop.desktop;

/** A rectangle in screen pixels. */
public record Geometry(int x, int y, int width, int height) {

    public Geometry {
        if (width < 0) throw new IllegalArgumentException("width must be >= 0, was " + width);
        if (height < 0) throw new IllegalArgumentException("height must be >= 0, was " + height);
    }

    public boolean contains(int px, int py) {
        return px >= x && py >= y && px < x + width && py < y + height;
    }

    public int centerX() {
        return x + width / 2;
    }

    public int centerY() {
        return y + height / 2;
    }
}

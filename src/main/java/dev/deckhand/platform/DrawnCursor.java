package dev.deckhand.platform;

/**
 * A cursor drawn on the person's screen to show where the agent acts (DESIGN.md §4). It owns no part
 * of an action: every method returns within a small bound, never throws, and does nothing at all once
 * drawing has failed. It never moves the real pointer.
 */
public interface DrawnCursor extends AutoCloseable {

    /** Draws nothing; what runs without a display or with the cursor turned off use. */
    DrawnCursor NONE = new DrawnCursor() {
        @Override public void pointAt(int x, int y, boolean press) { }
        @Override public void hide() { }
        @Override public void close() { }
    };

    /**
     * Travels to screen point {@code (x, y)} and, when {@code press}, shows a press there. Returns when
     * the cursor has arrived (the press goes on after) or after the implementation's bound.
     */
    void pointAt(int x, int y, boolean press);

    /** Takes the cursor off the screen (before a capture); returns once it is gone or after a bound. */
    void hide();

    /** Ends drawing for good. */
    @Override
    void close();
}

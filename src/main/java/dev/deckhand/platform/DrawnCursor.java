package dev.deckhand.platform;

/**
 * A cursor drawn on the person's screen to show where the agent acts (docs/design.md#the-run-loop). It owns no part
 * of an action: every method returns within a small bound, never throws, and does nothing at all once
 * drawing has failed. It never moves the real pointer.
 */
public interface DrawnCursor extends AutoCloseable {

    /** Draws nothing; what runs without a display or with the cursor turned off use. */
    DrawnCursor NONE = new DrawnCursor() {
        @Override
        public Arrival moveTo(int x, int y, boolean press) {
            return Arrival.NOW;
        }

        @Override
        public void hide() {}

        @Override
        public void close() {}
    };

    /** A travel under way: {@link #await()} returns when the cursor has arrived, or after the implementation's bound. */
    @FunctionalInterface
    interface Arrival {
        Arrival NOW = () -> {};

        void await();
    }

    /**
     * Starts the travel to screen point {@code (x, y)} (and, when {@code press}, a press there once
     * arrived) and returns at once; the work before the act goes on while the cursor travels.
     */
    Arrival moveTo(int x, int y, boolean press);

    /** {@link #moveTo} and wait for the arrival (the press goes on after). */
    default void pointAt(int x, int y, boolean press) {
        moveTo(x, y, press).await();
    }

    /** Takes the cursor off the screen (before a capture); returns once it is gone or after a bound. */
    void hide();

    /** Ends drawing for good. */
    @Override
    void close();
}

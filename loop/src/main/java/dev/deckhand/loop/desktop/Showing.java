package dev.deckhand.loop.desktop;

/**
 * Showing the person where the next action lands (the drawn cursor, docs/presence.md). Never decides anything
 * and never fails. A part of the {@link Desktop} port; a driver shows nothing ({@link #NONE}), the presence
 * service gives a desktop its drawn cursor.
 */
public interface Showing {

    /**
     * Starts showing where the next action lands (the drawn cursor travels to the element, and shows a
     * press when {@code press}); returns at once, {@link #awaitShown()} waits for the arrival.
     */
    void showElement(String uid, boolean press);

    /** {@link #showElement} for capture pixel {@code (x, y)} of {@code basis}. */
    void showPoint(int x, int y, Basis basis);

    /**
     * Returns once what {@link #showElement} or {@link #showPoint} started is shown (at once where the
     * showing is not paced). The loop calls it after its checks and before the last check.
     */
    void awaitShown();

    /** Shows nothing and returns at once: a desktop without a drawn cursor. */
    Showing NONE = new Showing() {
        @Override
        public void showElement(String uid, boolean press) {}

        @Override
        public void showPoint(int x, int y, Basis basis) {}

        @Override
        public void awaitShown() {}
    };
}

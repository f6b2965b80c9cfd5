package dev.deckhand.loop.desktop;

import java.util.Optional;

/**
 * The stretch of a run in which Deckhand's own secret files must not be opened by anyone else: from an
 * input until the read that shows its effect. What a granted app that runs commands does with a secret it
 * read (reversed, cut up) no matcher finds, so the opening itself is what is checked: an input opens the
 * window, the next read closes it and says which secret, if any, another process opened in between. The
 * person's own reads (a script approving a card) happen while the run waits, outside every window.
 */
public interface SecretFileWindow {

    /** No watch: nothing is ever reported. */
    SecretFileWindow NONE = new SecretFileWindow() {
        @Override
        public void acted() {}

        @Override
        public Optional<String> closed() {
            return Optional.empty();
        }

        @Override
        public Optional<String> peek() {
            return Optional.empty();
        }

        @Override
        public void end() {}
    };

    /** An input is about to be delivered: opens the window if it is not open. */
    void acted();

    /** A read has been made: closes the window and says which secret another process opened in it. */
    Optional<String> closed();

    /** Which secret another process opened in the open window so far, without closing it. */
    Optional<String> peek();

    /** The run ended: closes the window. */
    void end();
}

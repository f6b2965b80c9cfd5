package dev.deckhand.loop.desktop;

import java.util.Objects;

/**
 * What closing the granted app's own menus found ({@link Display#closeOwnMenus}): a menu, combo list or popover of
 * the window's client, opened by one of Deckhand's actions, holding the keyboard — none, closed, or left open.
 */
public sealed interface MenuClosing permits MenuClosing.None, MenuClosing.Closed, MenuClosing.Left {

    /** Nothing to close: no menu Deckhand opened holds the keyboard (none is open, or the grab is another's). */
    MenuClosing NONE = new None();

    /** Whether a menu Deckhand opened held the keyboard when the call began. */
    boolean found();

    /** See {@link #NONE}. */
    record None() implements MenuClosing {
        @Override
        public boolean found() {
            return false;
        }
    }

    /** One was open and is closed now: {@code escapes} Escape presses went to it (one per level of menu). */
    record Closed(int escapes) implements MenuClosing {
        public Closed {
            if (escapes < 1) throw new IllegalArgumentException("escapes must be at least 1, was " + escapes);
        }

        @Override
        public boolean found() {
            return true;
        }
    }

    /** One was open, or may be, and still holds the keyboard: {@code why} says what was tried or what is unknown. */
    record Left(String why) implements MenuClosing {
        public Left {
            Objects.requireNonNull(why, "why");
        }

        @Override
        public boolean found() {
            return true;
        }
    }
}

package dev.deckhand.loop.desktop;

import java.util.Objects;

/**
 * The changes other programs made to the person's keyboard since the display was opened
 * ({@link Display#keyboardChanges()}): its keysyms, its modifier map or its enabled controls (AccessX).
 *
 * @param count how many; -1 when the platform does not watch the keyboard
 * @param last the last one in words ("the keysyms of 3 keys and the modifier map"), empty before the first
 */
public record KeyboardChanges(long count, String last) {

    /** Nothing is watched (a platform that cannot tell). */
    public static final KeyboardChanges UNWATCHED = new KeyboardChanges(-1, "");

    public KeyboardChanges {
        Objects.requireNonNull(last, "last");
    }

    /** Whether the keyboard is watched at all. */
    public boolean watched() {
        return count >= 0;
    }
}

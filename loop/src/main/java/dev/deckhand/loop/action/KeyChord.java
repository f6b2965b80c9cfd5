package dev.deckhand.loop.action;

import dev.deckhand.grant.Chord;

/**
 * The key chord grammar of {@code key{keys}}: {@link Chord} (one grammar and one normal form for the
 * schema, the policy, the consequential gate and the driver). Examples: {@code ctrl+s}, {@code Enter},
 * {@code ctrl+shift+Tab}. Chords the desktop may take parse, and are refused {@code SYSTEM_CHORD} by the
 * policy on every grant; keys the grammar does not know are invalid.
 */
public final class KeyChord {

    /** The grammar as an ECMA/Java regex (it appears in the action schema). */
    public static final String PATTERN = Chord.PATTERN;

    private KeyChord() {}

    public static boolean valid(String keys) {
        try {
            check(keys);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** @throws IllegalArgumentException naming {@code keys} and the action {@code key} */
    public static void check(String keys) {
        Chord.parse(keys);
    }
}

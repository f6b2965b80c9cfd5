package dev.deckhand.loop.action;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The key chord grammar of {@code key{keys}}: zero or more distinct modifiers
 * ({@code ctrl}, {@code alt}, {@code shift}, {@code super}, lower case) joined with {@code +},
 * then exactly one key: a letter, a digit, {@code F1}..{@code F12}, or one of {@code Enter Tab
 * Escape BackSpace Delete Home End Page_Up Page_Down Up Down Left Right space} (exact case).
 * Examples: {@code ctrl+s}, {@code Enter}, {@code ctrl+shift+Tab}.
 */
public final class KeyChord {

    static final String KEY_NAME =
            "[a-zA-Z0-9]|F[1-9]|F1[0-2]|Enter|Tab|Escape|BackSpace|Delete|Home|End|Page_Up|Page_Down|Up|Down|Left|Right|space";

    /** The same grammar as an ECMA/Java regex (it appears in the action schema). */
    public static final String PATTERN = "^((ctrl|alt|shift|super)\\+)*(" + KEY_NAME + ")$";

    private static final Pattern COMPILED = Pattern.compile(PATTERN);

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
        if (keys == null || keys.isEmpty()) throw new IllegalArgumentException("keys is required for key");
        if (keys.length() > Action.MAX_KEYS) {
            throw new IllegalArgumentException("keys must be at most " + Action.MAX_KEYS + " characters for key");
        }
        if (!COMPILED.matcher(keys).matches()) {
            throw new IllegalArgumentException("keys must be modifiers (ctrl, alt, shift, super) joined with '+' and one key name"
                    + " (a letter, a digit, F1-F12, Enter, Tab, Escape, BackSpace, Delete, Home, End, Page_Up, Page_Down,"
                    + " Up, Down, Left, Right, space) for key");
        }
        String[] parts = keys.split("\\+");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < parts.length - 1; i++) {
            if (!seen.add(parts[i])) throw new IllegalArgumentException("keys repeats the modifier " + parts[i] + " for key");
        }
    }
}

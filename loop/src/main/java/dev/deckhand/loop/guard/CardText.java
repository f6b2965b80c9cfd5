package dev.deckhand.loop.guard;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import com.ibm.icu.lang.UScript;

/**
 * Typed text as an approval card shows it: every character, none hidden. A card the person approves approves what it
 * shows, so nothing is cut (round 6: a card cut a {@code type} step at 200 characters, and the tail it hid ran), and
 * what may draw nothing is written out by its code point: a default that writes out, not a list of invisible
 * characters (round 7 typed 1,200 {@code U+2800 BRAILLE PATTERN BLANK}, a symbol that draws nothing). Shown as
 * itself: a letter, a digit, a punctuation mark, a symbol, one space, and a combining mark of its base letter's own
 * script (a Devanagari vowel sign). Everything else — other white space, format and control characters, default
 * ignorables (variation selectors, fillers), marks of no script of their own ({@code U+0301} after an {@code e}),
 * unassigned and private-use code points, and the symbols Unicode draws blank — is {@code ⟨U+2800⟩}; a run of one
 * such character is counted ({@code ⟨1200 × U+2800⟩}), a run of spaces too ({@code ⟨300 spaces⟩}).
 */
final class CardText {

    private CardText() {}

    static String visible(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        int i = 0;
        int base = -1;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int end = i + Character.charCount(cp);
            if (cp == ' ' || !shown(cp, base)) {
                int n = 1;
                while (end < text.length() && text.codePointAt(end) == cp) {
                    end += Character.charCount(cp);
                    n++;
                }
                if (cp == ' ') out.append(n == 1 ? " " : "⟨" + n + " spaces⟩");
                else
                    out.append(n == 1 ? "⟨" : "⟨" + n + " × ")
                            .append(String.format(java.util.Locale.ROOT, "U+%04X⟩", cp));
            } else {
                out.appendCodePoint(cp);
            }
            if (!isMark(cp)) base = cp;
            i = end;
        }
        return out.toString();
    }

    /** Whether {@code cp}, after {@code base}, is drawn as itself (see the class comment). */
    private static boolean shown(int cp, int base) {
        if (UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT) || BLANK_SYMBOLS.contains(cp))
            return false;
        if (cp == '⟨' || cp == '⟩') return false; // the brackets of what is written out, typed: written out too
        if (isMark(cp)) {
            int script = UScript.getScript(cp);
            return base >= 0
                    && UCharacter.isLetter(base)
                    && script != UScript.INHERITED
                    && script != UScript.COMMON
                    && UScript.hasScript(base, script);
        }
        return switch (UCharacter.getType(cp)) {
            case UCharacter.UPPERCASE_LETTER,
                    UCharacter.LOWERCASE_LETTER,
                    UCharacter.TITLECASE_LETTER,
                    UCharacter.MODIFIER_LETTER,
                    UCharacter.OTHER_LETTER,
                    UCharacter.DECIMAL_DIGIT_NUMBER,
                    UCharacter.LETTER_NUMBER,
                    UCharacter.OTHER_NUMBER,
                    UCharacter.CONNECTOR_PUNCTUATION,
                    UCharacter.DASH_PUNCTUATION,
                    UCharacter.START_PUNCTUATION,
                    UCharacter.END_PUNCTUATION,
                    UCharacter.INITIAL_PUNCTUATION,
                    UCharacter.FINAL_PUNCTUATION,
                    UCharacter.OTHER_PUNCTUATION,
                    UCharacter.MATH_SYMBOL,
                    UCharacter.CURRENCY_SYMBOL,
                    UCharacter.MODIFIER_SYMBOL,
                    UCharacter.OTHER_SYMBOL -> true;
            default -> false;
        };
    }

    private static boolean isMark(int cp) {
        int t = UCharacter.getType(cp);
        return t == UCharacter.NON_SPACING_MARK
                || t == UCharacter.ENCLOSING_MARK
                || t == UCharacter.COMBINING_SPACING_MARK;
    }

    /** The symbols whose glyph Unicode draws blank: the braille blank, the musical null notehead. */
    private static final java.util.Set<Integer> BLANK_SYMBOLS = java.util.Set.of(0x2800, 0x1D159);
}

package dev.deckhand.loop.guard;

/**
 * Typed text as an approval card shows it: every character, none hidden. A card the person approves approves what it
 * shows, so nothing is cut (round 6: a card cut a {@code type} step at 200 characters, and the tail it hid ran), and
 * what a person cannot see is written out: a run of two or more white-space characters as its count
 * ({@code ⟨300 spaces⟩}), any other white space than a space and every invisible character (format and control
 * characters, bidirectional controls, zero-width characters, unassigned code points) as its code point
 * ({@code ⟨U+202E⟩}).
 */
final class CardText {

    private CardText() {}

    static String visible(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (cp == ' ') {
                int end = i;
                while (end < text.length() && text.charAt(end) == ' ') end++;
                int n = end - i;
                out.append(n == 1 ? " " : "⟨" + n + " spaces⟩");
                i = end;
                continue;
            }
            if (invisible(cp)) out.append(String.format("⟨U+%04X⟩", cp));
            else out.appendCodePoint(cp);
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    private static boolean invisible(int cp) {
        return switch (Character.getType(cp)) {
            case Character.FORMAT,
                    Character.CONTROL,
                    Character.UNASSIGNED,
                    Character.PRIVATE_USE,
                    Character.SURROGATE,
                    Character.SPACE_SEPARATOR,
                    Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR -> true;
            // combining marks alone and the fillers some scripts draw as nothing
            default -> cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0 || cp == 0x034F;
        };
    }
}

package dev.deckhand.grant;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one normalisation of labels (element names, options, dialog text) and of the word list before
 * they are matched: NFKC; format characters (zero-width spaces and joiners, soft hyphens, bidi marks)
 * removed; Cyrillic and Greek look-alikes of Latin letters mapped to them; diacritics removed;
 * lower case (ROOT); {@code ß} as {@code ss}. {@link #tokens} splits the result into words (camelCase
 * split too) and adds the whole label with its separators removed, so {@code S e n d} and
 * {@code S-e-n-d} meet the word {@code send}.
 */
public final class Labels {

    /** Cyrillic and Greek letters that look like Latin ones (lower case after folding). */
    private static final Map<Character, Character> LOOK_ALIKES = Map.ofEntries(
            Map.entry('а', 'a'), Map.entry('в', 'b'), Map.entry('с', 'c'), Map.entry('е', 'e'), Map.entry('ё', 'e'),
            Map.entry('һ', 'h'), Map.entry('і', 'i'), Map.entry('ї', 'i'), Map.entry('ј', 'j'), Map.entry('к', 'k'),
            Map.entry('м', 'm'), Map.entry('н', 'h'), Map.entry('о', 'o'), Map.entry('р', 'p'), Map.entry('ѕ', 's'),
            Map.entry('т', 't'), Map.entry('у', 'y'), Map.entry('х', 'x'), Map.entry('ԁ', 'd'), Map.entry('ԛ', 'q'),
            Map.entry('ԝ', 'w'), Map.entry('ɡ', 'g'),
            Map.entry('α', 'a'), Map.entry('β', 'b'), Map.entry('ε', 'e'), Map.entry('η', 'n'), Map.entry('ι', 'i'),
            Map.entry('κ', 'k'), Map.entry('ν', 'v'), Map.entry('ο', 'o'), Map.entry('ρ', 'p'), Map.entry('τ', 't'),
            Map.entry('υ', 'u'), Map.entry('χ', 'x'), Map.entry('ζ', 'z'), Map.entry('μ', 'u'));

    private Labels() {
    }

    /** The normal form of {@code text} (see the class comment), or "" for null. */
    public static String normalize(String text) {
        if (text == null || text.isEmpty()) return "";
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC);
        StringBuilder noFormat = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> {
            int type = Character.getType(cp);
            if (type != Character.FORMAT && type != Character.CONTROL) noFormat.appendCodePoint(cp);
        });
        String camel = splitCamel(noFormat.toString());
        String decomposed = Normalizer.normalize(camel.toLowerCase(Locale.ROOT), Normalizer.Form.NFD);
        StringBuilder out = new StringBuilder(decomposed.length());
        for (int i = 0; i < decomposed.length(); i++) {
            char c = decomposed.charAt(i);
            if (Character.getType(c) == Character.NON_SPACING_MARK) continue;
            if (c == 'ß') {
                out.append("ss");
                continue;
            }
            out.append(LOOK_ALIKES.getOrDefault(c, c));
        }
        return out.toString();
    }

    /** The words of {@code text} after {@link #normalize}, plus the whole text with separators removed. */
    public static List<String> tokens(String text) {
        String n = normalize(text);
        List<String> out = new ArrayList<>();
        StringBuilder joined = new StringBuilder();
        for (String t : n.split("[^\\p{L}\\p{N}]+")) {
            if (!t.isEmpty()) {
                out.add(t);
                joined.append(t);
            }
        }
        if (out.size() > 1) out.add(joined.toString());
        return out;
    }

    private static String splitCamel(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (i > 0 && Character.isUpperCase(c) && Character.isLowerCase(s.charAt(i - 1))) sb.append(' ');
            sb.append(c);
        }
        return sb.toString();
    }
}

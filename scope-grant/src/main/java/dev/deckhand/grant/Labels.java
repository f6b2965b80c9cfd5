package dev.deckhand.grant;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.text.BreakIterator;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.SpoofChecker;
import com.ibm.icu.util.ULocale;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Labels (element names, options, dialog text) and the word list compared as a person reads them.
 *
 * <p>A label is split into words, and each word is brought to one normal form; two words a person
 * cannot tell apart on screen have the same normal form:
 * <ol>
 * <li>NFKC (full-width, mathematical and other compatibility letters become plain ones), then format
 *   and control characters removed (zero-width spaces and joiners, soft hyphens, bidi marks);
 * <li>camelCase split ({@code SendNow} is two words), then ICU's word boundaries (UAX #29, with
 *   dictionaries for scripts written without spaces: {@code 发送邮件} is {@code 发送} and {@code 邮件});
 * <li>per word: full case folding, then Unicode's confusable skeleton (UTS #39, ICU's
 *   {@link SpoofChecker#getSkeleton}): {@code е}, {@code ı}, {@code rn} for {@code m}. Folding first
 *   makes the form the same in every case ({@code УДАЛИТЬ} is {@code Удалить}). {@link #tokens} also
 *   reads each word skeleton first, folded, skeleton again, without NFKC, for the look-alikes folding
 *   or NFKC would turn into another letter: capital {@code Н} looks like {@code H} though it folds to
 *   {@code н}, long {@code ſ} looks like {@code f} though NFKC makes it {@code s};
 * <li>anything that is not a letter, digit or mark removed (mnemonic {@code _} and {@code &},
 *   apostrophes, dots between letters). Diacritics stay, as the skeleton keeps them: a person reads
 *   {@code Bỏ} (Vietnamese, remove) and {@code Bo} as two words; a combining diaeresis and a
 *   precomposed {@code ö} are one;
 * <li>{@code i} written as {@code l}: case folding turns {@code I} into {@code i}, which undoes the
 *   skeleton's {@code I} = {@code l} = {@code 1} — a person reads {@code lnstall} as {@code Install}.
 *   (ICU's skeleton is the confusables table; this one letter is the only mapping made here.)
 * </ol>
 * The normal form is for comparing only; it is never shown.
 */
public final class Labels {

    private static final Normalizer2 NFKC = Normalizer2.getNFKCInstance();

    /** Immutable after build; ICU documents SpoofChecker as safe to share between threads. */
    private static final SpoofChecker SPOOF = new SpoofChecker.Builder().build();

    /** Cloned per call: a BreakIterator holds the text it walks. */
    private static final BreakIterator WORDS = BreakIterator.getWordInstance(ULocale.ROOT);

    private Labels() {
    }

    /** The words of {@code text}, each in normal form (see the class comment); empty for null. */
    public static List<String> words(String text) {
        return segment(text, true);
    }

    /**
     * The words of {@code text} in normal form, then every run of two to four neighbouring words joined
     * and, for more words, the whole text joined — so {@code S e n d}, {@code S-e-n-d} and
     * {@code De lete} meet their word, and a word list entry of several words ({@code Cài đặt}) meets it
     * in a longer label. Each word is read twice: as {@link #words} does, and skeleton first without
     * NFKC (see the class comment), so a look-alike that NFKC or case folding would turn into another
     * letter ({@code ſ} read as {@code f}, {@code Н} as {@code H}) is read as it looks too.
     */
    public static List<String> tokens(String text) {
        Set<String> out = new LinkedHashSet<>();
        joined(segment(text, true), out);
        joined(segment(text, false), out);
        return new ArrayList<>(out);
    }

    private static void joined(List<String> words, Set<String> out) {
        out.addAll(words);
        for (int n = 2; n <= Math.min(4, words.size()); n++) {
            for (int i = 0; i + n <= words.size(); i++) out.add(String.join("", words.subList(i, i + n)));
        }
        if (words.size() > 4) out.add(String.join("", words));
    }

    private static List<String> segment(String text, boolean primary) {
        List<String> out = new ArrayList<>();
        if (text == null || text.isEmpty()) return out;
        String s = splitCamel(withoutFormat(primary ? NFKC.normalize(text) : text));
        BreakIterator bi = (BreakIterator) WORDS.clone();
        bi.setText(s);
        int start = bi.first();
        for (int end = bi.next(); end != BreakIterator.DONE; start = end, end = bi.next()) {
            if (bi.getRuleStatus() == BreakIterator.WORD_NONE) continue;
            String piece = s.substring(start, end);
            String w = primary ? word(piece) : lettersOnly(SPOOF.getSkeleton(UCharacter.foldCase(SPOOF.getSkeleton(piece), true)));
            if (!w.isEmpty()) out.add(w);
        }
        return out;
    }

    /** One word list entry in normal form: its words joined ({@code Endgültig löschen} is one token). */
    public static String entry(String text) {
        return String.join("", words(text));
    }

    /** The normal form of one word: its full case folding's skeleton (steps 3–5 of the class comment). */
    static String word(String w) {
        return lettersOnly(SPOOF.getSkeleton(UCharacter.foldCase(w, true)));
    }

    private static String lettersOnly(String k) {
        StringBuilder out = new StringBuilder(k.length());
        k.codePoints().forEach(cp -> {
            if (!UCharacter.isLetterOrDigit(cp) && !isMark(cp)) return;
            out.appendCodePoint(cp == 'i' ? 'l' : cp);
        });
        return out.toString();
    }

    private static boolean isMark(int cp) {
        int t = UCharacter.getType(cp);
        return t == UCharacter.NON_SPACING_MARK || t == UCharacter.COMBINING_SPACING_MARK || t == UCharacter.ENCLOSING_MARK;
    }

    /**
     * A word as the person wrote it, for showing and storing (the policy document): NFKC, case folded,
     * letters and digits only. Matching never uses it.
     */
    public static String display(String w) {
        String f = UCharacter.foldCase(withoutFormat(NFKC.normalize(w.trim())), true);
        StringBuilder out = new StringBuilder(f.length());
        f.codePoints().filter(cp -> UCharacter.isLetterOrDigit(cp) || isMark(cp)).forEach(out::appendCodePoint);
        return out.toString();
    }

    private static String withoutFormat(String s) {
        StringBuilder out = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> {
            int type = UCharacter.getType(cp);
            // Format characters vanish inside a word (Se\u200Bnd is Send); control characters separate words.
            if (type == UCharacter.CONTROL) out.append(' ');
            else if (type != UCharacter.FORMAT) out.appendCodePoint(cp);
        });
        return out.toString();
    }

    private static String splitCamel(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        int prev = -1;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (prev >= 0 && UCharacter.isUUppercase(cp) && UCharacter.isULowercase(prev)) sb.append(' ');
            sb.appendCodePoint(cp);
            prev = cp;
            i += Character.charCount(cp);
        }
        return sb.toString();
    }
}

package dev.deckhand.grant;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.lang.UScript;
import com.ibm.icu.text.Bidi;
import com.ibm.icu.text.BreakIterator;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.SpoofChecker;
import com.ibm.icu.util.ULocale;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Labels (element names, options, dialog text) and the word list compared as a person reads them.
 *
 * <p>A label is split into words, and each word is brought to one normal form; two words a person
 * cannot tell apart on screen have the same normal form:
 * <ol>
 * <li>letters in another form of a Latin letter that neither NFKC nor the confusables map (small capitals
 *   {@code ꜱᴇɴᴅ}, modifier and subscript letters, negative squared and regional indicator letters
 *   {@code 🆂🅴🅽🅳}) become that letter, read from each character's Unicode name ({@link #letterForm});
 * <li>combining marks that are decoration, not part of a letter, are dropped: after NFC, a mark
 *   (general category Mn or Me) left uncomposed whose script is Inherited or Common or not its base's
 *   ({@code Sen\u0332d}, a low line under the {@code n}, is {@code Send}); a mark NFC composes into a
 *   letter stays ({@code Bỏ}), and so does a script's own vowel sign or point;
 * <li>NFKC (full-width, mathematical and other compatibility letters become plain ones), then format
 *   and control characters removed (zero-width spaces and joiners, soft hyphens, bidi marks);
 * <li>camelCase split ({@code SendNow} is two words), split at every digit and punctuation mark ({@code Send2},
 *   {@code Send_now}, {@code Send:all}), then ICU's word boundaries (UAX #29, with
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
 * {@link #tokens} reads a label in both orders a person may see it: as stored (logical order) and, when it
 * holds right-to-left text or bidirectional controls ({@code \u202EdneS\u202C} shows {@code Send}), in the
 * visual order of the Unicode bidirectional algorithm (ICU's {@link Bidi}), for a left-to-right and a
 * right-to-left paragraph.
 * The normal form is for comparing only; it is never shown.
 */
public final class Labels {

    private static final Normalizer2 NFKC = Normalizer2.getNFKCInstance();
    private static final Normalizer2 NFC = Normalizer2.getNFCInstance();

    /** Immutable after build; ICU documents SpoofChecker as safe to share between threads. */
    private static final SpoofChecker SPOOF = new SpoofChecker.Builder().build();

    /**
     * UTS #39's restriction level, from ICU's script data: a word is highly restrictive when its letters are of one
     * script, or of Latin with Han and Japanese's kana, Bopomofo or Hangul, the mixes a language writes.
     */
    private static final SpoofChecker ONE_SCRIPT = new SpoofChecker.Builder()
            .setChecks(SpoofChecker.RESTRICTION_LEVEL)
            .setRestrictionLevel(SpoofChecker.RestrictionLevel.HIGHLY_RESTRICTIVE)
            .build();

    /** Cloned per call: a BreakIterator holds the text it walks. */
    private static final BreakIterator WORDS = BreakIterator.getWordInstance(ULocale.ROOT);

    private Labels() {}

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
        return read(text).tokens();
    }

    /**
     * A label read once: its single words (both readings, every order) and its {@link #tokens}, which add the
     * joined runs of neighbours to them.
     */
    public record Reading(List<String> words, List<String> tokens) {}

    /** {@link Reading} of {@code text}: each order and reading is segmented once, for both lists. */
    public static Reading read(String text) {
        Set<String> words = new LinkedHashSet<>();
        Set<String> tokens = new LinkedHashSet<>();
        for (String shown : orders(text)) {
            for (boolean primary : new boolean[] {true, false}) {
                List<String> segmented = segment(shown, primary);
                words.addAll(segmented);
                joined(segmented, tokens);
            }
        }
        return new Reading(List.copyOf(words), List.copyOf(tokens));
    }

    /**
     * Whether {@code text} holds a word Deckhand cannot read as a person does, whatever it spells — a default that
     * refuses where the look-alike tables end. After NFKC and with format characters removed:
     * <ul>
     * <li>a word (words end at anything that is no letter or mark) whose letters mix scripts as no language writes
     *   them ({@link #ONE_SCRIPT}): {@code ՏԑΝᗪ} (Armenian, Cyrillic, Greek, Canadian Syllabics), {@code Sеnd} with a
     *   Cyrillic {@code е}; words of one script each ({@code Русский (Russian)}) do not mix;
     * <li>a letter whose Unicode identifier status is not <i>allowed</i> (UTS #39: obsolete, technical, uncommon or
     *   limited use — {@code ƅ} drawn as {@code b}, {@code Ꝑ}, IPA's {@code ɑ}, Cherokee): letters no language
     *   writes today, which a person reads as the Latin letter they look like;
     * <li>a word with more symbols next to its letters than {@link #gapped} reads as letters ({@link #MAX_GAPS}),
     *   making up a third of its letters or more ({@code D€l€t€€}); an address ({@code user@mail.example.com}) or a
     *   chord ({@code Ctrl+Shift+Alt+T}) has more letters than that;
     * <li>a letter of another script than Latin between two Latin letters of a word ({@code Subm丨t}, {@code Remロve}:
     *   Han and kana, which UTS #39 lets mix with Latin as Japanese does, {@code Eメール}; but not inside a Latin
     *   word).
     * </ul>
     */
    public static boolean unreadable(String text) {
        if (text == null) return false;
        String plain = withoutFormat(NFKC.normalize(text));
        for (String word : plain.split("[^\\p{L}\\p{M}]+")) {
            if (!word.isEmpty() && (ONE_SCRIPT.failsChecks(word) || foreignInsideLatin(word))) return true;
        }
        // identifier status allowed: identifier type recommended or inclusion
        boolean restricted = plain.codePoints()
                .anyMatch(cp -> UCharacter.isLetter(cp)
                        && !UCharacter.hasIdentifierType(cp, UCharacter.IdentifierType.RECOMMENDED)
                        && !UCharacter.hasIdentifierType(cp, UCharacter.IdentifierType.INCLUSION));
        if (restricted) return true;
        for (String shown : orders(text)) {
            for (Gaps g : gaps(readable(shown, true))) {
                if (g.each() > MAX_GAPS && g.each() * 3 >= g.letters()) return true;
            }
        }
        return false;
    }

    /**
     * The most symbols a word of {@link #gapped} reads as letters: three (round 7: {@code D€l€t€forever}); each gap is
     * tried as every letter a–z, so three cost 17,576 readings of that word. More: {@link #unreadable}.
     */
    public static final int MAX_GAPS = 3;

    /** Whether a letter of another script than Latin stands between two Latin letters of {@code word}. */
    private static boolean foreignInsideLatin(String word) {
        int[] cps = word.codePoints().filter(UCharacter::isLetter).toArray();
        for (int i = 1; i + 1 < cps.length; i++) {
            if (UScript.getScript(cps[i]) != UScript.LATIN
                    && UScript.getScript(cps[i - 1]) == UScript.LATIN
                    && UScript.getScript(cps[i + 1]) == UScript.LATIN) return true;
        }
        return false;
    }

    /** Where a word of {@link #gapped} had a symbol between its letters. */
    public static final char GAP = '\u0000';

    /**
     * The words of {@code text} (every order) that have a symbol next to a letter — between two ({@code S℮nd},
     * {@code S∊nd}, {@code Se∩d}, {@code Ins†all}), or at a word's start or end ({@code $end}, {@code ₱ay},
     * {@code Delet€}): a symbol or a punctuation mark a person may read as a letter, which no confusables table maps
     * to one — in normal form with {@link #GAP} where each symbol stood, and again with one where each run of them
     * stood ({@code Se||d}, {@code P@¥}: a run may be one letter or one each), each reading with at most
     * {@link #MAX_GAPS}; the
     * caller reads the gap as any letter. Empty for a text with no such word. More gaps: {@link #unreadable}.
     */
    public static List<String> gapped(String text) {
        List<String> out = new ArrayList<>();
        for (String shown : orders(text)) {
            for (Gaps g : gaps(readable(shown, true))) {
                if (g.runs() > 0 && g.runs() <= MAX_GAPS) out.add(g.byRun());
                if (g.each() != g.runs() && g.each() <= MAX_GAPS) out.add(g.bySymbol());
            }
        }
        return out;
    }

    /**
     * One white-space separated word of a text read for symbols next to letters: in normal form with a {@link #GAP}
     * per run of symbols ({@code byRun}, {@code runs} gaps) and per symbol ({@code bySymbol}, {@code each} gaps), and
     * how many letters it has besides.
     */
    private record Gaps(String byRun, int runs, String bySymbol, int each, int letters) {}

    /**
     * {@link Gaps} of each white-space separated word of {@code s} that has a run of symbols next to a letter; a run of
     * sentence punctuation that ends the word ({@code Send…}, {@code Delete?}) is punctuation, not a letter.
     */
    private static List<Gaps> gaps(String s) {
        List<Gaps> out = new ArrayList<>();
        for (String run : s.split("\\s+")) {
            if (run.isEmpty()) continue;
            int[] cps = run.codePoints().toArray();
            StringBuilder byRun = new StringBuilder();
            StringBuilder bySymbol = new StringBuilder();
            StringBuilder part = new StringBuilder();
            int runs = 0;
            int each = 0;
            int letters = 0;
            for (int i = 0; i < cps.length; ) {
                if (!gapAt(cps, i)) {
                    if (UCharacter.isLetter(cps[i])) letters++;
                    part.appendCodePoint(cps[i++]);
                    continue;
                }
                int end = i;
                boolean sentence = true;
                while (end < cps.length && gapAt(cps, end)) sentence &= ".!?:;,".indexOf(cps[end++]) >= 0;
                boolean nextToLetter =
                        i > 0 && UCharacter.isLetter(cps[i - 1]) || end < cps.length && UCharacter.isLetter(cps[end]);
                if (!nextToLetter || sentence && end == cps.length) {
                    for (int k = i; k < end; k++) part.appendCodePoint(cps[k]);
                } else {
                    String w = word(part.toString());
                    part.setLength(0);
                    byRun.append(w).append(GAP);
                    bySymbol.append(w).append(String.valueOf(GAP).repeat(end - i));
                    runs++;
                    each += end - i;
                }
                i = end;
            }
            if (runs == 0) continue;
            String w = word(part.toString());
            out.add(new Gaps(
                    byRun.append(w).toString(), runs, bySymbol.append(w).toString(), each, letters));
        }
        return out;
    }

    /**
     * Whether {@code cps[i]} may stand for a letter: a symbol, or a lone digit or a lone Han, kana, Hangul or Bopomofo
     * letter next to a Latin letter (round 8: {@code 5end}, {@code P4y}, {@code 匚onfirm}, {@code Instal丨}), which no
     * confusables table maps to a Latin letter. A run of two or more digits is a number ({@code 1080p}, {@code H264}),
     * and of those letters a word ({@code Bluetooth設定}); a lone one next to Latin letters that means itself
     * ({@code PC版}, {@code MP3}) reads as no list word.
     */
    private static boolean gapAt(int[] cps, int i) {
        if (symbol(cps[i])) return true;
        if (!standIn(cps[i])) return false;
        boolean alone = (i == 0 || !standIn(cps[i - 1])) && (i + 1 == cps.length || !standIn(cps[i + 1]));
        return alone && (i > 0 && latin(cps[i - 1]) || i + 1 < cps.length && latin(cps[i + 1]));
    }

    private static boolean standIn(int cp) {
        if (UCharacter.isDigit(cp)) return true;
        if (!UCharacter.isLetter(cp)) return false;
        int script = UScript.getScript(cp);
        return script == UScript.HAN
                || script == UScript.HIRAGANA
                || script == UScript.KATAKANA
                || script == UScript.HANGUL
                || script == UScript.BOPOMOFO;
    }

    private static boolean latin(int cp) {
        return UCharacter.isLetter(cp) && UScript.getScript(cp) == UScript.LATIN;
    }

    private static boolean symbol(int cp) {
        return switch (UCharacter.getType(cp)) {
            case UCharacter.MATH_SYMBOL,
                    UCharacter.CURRENCY_SYMBOL,
                    UCharacter.MODIFIER_SYMBOL,
                    UCharacter.OTHER_SYMBOL,
                    UCharacter.OTHER_PUNCTUATION,
                    UCharacter.DASH_PUNCTUATION -> true;
            default -> false;
        };
    }

    /**
     * The text in logical order and, when it holds right-to-left letters or bidirectional controls, in the
     * visual order the Unicode bidirectional algorithm gives it in a left-to-right and in a right-to-left
     * paragraph (each line its own paragraph), with the controls removed: what a person sees.
     */
    static List<String> orders(String text) {
        if (text == null || text.isEmpty() || !bidirectional(text)) return text == null ? List.of() : List.of(text);
        Set<String> out = new LinkedHashSet<>(List.of(text));
        for (byte level : new byte[] {Bidi.LTR, Bidi.RTL}) {
            StringBuilder visual = new StringBuilder(text.length());
            for (String line : text.split("\\R", -1)) {
                if (visual.length() > 0) visual.append('\n');
                if (line.isEmpty()) continue;
                Bidi bidi = new Bidi(line, level);
                visual.append(bidi.writeReordered(Bidi.REMOVE_BIDI_CONTROLS));
            }
            out.add(visual.toString());
        }
        return new ArrayList<>(out);
    }

    /** Whether any character is right-to-left or a bidirectional control (embedding, override, isolate). */
    private static boolean bidirectional(String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            switch (UCharacter.getDirection(cp)) {
                case UCharacter.RIGHT_TO_LEFT,
                        UCharacter.RIGHT_TO_LEFT_ARABIC,
                        UCharacter.RIGHT_TO_LEFT_EMBEDDING,
                        UCharacter.RIGHT_TO_LEFT_OVERRIDE,
                        UCharacter.LEFT_TO_RIGHT_EMBEDDING,
                        UCharacter.LEFT_TO_RIGHT_OVERRIDE,
                        UCharacter.POP_DIRECTIONAL_FORMAT,
                        UCharacter.LEFT_TO_RIGHT_ISOLATE,
                        UCharacter.RIGHT_TO_LEFT_ISOLATE,
                        UCharacter.FIRST_STRONG_ISOLATE,
                        UCharacter.POP_DIRECTIONAL_ISOLATE:
                    return true;
                default:
                    break;
            }
            i += Character.charCount(cp);
        }
        return false;
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
        String s = splitCamel(readable(text, primary));
        BreakIterator bi = (BreakIterator) WORDS.clone();
        bi.setText(s);
        int start = bi.first();
        for (int end = bi.next(); end != BreakIterator.DONE; start = end, end = bi.next()) {
            if (bi.getRuleStatus() == BreakIterator.WORD_NONE) continue;
            String piece = s.substring(start, end);
            String w = primary
                    ? word(piece)
                    : lettersOnly(SPOOF.getSkeleton(UCharacter.foldCase(SPOOF.getSkeleton(piece), true)));
            if (!w.isEmpty()) out.add(w);
        }
        return out;
    }

    /**
     * {@code text} with letter forms read, decoration and format characters removed, and NFKC when {@code primary}
     * (steps 1–3 of the class comment), before it is split into words.
     */
    private static String readable(String text, boolean primary) {
        String shown = withoutDecoration(withoutFormat(letterForms(text)));
        return withoutFormat(primary ? NFKC.normalize(shown) : shown);
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
        return t == UCharacter.NON_SPACING_MARK
                || t == UCharacter.COMBINING_SPACING_MARK
                || t == UCharacter.ENCLOSING_MARK;
    }

    /**
     * A word as the person wrote it, for showing and storing (the policy document): NFKC, case folded,
     * letters and digits only. Matching never uses it.
     */
    public static String display(String w) {
        String f = UCharacter.foldCase(withoutFormat(NFKC.normalize(w.trim())), true);
        StringBuilder out = new StringBuilder(f.length());
        f.codePoints()
                .filter(cp -> UCharacter.isLetterOrDigit(cp) || isMark(cp))
                .forEach(out::appendCodePoint);
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

    /**
     * The text in NFC with the combining marks that are decoration dropped: a mark (Mn, Me) NFC left
     * uncomposed whose script is Inherited or Common (a low line, an overline, an enclosing circle on any
     * letter) or not a script of its base (a Thai vowel sign on a Latin letter). A mark NFC composes is part
     * of a precomposed letter and stays ({@code Bỏ}); a mark of its base's own script (a Devanagari vowel
     * sign, a Hebrew point) is spelling and stays.
     */
    static String withoutDecoration(String s) {
        String n = NFC.normalize(s);
        StringBuilder out = new StringBuilder(n.length());
        int base = -1;
        for (int i = 0; i < n.length(); ) {
            int cp = n.codePointAt(i);
            i += Character.charCount(cp);
            int type = UCharacter.getType(cp);
            if (type == UCharacter.NON_SPACING_MARK || type == UCharacter.ENCLOSING_MARK) {
                int script = UScript.getScript(cp);
                boolean decoration = script == UScript.INHERITED
                        || script == UScript.COMMON
                        || base < 0
                        || !UScript.hasScript(base, script);
                if (decoration) continue;
            } else if (type != UCharacter.COMBINING_SPACING_MARK) {
                base = cp;
            }
            out.appendCodePoint(cp);
        }
        return out.toString();
    }

    /** The text with every {@link #letterForm} replaced by its letter. */
    static String letterForms(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int n = Character.charCount(cp);
            int letter = cp < 0x80 ? -1 : letterForm(cp);
            if (letter >= 0 && out == null) out = new StringBuilder(s.length()).append(s, 0, i);
            if (out != null) out.appendCodePoint(letter >= 0 ? letter : cp);
            i += n;
        }
        return out == null ? s : out.toString();
    }

    /**
     * The Latin letter {@code a}–{@code z} (upper case for a capital) that {@code cp} is another form of, by
     * its Unicode name, or -1. A form: a letter or symbol of the Latin or Common script whose name is one
     * letter A–Z after words that only say its size, case, position, width, style or frame
     * ({@link LetterForms#STYLE}: {@code LATIN LETTER SMALL CAPITAL S}, {@code MODIFIER LETTER CAPITAL M},
     * {@code LATIN SUBSCRIPT SMALL LETTER M}, {@code NEGATIVE SQUARED LATIN CAPITAL LETTER S},
     * {@code REGIONAL INDICATOR SYMBOL LETTER S}). A name with any other word ({@code TURNED},
     * {@code REVERSED}, {@code WITH STROKE}) names another letter. The table is built from ICU's names
     * for each character the first time a label holds it.
     */
    static int letterForm(int cp) {
        if (!LetterForms.candidate(cp)) return -1;
        return LetterForms.SEEN.computeIfAbsent(cp, c -> LetterForms.fromName(UCharacter.getName(c)));
    }

    /** Letters named as another form of a Latin letter, read from ICU's character names. */
    static final class LetterForms {

        /** Words of a character name that say how a letter is drawn, not which letter it is. */
        static final Set<String> STYLE = Set.of(
                "LATIN",
                "LETTER",
                "SMALL",
                "CAPITAL",
                "MODIFIER",
                "SUBSCRIPT",
                "SUPERSCRIPT",
                "FULLWIDTH",
                "HALFWIDTH",
                "CIRCLED",
                "NEGATIVE",
                "SQUARED",
                "PARENTHESIZED",
                "REGIONAL",
                "INDICATOR",
                "SYMBOL",
                "MATHEMATICAL",
                "BOLD",
                "ITALIC",
                "SCRIPT",
                "FRAKTUR",
                "DOUBLE-STRUCK",
                "SANS-SERIF",
                "MONOSPACE");

        /**
         * The answers so far, code point → letter or -1: a name is read once per character, when a label first
         * holds it (reading all names up front costs a quarter of a second; labels hold few such characters).
         */
        static final Map<Integer, Integer> SEEN = new ConcurrentHashMap<>();

        private LetterForms() {}

        /** A letter or symbol of the Latin or Common script: only these can be named as a Latin letter's form. */
        static boolean candidate(int cp) {
            int type = UCharacter.getType(cp);
            if (type != UCharacterCategory.OTHER_SYMBOL && !UCharacter.isLetter(cp)) return false;
            int script = UScript.getScript(cp);
            return script == UScript.LATIN || script == UScript.COMMON;
        }

        /** Every form in Unicode (see {@link #letterForm}), code point → letter: for tests and reports. */
        static Map<Integer, Integer> all() {
            Map<Integer, Integer> out = new TreeMap<>();
            for (int cp = 0x80; cp <= Character.MAX_CODE_POINT; cp++) {
                int letter = letterForm(cp);
                if (letter >= 0) out.put(cp, letter);
            }
            return out;
        }

        /** The letter a name names as a form of it ({@code ... CAPITAL LETTER S} is {@code S}), or -1. */
        static int fromName(String name) {
            if (name == null) return -1;
            String[] words = name.split(" ");
            String last = words[words.length - 1];
            if (words.length < 2 || last.length() != 1 || last.charAt(0) < 'A' || last.charAt(0) > 'Z') return -1;
            boolean capital = false;
            for (int i = 0; i < words.length - 1; i++) {
                if (!STYLE.contains(words[i])) return -1;
                if (words[i].equals("CAPITAL") && (i == 0 || !words[i - 1].equals("SMALL"))) capital = true;
            }
            return capital ? last.charAt(0) : Character.toLowerCase(last.charAt(0));
        }
    }

    private static boolean punctuation(int cp) {
        return switch (UCharacter.getType(cp)) {
            case UCharacter.CONNECTOR_PUNCTUATION,
                    UCharacter.DASH_PUNCTUATION,
                    UCharacter.OTHER_PUNCTUATION,
                    UCharacter.INITIAL_PUNCTUATION,
                    UCharacter.FINAL_PUNCTUATION -> true;
            default -> false;
        };
    }

    private static String splitCamel(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        int prev = -1;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (prev >= 0 && UCharacter.isUUppercase(cp) && UCharacter.isULowercase(prev)) sb.append(' ');
            // a digit is never part of a word, nor is punctuation (`_`, `:`, `.`, `·`, `'`, which ICU keeps inside a
            // word): Send2, 1Delete, Send_now, Send:all and Pay·now hold their list word (a digit that looks like a
            // letter is still met by the joined neighbours of tokens: De1ete)
            if (prev >= 0
                    && (UCharacter.isDigit(cp) != UCharacter.isDigit(prev))
                    && UCharacter.isLetterOrDigit(cp)
                    && UCharacter.isLetterOrDigit(prev)) {
                sb.append(' ');
            }
            if (punctuation(cp)) {
                sb.append(' ');
                prev = ' ';
                i += Character.charCount(cp);
                continue;
            }
            sb.appendCodePoint(cp);
            prev = cp;
            i += Character.charCount(cp);
        }
        return sb.toString();
    }
}

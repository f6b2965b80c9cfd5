package dev.deckhand.grant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.text.SpoofChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Labels compared as a person reads them ({@link Labels}, {@link ConsequentialWords}): look-alikes
 * generated from ICU's confusables data, the installed translations, English word forms, and the
 * words that must not gate.
 */
@Tag("pure")
class LabelsAsReadTest {

    private static final ConsequentialWords WORDS = ConsequentialWords.defaults();

    /** The English words of the built-in list (the ones its own comment lists first), category → words. */
    private static final Map<String, List<String>> ENGLISH = Map.of("send", List.of("send"),
            "buy", List.of("buy", "purchase", "checkout"), "pay", List.of("pay", "transfer"),
            "delete", List.of("delete", "remove", "discard", "erase", "trash", "destroy", "wipe"),
            "publish", List.of("publish", "post", "tweet"), "confirm", List.of("confirm", "sign"),
            "submit", List.of("submit"), "install", List.of("install"),
            "allow", List.of("allow", "permit", "authorize"), "paste", List.of("paste"));

    /**
     * Every letter (outside ASCII) whose UTS #39 skeleton is one ASCII letter, by that letter: the
     * confusables data of ICU, read back through the SpoofChecker rather than typed in by hand.
     */
    private static Map<Character, List<Integer>> lookAlikes() {
        SpoofChecker spoof = new SpoofChecker.Builder().build();
        Map<Character, List<Integer>> out = new TreeMap<>();
        for (int cp = 0x80; cp <= 0x1FFFF; cp++) {
            if (!UCharacter.isLetter(cp)) continue;
            String k = spoof.getSkeleton(new String(Character.toChars(cp)));
            if (k.length() == 1 && k.charAt(0) < 0x80 && Character.isLetter(k.charAt(0))) {
                out.computeIfAbsent(k.charAt(0), c -> new ArrayList<>()).add(cp);
            }
        }
        return out;
    }

    @Test
    void everyConfusableOfEveryLetterOfEveryWordGates() {
        Map<Character, List<Integer>> alikes = lookAlikes();
        assertTrue(alikes.get('e').size() > 10 && alikes.get('S').size() > 5, "ICU's confusables hold many look-alikes: " + alikes.get('e'));
        List<String> missed = new ArrayList<>();
        int tried = 0;
        for (Map.Entry<String, List<String>> e : ENGLISH.entrySet()) {
            for (String word : e.getValue()) {
                for (String cased : List.of(word, word.toUpperCase(Locale.ROOT),
                        word.substring(0, 1).toUpperCase(Locale.ROOT) + word.substring(1))) {
                    for (int i = 0; i < cased.length(); i++) {
                        for (int cp : alikes.getOrDefault(cased.charAt(i), List.of())) {
                            String variant = cased.substring(0, i) + new String(Character.toChars(cp)) + cased.substring(i + 1);
                            tried++;
                            if (!WORDS.categoriesIn(variant).contains(e.getKey())) missed.add(variant + " (U+" + Integer.toHexString(cp) + ")");
                        }
                    }
                }
                // Every letter swapped at once, each for its first look-alike, and whole alphabets.
                StringBuilder all = new StringBuilder();
                for (char c : word.toCharArray()) {
                    List<Integer> a = alikes.get(c);
                    all.appendCodePoint(a == null ? c : a.get(0));
                }
                for (String variant : List.of(all.toString(), fullWidth(word), mathBold(word), mathBold(word.toUpperCase(Locale.ROOT)))) {
                    tried++;
                    if (!WORDS.categoriesIn(variant).contains(e.getKey())) missed.add(variant);
                }
            }
        }
        assertTrue(tried > 3000, "tried " + tried);
        assertEquals(List.of(), missed, missed.size() + " of " + tried + " look-alikes did not gate");
    }

    /** The word in full-width letters (U+FF21…), which NFKC folds. */
    private static String fullWidth(String w) {
        StringBuilder sb = new StringBuilder();
        for (char c : w.toCharArray()) sb.appendCodePoint(c - 'a' + (Character.isUpperCase(c) ? 0xFF21 - 'A' + 'a' : 0xFF41));
        return sb.toString();
    }

    /** The word in mathematical bold letters (U+1D400…), which NFKC folds. */
    private static String mathBold(String w) {
        StringBuilder sb = new StringBuilder();
        for (char c : w.toCharArray()) sb.appendCodePoint(Character.isUpperCase(c) ? 0x1D400 + c - 'A' : 0x1D41A + c - 'a');
        return sb.toString();
    }

    @Test
    void theHandMadeLookAlikesOfTheOldMapStillGate() {
        for (String label : List.of("Ѕеnd", "Sеnd", "Pаy", "Dеlеtе", "ＳＥＮＤ", "𝐒𝐞𝐧𝐝", "𝓢𝓮𝓷𝓭", "Ꮪend", "ꓢend", "Sеոd",
                "lnstall", "1nstall", "INSTALL", "ınstall", "Subrnit", "Rernove", "Se\u200Bnd", "S\u00ADend", "\uFEFFSend",
                "Lo\u0308schen", "LÖSCHEN", "Überweisen")) {
            assertTrue(!WORDS.categoriesIn(label).isEmpty(), label);
        }
    }

    @Test
    void everyInstalledTranslationGates() {
        Map<String, String> firstCategory = new TreeMap<>();
        new TreeMap<>(ConsequentialWords.BUILTIN).forEach((c, ws) -> ws.forEach(w -> firstCategory.putIfAbsent(Labels.entry(w), c)));
        int n = 0;
        List<String> missed = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : new TreeMap<>(ConsequentialWords.INSTALLED_TRANSLATIONS).entrySet()) {
            for (String t : e.getValue()) {
                n++;
                // A word of two categories belongs to the first that lists it, the built-in list first.
                firstCategory.putIfAbsent(Labels.entry(t), e.getKey());
                String expected = firstCategory.get(Labels.entry(t));
                for (String shown : List.of(t, t.toUpperCase(Locale.ROOT), "_" + t, t + "…")) {
                    if (!WORDS.categoriesIn(shown).contains(expected)) missed.add(shown + " (" + e.getKey() + ")");
                }
            }
        }
        assertTrue(n > 500, "the generated list holds " + n + " translations");
        assertTrue(ConsequentialWords.INSTALLED_TRANSLATIONS.keySet().containsAll(Set.of("delete", "paste", "submit", "confirm", "allow")),
                "" + ConsequentialWords.INSTALLED_TRANSLATIONS.keySet());
        assertEquals(List.of(), missed);
        // A few read by eye: scripts and languages the hand-made map never had.
        for (String label : List.of("削除", "删除", "삭제", "Удалить", "Видалити", "Usuń", "Sil", "Hapus", "Xóa", "احذف", "הסרה",
                "Διαγραφή", "ลบ", "Вставить", "貼り付け", "Potwierdź", "Onayla", "Signieren")) {
            assertTrue(!WORDS.categoriesIn(label).isEmpty(), label);
        }
    }

    @Test
    void wordFormsGateAtTheWordsStart() {
        Map<String, String> gate = Map.ofEntries(Map.entry("Sending", "send"), Map.entry("Resend", "send"),
                Map.entry("Resend code", "send"), Map.entry("Send now", "send"), Map.entry("SEND", "send"),
                Map.entry("Sends", "send"), Map.entry("RESENDING", "send"), Map.entry("Ｒｅｓｅｎｄ", "send"),
                Map.entry("Rеsеnd", "send"), Map.entry("Deleting", "delete"), Map.entry("Deletes", "delete"),
                Map.entry("Submitting", "submit"), Map.entry("Resubmit", "submit"), Map.entry("Uninstall", "install"),
                Map.entry("Reinstall", "install"), Map.entry("Republishing", "publish"), Map.entry("Erasing", "delete"),
                Map.entry("Transferring", "pay"), Map.entry("Pasting", "paste"), Map.entry("Pay now", "pay"),
                Map.entry("PayNow", "pay"), Map.entry("Buy", "buy"), Map.entry("Always allow", "allow"));
        gate.forEach((label, category) -> assertTrue(WORDS.categoriesIn(label).contains(category), label + " → " + category));
    }

    @Test
    void wordsThatOnlyContainOrExtendAListWordDoNotGate() {
        // Display holds "pay" inside the word; Sender (a field or column) goes on past an inflection;
        // Deleted Items and Signed are states, not actions; pay and buy are too short for affixes.
        for (String label : List.of("Display", "Sender", "Sender name", "Deleted Items", "Signed", "Signal", "Postpone",
                "Paying guest", "Buyer", "Pays", "Undo", "Redo", "Cancel", "Close", "Open", "Spray", "Repayment", "Resent",
                "Disposal", "Payload", "Ordinal", "Settings", "Overview", "Bo", "B0")) {
            assertEquals(Set.of(), WORDS.categoriesIn(label), label);
        }
    }

    @Test
    void theNormalFormIsOneForWhatLooksTheSame() {
        assertEquals(Labels.words("Send"), Labels.words("Ѕеnd"));
        assertEquals(Labels.words("install"), Labels.words("INSTALL"));
        assertEquals(Labels.words("install"), Labels.words("lnstall"));
        assertEquals(Labels.words("modern"), Labels.words("rnodern"));
        assertEquals(List.of(Labels.entry("发送"), Labels.entry("邮件")), Labels.words("发送邮件"));
        assertTrue(!Labels.words("Bỏ").equals(Labels.words("Bo")), "diacritics are kept, as the skeleton keeps them");
        assertEquals(new TreeSet<>(List.of("send")), new TreeSet<>(WORDS.categoriesIn("S e n d")));
    }
}

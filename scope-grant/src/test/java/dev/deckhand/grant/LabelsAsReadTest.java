package dev.deckhand.grant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.lang.UScript;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.SpoofChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Labels compared as a person reads them ({@link Labels}, {@link ConsequentialWords}): look-alikes
 * generated from ICU's confusables data, letter forms generated from ICU's character names, labels in
 * display order (bidirectional controls), decoration marks generated from Unicode's mark data, the
 * installed translations, English word forms, and the words that must not gate.
 */
@Tag("pure")
class LabelsAsReadTest {

    private static final ConsequentialWords WORDS = ConsequentialWords.defaults();

    /** The English words of the built-in list (the ones its own comment lists first), category → words. */
    private static final Map<String, List<String>> ENGLISH = Map.of(
            "send",
            List.of("send"),
            "buy",
            List.of("buy", "purchase", "checkout"),
            "pay",
            List.of("pay", "transfer"),
            "delete",
            List.of("delete", "remove", "discard", "erase", "trash", "destroy", "wipe"),
            "publish",
            List.of("publish", "post", "tweet"),
            "confirm",
            List.of("confirm", "sign"),
            "submit",
            List.of("submit"),
            "install",
            List.of("install"),
            "allow",
            List.of("allow", "permit", "authorize"),
            "paste",
            List.of("paste"));

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
        assertTrue(
                alikes.get('e').size() > 10 && alikes.get('S').size() > 5,
                "ICU's confusables hold many look-alikes: " + alikes.get('e'));
        List<String> missed = new ArrayList<>();
        int tried = 0;
        for (Map.Entry<String, List<String>> e : ENGLISH.entrySet()) {
            for (String word : e.getValue()) {
                for (String cased : List.of(
                        word,
                        word.toUpperCase(Locale.ROOT),
                        word.substring(0, 1).toUpperCase(Locale.ROOT) + word.substring(1))) {
                    for (int i = 0; i < cased.length(); i++) {
                        for (int cp : alikes.getOrDefault(cased.charAt(i), List.of())) {
                            String variant =
                                    cased.substring(0, i) + new String(Character.toChars(cp)) + cased.substring(i + 1);
                            tried++;
                            if (!WORDS.categoriesIn(variant).contains(e.getKey()))
                                missed.add(variant + " (U+" + Integer.toHexString(cp) + ")");
                        }
                    }
                }
                // Every letter swapped at once, each for its first look-alike, and whole alphabets.
                StringBuilder all = new StringBuilder();
                for (char c : word.toCharArray()) {
                    List<Integer> a = alikes.get(c);
                    all.appendCodePoint(a == null ? c : a.get(0));
                }
                for (String variant : List.of(
                        all.toString(), fullWidth(word), mathBold(word), mathBold(word.toUpperCase(Locale.ROOT)))) {
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
        for (char c : w.toCharArray())
            sb.appendCodePoint(c - 'a' + (Character.isUpperCase(c) ? 0xFF21 - 'A' + 'a' : 0xFF41));
        return sb.toString();
    }

    /** The word in mathematical bold letters (U+1D400…), which NFKC folds. */
    private static String mathBold(String w) {
        StringBuilder sb = new StringBuilder();
        for (char c : w.toCharArray())
            sb.appendCodePoint(Character.isUpperCase(c) ? 0x1D400 + c - 'A' : 0x1D41A + c - 'a');
        return sb.toString();
    }

    @Test
    void theHandMadeLookAlikesOfTheOldMapStillGate() {
        for (String label : List.of(
                "Ѕеnd",
                "Sеnd",
                "Pаy",
                "Dеlеtе",
                "ＳＥＮＤ",
                "𝐒𝐞𝐧𝐝",
                "𝓢𝓮𝓷𝓭",
                "Ꮪend",
                "ꓢend",
                "Sеոd",
                "lnstall",
                "1nstall",
                "INSTALL",
                "ınstall",
                "Subrnit",
                "Rernove",
                "Se\u200Bnd",
                "S\u00ADend",
                "\uFEFFSend",
                "Lo\u0308schen",
                "LÖSCHEN",
                "Überweisen")) {
            assertTrue(!WORDS.categoriesIn(label).isEmpty(), label);
        }
    }

    @Test
    void everyInstalledTranslationGates() {
        Map<String, String> firstCategory = new TreeMap<>();
        new TreeMap<>(ConsequentialWords.BUILTIN)
                .forEach((c, ws) -> ws.forEach(w -> firstCategory.putIfAbsent(Labels.entry(w), c)));
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
        assertTrue(
                ConsequentialWords.INSTALLED_TRANSLATIONS
                        .keySet()
                        .containsAll(Set.of("delete", "paste", "submit", "confirm", "allow")),
                "" + ConsequentialWords.INSTALLED_TRANSLATIONS.keySet());
        assertEquals(List.of(), missed);
        // A few read by eye: scripts and languages the hand-made map never had.
        for (String label : List.of(
                "削除",
                "删除",
                "삭제",
                "Удалить",
                "Видалити",
                "Usuń",
                "Sil",
                "Hapus",
                "Xóa",
                "احذف",
                "הסרה",
                "Διαγραφή",
                "ลบ",
                "Вставить",
                "貼り付け",
                "Potwierdź",
                "Onayla",
                "Signieren")) {
            assertTrue(!WORDS.categoriesIn(label).isEmpty(), label);
        }
    }

    @Test
    void wordFormsGateAtTheWordsStart() {
        Map<String, String> gate = Map.ofEntries(
                Map.entry("Sending", "send"),
                Map.entry("Resend", "send"),
                Map.entry("Resend code", "send"),
                Map.entry("Send now", "send"),
                Map.entry("SEND", "send"),
                Map.entry("Sends", "send"),
                Map.entry("RESENDING", "send"),
                Map.entry("Ｒｅｓｅｎｄ", "send"),
                Map.entry("Rеsеnd", "send"),
                Map.entry("Deleting", "delete"),
                Map.entry("Deletes", "delete"),
                Map.entry("Submitting", "submit"),
                Map.entry("Resubmit", "submit"),
                Map.entry("Uninstall", "install"),
                Map.entry("Reinstall", "install"),
                Map.entry("Republishing", "publish"),
                Map.entry("Erasing", "delete"),
                Map.entry("Transferring", "pay"),
                Map.entry("Pasting", "paste"),
                Map.entry("Pay now", "pay"),
                Map.entry("PayNow", "pay"),
                Map.entry("Buy", "buy"),
                Map.entry("Always allow", "allow"));
        gate.forEach((label, category) ->
                assertTrue(WORDS.categoriesIn(label).contains(category), label + " → " + category));
    }

    /** Round 4's L1: a list word glued to letters, a digit or a connector was not read as the word. */
    @Test
    void aListWordGluedToMoreLettersDigitsOrAConnectorGates() {
        Map<String, String> gate = Map.ofEntries(
                Map.entry("Sendnow", "send"),
                Map.entry("SENDNOW", "send"),
                Map.entry("Send2", "send"),
                Map.entry("1Delete", "delete"),
                Map.entry("Send_now", "send"),
                Map.entry("Send__now", "send"),
                Map.entry("Deleteall", "delete"),
                Map.entry("Submit1", "submit"),
                Map.entry("Install2", "install"),
                Map.entry("Delete3x", "delete"),
                Map.entry("PAY2", "pay"),
                Map.entry("Sendit", "send"),
                Map.entry("Sendmail", "send"),
                Map.entry("Sender", "send"),
                Map.entry("Resendnow", "send"),
                Map.entry("De1ete", "delete"),
                Map.entry("Send:all", "send"),
                Map.entry("Delete.all", "delete"),
                Map.entry("Pay·now", "pay"),
                Map.entry("SENDnow", "send"),
                Map.entry("Deleteᵃˡˡ", "delete"),
                Map.entry("Remove1", "delete"),
                Map.entry("Paste2", "paste"));
        gate.forEach((label, category) ->
                assertTrue(WORDS.categoriesIn(label).contains(category), label + " → " + category));
    }

    /**
     * Round 5: a list word glued after other letters (not at the word's start), which the start-only rule let
     * through: a list word of three letters or more that ends a word gates. The controls end in no list word.
     * (Selfdestruct, also pressed, holds no list word: words the list lacks stay open, docs/security.md L2.)
     */
    @Test
    void aListWordThatEndsAWordAfterOtherLettersGates() {
        for (String label : List.of(
                "Prepay",
                "Autopay",
                "Crosspost",
                "Presend",
                "Autodelete",
                "Forcedelete",
                "Bulksend",
                "Quickbuy",
                "Autoinstall",
                "Preorder",
                "Multiupload")) {
            assertFalse(WORDS.categoriesIn(label).isEmpty(), label + " gates");
        }
        assertTrue(WORDS.categoriesIn("Autodelete").contains("delete"));
        assertTrue(WORDS.categoriesIn("Quickbuy").contains("buy"));
        assertTrue(WORDS.categoriesIn("Bulksend").contains("send"));
        for (String label : List.of("Display", "Append", "Legend", "Extend", "Overlay", "Spend", "Ascend")) {
            assertEquals(Set.of(), WORDS.categoriesIn(label), label + " names nothing gated");
        }
    }

    /** Round 4's L5: a symbol between letters that reads as a letter, which no confusables table maps. */
    @Test
    void aSymbolBetweenLettersIsReadAsAnyLetter() {
        Map<String, String> gate = Map.ofEntries(
                Map.entry("S℮nd", "send"),
                Map.entry("S∊nd", "send"),
                Map.entry("Se∩d", "send"),
                Map.entry("Dеl℮te", "delete"),
                Map.entry("P¤y now", "pay"),
                Map.entry("Ins†all", "install"),
                // round 5: at a word's start or end, and a run of symbols as one letter
                Map.entry("$end", "send"),
                Map.entry("Sen₫", "send"),
                Map.entry("Delet€", "delete"),
                Map.entry("₱ay", "pay"),
                Map.entry("Se||d", "send"));
        gate.forEach((label, category) ->
                assertTrue(WORDS.categoriesIn(label).contains(category), label + " → " + category));
        for (String label : List.of("x² + y²", "√x", "1/x", "C#", "A → B", "Open ▸", "© 2026", "e^x")) {
            assertEquals(Set.of(), WORDS.categoriesIn(label), label);
        }
    }

    /**
     * Rounds 5 (L2b) and 6 (L1): words a person reads as a list word that no look-alike table maps — letters of four
     * scripts spelling "SEND", letters no language writes today drawn as Latin ones, more symbols than letters read
     * as gaps. Such a word gates whatever it spells, as {@code unreadable}; words of one script each, the mixes
     * languages write, letters with diacritics, addresses and chords do not.
     */
    @Test
    void aWordDeckhandCannotReadGatesWhateverItSpells() {
        for (String label : List.of(
                "ՏԑΝᗪ",
                "ՏԑΝᗪ now",
                "Sеnd",
                "Ρay",
                "Ok\u200Bаy",
                "ᏚᎬᏁᎠ",
                "Suƅmit",
                "Ƨend",
                "Ꞩend",
                "Ꝑay",
                "D€l€t€",
                "$€n₫",
                "In$t@|l",
                "C++/C#",
                // round 7: Han and kana between Latin letters
                "Subm丨t",
                "Remロve",
                "SUBM工T",
                "Lロgout",
                "Publ丨sh")) {
            // unreadable, or read as its list word through the gaps (three symbols or fewer)
            assertFalse(WORDS.categoriesIn(label).isEmpty(), label);
        }
        for (String label : List.of(
                "Русский (Russian)",
                "Ελληνικά/Greek",
                "日本語の設定",
                "ファイルを開くOpen",
                "한국어 漢字",
                "Save as PDF…",
                "Ångström",
                "Bỏ qua",
                "Ŝend",
                "Șterge",
                "user@mail.example.com",
                "Ctrl+Shift+Alt+T",
                "Eメール",
                "Tシャツ",
                "PDFファイル",
                "Drag-and-drop",
                "x² + y²",
                "e^x",
                "Wi-Fi",
                "Ⅻ")) {
            assertFalse(Labels.unreadable(label), label);
        }
    }

    /** More symbols than {@link Labels#MAX_GAPS} at a word's letters, a third of them or more: unreadable. */
    @Test
    void moreSymbolsThanTheGapsReadAreUnreadable() {
        for (String label : List.of("D€l€t€€", "$€n₫₫", "C++/C#", "ՏԑΝᗪ", "Suƅmit", "Subm丨t"))
            assertTrue(WORDS.categoriesIn(label).contains(ConsequentialWords.UNREADABLE), label);
    }

    /**
     * Round 8 (L8, LW): a lone digit or a lone Han letter next to Latin letters, read as any letter as a symbol is,
     * wherever it stands in the word; and the plain words a reviewer's buttons got through with. Numbers, words of
     * Han or kana beside Latin ones, and lone ones that mean themselves do not gate.
     */
    @Test
    void aLoneDigitOrHanLetterBesideLatinLettersIsReadAsAnyLetter() {
        Map<String, String> gate = Map.ofEntries(
                Map.entry("匚onfirm", "confirm"),
                Map.entry("丁ransfer", "pay"),
                Map.entry("丨nstall", "install"),
                Map.entry("凵pload", "publish"),
                Map.entry("丨nvite", "send"),
                Map.entry("Instal丨", "install"),
                Map.entry("Remov工", "delete"),
                Map.entry("Logou十", "logout"),
                Map.entry("5end", "send"),
                Map.entry("Purch4se", "buy"),
                Map.entry("P4y", "pay"),
                Map.entry("8uy", "buy"),
                Map.entry("Tran5fer", "pay"),
                Map.entry("Wi7hdraw", "pay"),
                Map.entry("D3lete", "delete"),
                Map.entry("Wip3", "delete"),
                Map.entry("Withdr4w", "pay"),
                Map.entry("Reset settings", "delete"),
                Map.entry("Close account", "delete"),
                Map.entry("Deactivate account", "delete"),
                Map.entry("Leave group", "delete"),
                Map.entry("Empty bin", "delete"),
                Map.entry("Disable 2FA", "delete"),
                Map.entry("Shut down", "logout"),
                Map.entry("Reboot now", "logout"),
                Map.entry("Place bid", "buy"),
                Map.entry("Reserve now", "buy"),
                Map.entry("发送", "send"),
                Map.entry("Zapłać", "pay"),
                Map.entry("Отправить", "send"),
                Map.entry("購入", "buy"),
                Map.entry("Wire funds", "pay"),
                Map.entry("Grant access", "allow"),
                Map.entry("Make public", "publish"),
                Map.entry("Go live", "publish"),
                Map.entry("Ban user", "delete"),
                Map.entry("Turn off backups", "delete"),
                Map.entry("Disable firewall", "allow"),
                Map.entry("Unlock", "allow"));
        gate.forEach((label, category) ->
                assertTrue(WORDS.categoriesIn(label).contains(category), label + " → " + category));
        for (String label : List.of(
                "1080p", "H264", "MP3", "IPv6", "x86", "Top 10", "Win10", "PC版", "iPhone用", "Bluetooth設定", "USBメモリ")) {
            assertEquals(Set.of(), WORDS.categoriesIn(label), label);
        }
    }

    /** Round 6 (L1): two symbols side by side may each stand for a letter ({@code P@¥} is "Pay"), or together for one. */
    @Test
    void aRunOfSymbolsIsReadAsOneLetterAndAsOneEach() {
        assertTrue(WORDS.categoriesIn("P@¥").contains("pay"), "P@¥");
        assertTrue(WORDS.categoriesIn("Se||d").contains("send"), "Se||d");
        assertTrue(WORDS.categoriesIn("De//ete").contains("delete"), "De//ete");
        assertTrue(WORDS.categoriesIn("Se∩∂").contains("send"), "Se∩∂");
        assertTrue(WORDS.categoriesIn("Del€+e").contains("delete"), "Del€+e");
        assertTrue(WORDS.categoriesIn("Purch@$e").contains("buy"), "Purch@$e");
        // round 7: three symbols in a longer word
        assertTrue(WORDS.categoriesIn("D€l€t€forever").contains("delete"), "D€l€t€forever");
        assertTrue(WORDS.categoriesIn("$€n₫tothemall").contains("send"), "$€n₫tothemall");
        assertTrue(WORDS.categoriesIn("Ｄ€l€t€everything").contains("delete"), "Ｄ€l€t€everything");
        // a dialog's text that holds an unreadable word gates its OK as a gated word does
        assertTrue(!WORDS.categoriesIn("D€l€t€ all 3 files permanently?").isEmpty());
    }

    @Test
    void wordsThatOnlyContainOrExtendAListWordDoNotGate() {
        // Display holds "pay" inside the word; Deleted Items, Submitted and Signed are states, not actions; pay and
        // buy are too short for affixes (but end a word after other letters: Repay, Prepay gate). (A word that goes on
        // past a list word of four letters or more gates, as
        // Sendnow does: Sender, Signal, Postpone and Ordinal (Italian ordina) are false positives it costs,
        // docs/security.md.)
        for (String label : List.of(
                "Display",
                "Deleted Items",
                "Submitted",
                "Installed",
                "Signed",
                "Paying guest",
                "Buyer",
                "Pays",
                "Undo",
                "Redo",
                "Cancel",
                "Close",
                "Open",
                "Spray",
                "Resent",
                "Disposal",
                "Payload",
                "Settings",
                "Overview",
                "Bo",
                "B0")) {
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
    /** Every list word of {@link #ENGLISH}, as written, capitalised and in upper case. */
    private static List<String[]> casedWords() {
        List<String[]> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : new TreeMap<>(ENGLISH).entrySet()) {
            for (String word : e.getValue()) {
                for (String cased : List.of(
                        word,
                        word.substring(0, 1).toUpperCase(Locale.ROOT) + word.substring(1),
                        word.toUpperCase(Locale.ROOT))) {
                    out.add(new String[] {cased, e.getKey()});
                }
            }
        }
        return out;
    }

    private static String reversed(String s) {
        return new StringBuilder(s).reverse().toString();
    }

    /**
     * A right-to-left override shows its letters in reverse: {@code \u202EdneS\u202C} displays "Send". Every list
     * word, reversed, under every way to override the direction (RLO with and without its PDF, inside an isolate, in
     * a longer label, in a right-to-left paragraph), gates; the same reversed letters without an override show as
     * they are stored and do not, and an isolate alone reverses no Latin letters.
     */
    @Test
    void labelsAreReadInTheOrderTheyAreShown() {
        List<String> missed = new ArrayList<>();
        int tried = 0;
        for (String[] wc : casedWords()) {
            String r = reversed(wc[0]);
            for (String label : List.of(
                    "\u202E" + r + "\u202C",
                    "\u202E" + r,
                    "\u2067\u202E" + r + "\u202C\u2069",
                    "\u2068\u202E" + r + "\u202C\u2069",
                    "Please \u202E" + r + "\u202C now",
                    "\u202B\u202E" + r + "\u202C\u202C",
                    "\u05E9\u05DC\u05D5\u05DD \u202E" + r + "\u202C",
                    "\u202Ewon " + r + "\u202C")) {
                tried++;
                if (!WORDS.categoriesIn(label).contains(wc[1])) missed.add(label + " (" + wc[0] + ")");
            }
        }
        assertTrue(tried > 400, "tried " + tried);
        assertEquals(List.of(), missed, missed.size() + " of " + tried + " overridden labels did not gate");
        System.out.println("display order: " + tried + " overridden labels gate");
        // What is stored reversed without an override is shown reversed: not the word.
        assertEquals(Set.of(), WORDS.categoriesIn("dneS"));
        assertEquals(Set.of(), WORDS.categoriesIn("\u2067dneS\u2069"), "an isolate keeps Latin letters in their order");
        // Two words under one override: the visual order is "Pay now".
        assertEquals(Set.of("pay"), WORDS.categoriesIn("\u202Ewon yaP\u202C"));
        assertTrue(Labels.orders("\u202EdneS\u202C").contains("Send"), "" + Labels.orders("\u202EdneS\u202C"));
        assertEquals(List.of("Send"), Labels.orders("Send"), "a label without right-to-left text is read once");
        // Right-to-left words of the list still gate as written.
        assertEquals(Set.of("delete"), WORDS.categoriesIn("\u0627\u062D\u0630\u0641"));
    }

    /**
     * Combining marks that are not part of a letter are decoration: every non-spacing and enclosing mark of the
     * Inherited or Common script (a low line, an overline, an enclosing circle, …) that does not compose with the
     * letter it follows into a precomposed letter (NFC), after every letter of every list word, still gates; so does
     * a mark of another script (Thai, Devanagari, Hebrew, Arabic) on a Latin letter. A mark that composes stays part
     * of its letter: {@code Bỏ} is not {@code Bo}, and a script's own vowel sign stays part of its word.
     */
    @Test
    void marksThatAreNotPartOfALetterAreDropped() {
        Normalizer2 nfc = Normalizer2.getNFCInstance();
        List<Integer> inherited = new ArrayList<>();
        List<Integer> otherScripts = new ArrayList<>();
        for (int cp = 0x300; cp <= 0x1FFFF; cp++) {
            int type = UCharacter.getType(cp);
            if (type != UCharacterCategory.NON_SPACING_MARK && type != UCharacterCategory.ENCLOSING_MARK) continue;
            int script = UScript.getScript(cp);
            if (script == UScript.INHERITED || script == UScript.COMMON) inherited.add(cp);
            else if (script == UScript.THAI
                    || script == UScript.DEVANAGARI
                    || script == UScript.HEBREW
                    || script == UScript.ARABIC) otherScripts.add(cp);
        }
        assertTrue(inherited.size() > 300 && otherScripts.size() > 50, inherited.size() + " " + otherScripts.size());
        List<String> missed = new ArrayList<>();
        int tried = 0;
        int composed = 0;
        for (String word :
                List.of("Send", "Delete", "Pay", "Submit", "Install", "Allow", "Paste", "Publish", "Buy", "Confirm")) {
            String category = WORDS.categoriesIn(word).iterator().next();
            for (int i = 1; i <= word.length(); i++) {
                String before = word.substring(0, i);
                for (List<Integer> marks : List.of(inherited, otherScripts)) {
                    for (int mark : marks) {
                        String label = before + new String(Character.toChars(mark)) + word.substring(i);
                        if (!nfc.normalize(label).codePoints().anyMatch(c -> c == mark)) {
                            composed++; // composes into a precomposed letter: a letter of its own, checked below
                            continue;
                        }
                        tried++;
                        if (!WORDS.categoriesIn(label).contains(category)) {
                            missed.add(label + " (U+" + Integer.toHexString(mark) + ")");
                        }
                    }
                }
            }
        }
        assertTrue(tried > 20_000 && composed > 50, "tried " + tried + ", composed " + composed);
        System.out.println("decoration: " + inherited.size() + " Inherited/Common marks, " + otherScripts.size()
                + " of four other scripts; " + tried + " decorated labels, " + composed + " composed");
        assertEquals(
                List.of(),
                missed.subList(0, Math.min(20, missed.size())),
                missed.size() + " of " + tried + " decorated labels did not gate");
        // A mark that composes is part of a letter: the word is another word.
        assertTrue(!Labels.words("Bo\u0309").equals(Labels.words("Bo")), "Bỏ is not Bo");
        assertEquals(Labels.words("B\u1ECF"), Labels.words("Bo\u0309"), "composed or not, ỏ is one letter");
        assertEquals(
                Set.of(), WORDS.categoriesIn("Se\u0301nd"), "é is a letter of its own (the docs: diacritics stay)");
        // A script's own mark is spelling: the Devanagari word keeps its vowel sign.
        assertTrue(
                !Labels.words("\u0939\u091F\u093E\u090F\u0901").equals(Labels.words("\u0939\u091F\u090F")),
                "Devanagari vowel signs stay");
        assertEquals(Labels.words("Send"), Labels.words("Sen\u0332d"));
        assertEquals(Labels.words("Send"), Labels.words("S\u20DDend"));
    }

    /** What a character's Unicode name says it is a form of: the letter after the words that only say how it is drawn. */
    private static final Pattern FORM_NAME =
            Pattern.compile("(?:LATIN LETTER SMALL CAPITAL|MODIFIER LETTER(?: SMALL| CAPITAL)*"
                    + "|LATIN SUBSCRIPT SMALL LETTER|FULLWIDTH LATIN (?:SMALL|CAPITAL) LETTER|(?:NEGATIVE )?(?:CIRCLED|SQUARED) LATIN"
                    + " (?:SMALL |CAPITAL )?LETTER|PARENTHESIZED LATIN (?:SMALL|CAPITAL) LETTER|REGIONAL INDICATOR SYMBOL LETTER"
                    + "|LATIN LETTER SMALL CAPITAL) ([A-Z])");

    /**
     * Letter forms neither NFKC nor the confusables data map — measured here: the small capitals, modifier and
     * subscript letters, negative circled and squared letters, regional indicators whose skeleton is not an ASCII
     * letter — are read as the letter their Unicode name says. Every such form found in ICU's names, at every
     * position of every list word, gates, and reads as the plain word; a name that says the letter is turned or
     * reversed names another letter.
     */
    @Test
    void letterFormsAreReadByTheirUnicodeName() {
        SpoofChecker spoof = new SpoofChecker.Builder().build();
        Map<Integer, Character> forms = new TreeMap<>();
        int unmappedBefore = 0;
        for (int cp = 0x80; cp <= 0x1FFFF; cp++) {
            String name = UCharacter.getName(cp);
            if (name == null) continue;
            Matcher m = FORM_NAME.matcher(name);
            if (!m.matches()) continue;
            forms.put(cp, Character.toLowerCase(m.group(1).charAt(0)));
            String k = spoof.getSkeleton(UCharacter.foldCase(
                    Normalizer2.getNFKCInstance().normalize(new String(Character.toChars(cp))), true));
            if (!k.equals(spoof.getSkeleton(m.group(1).toLowerCase(Locale.ROOT)))) unmappedBefore++;
        }
        // measured: the forms the skeleton and NFKC leave as other letters
        assertTrue(
                forms.size() > 250 && unmappedBefore > 100,
                forms.size() + " forms, " + unmappedBefore + " unmapped by NFKC and skeleton");
        assertEquals(
                Set.of(),
                new TreeSet<>(forms.keySet())
                        .stream()
                                .filter(cp -> Labels.letterForm(cp) < 0
                                        || Character.toLowerCase(Labels.letterForm(cp)) != forms.get(cp))
                                .map(Integer::toHexString)
                                .collect(java.util.stream.Collectors.toCollection(TreeSet::new)),
                "every form named so maps to its letter");
        Map<Character, List<Integer>> byLetter = new TreeMap<>();
        forms.forEach(
                (cp, c) -> byLetter.computeIfAbsent(c, k -> new ArrayList<>()).add(cp));
        List<String> missed = new ArrayList<>();
        int tried = 0;
        for (Map.Entry<String, List<String>> e : new TreeMap<>(ENGLISH).entrySet()) {
            for (String word : e.getValue()) {
                for (int i = 0; i < word.length(); i++) {
                    for (int cp : byLetter.getOrDefault(word.charAt(i), List.of())) {
                        String label = word.substring(0, i) + new String(Character.toChars(cp)) + word.substring(i + 1);
                        tried++;
                        if (!WORDS.categoriesIn(label).contains(e.getKey()))
                            missed.add(label + " (U+" + Integer.toHexString(cp) + ")");
                    }
                }
                StringBuilder all = new StringBuilder();
                for (char c : word.toCharArray())
                    all.appendCodePoint(byLetter.get(c).get(0));
                tried++;
                if (!WORDS.categoriesIn(all.toString()).contains(e.getKey())) missed.add(all.toString());
            }
        }
        assertTrue(tried > 2000, "tried " + tried);
        assertEquals(List.of(), missed, missed.size() + " of " + tried + " letter forms did not gate");
        System.out.println(
                "letter forms: " + forms.size() + " named, " + unmappedBefore + " not mapped by NFKC and the skeleton, "
                        + Labels.LetterForms.all().size() + " in all; " + tried + " labels");
        assertEquals(Labels.words("SEND"), Labels.words("\uA731\u1D07\u0274\u1D05"));
        assertEquals(Labels.words("PAY"), Labels.words("\u1D18\u1D00\u028F"));
        assertEquals(Labels.words("Send"), Labels.words("\uD83C\uDD82\uD83C\uDD74\uD83C\uDD7D\uD83C\uDD73"));
        assertEquals(-1, Labels.LetterForms.fromName("LATIN SMALL LETTER TURNED A"));
        assertEquals(-1, Labels.LetterForms.fromName("LATIN LETTER SMALL CAPITAL REVERSED N"));
        assertEquals('S', Labels.LetterForms.fromName("NEGATIVE SQUARED LATIN CAPITAL LETTER S"));
        assertEquals('s', Labels.LetterForms.fromName("LATIN LETTER SMALL CAPITAL S"));
        assertEquals(Labels.LetterForms.all().keySet().containsAll(forms.keySet()), true);
    }
}

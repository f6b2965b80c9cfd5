package dev.deckhand.grant;

import static dev.deckhand.grant.Fixtures.REV;
import static dev.deckhand.grant.Fixtures.TARGET;
import static dev.deckhand.grant.Fixtures.auto;
import static dev.deckhand.grant.Fixtures.autonomous;
import static dev.deckhand.grant.Fixtures.click;
import static dev.deckhand.grant.Fixtures.grant;
import static dev.deckhand.grant.Fixtures.quiet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The walk-arounds of docs/security.md#input-boundary against the consequential gate, each refused; and what stays allowed. */
@Tag("pure")
class ConsequentialByEffectTest {

    static final ProposedAction.Element OK = new ProposedAction.Element("push button", "OK", false, false, false);
    static final ProposedAction.Element CHECK =
            new ProposedAction.Element("check box", "Also remove files", false, false, false);
    static final ProposedAction.Element ENTRY = new ProposedAction.Element("text", "Name", false, false, true);
    static final ProposedAction.WindowContext DELETE_DIALOG =
            new ProposedAction.WindowContext(true, "Delete 3 files? This cannot be undone.", Optional.empty());

    private static void refused(ProposedAction a, String... inDetail) {
        refused(auto(), a, inDetail);
    }

    private static void refused(PolicyConfig config, ProposedAction a, String... inDetail) {
        PolicyDecision d = Policy.check(config, autonomous(), quiet(), a);
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                d.refusal().map(Refusal::code).orElse(null),
                a + " → " + d);
        for (String s : inDetail)
            assertTrue(d.refusal().get().detail().contains(s), d.refusal().get().detail());
    }

    /** A click_at on {@code el} with a fresh basis is refused as unidentified. */
    private static void clickAtRefused(ProposedAction.Element el) {
        PolicyDecision d = Policy.check(
                auto(),
                autonomous(),
                quiet().withMeasuredBasis(Optional.of(Fixtures.basis())),
                ProposedAction.clickAt(REV, TARGET, Fixtures.basis(), el));
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                d.refusal().map(Refusal::code).orElse(null),
                el + " → " + d);
        assertTrue(
                d.refusal().get().detail().contains(Consequential.UNIDENTIFIED),
                d.refusal().get().detail());
    }

    private static void allowed(ProposedAction a) {
        PolicyDecision d = Policy.check(auto(), autonomous(), quiet(), a);
        assertTrue(d.allowed(), a + " → " + d);
    }

    private static ProposedAction.Element button(String name) {
        return new ProposedAction.Element("push button", name, false, false, false);
    }

    @Test
    void labelsInSevenLanguagesAndTheWordsOfTheIssue() {
        for (String label : List.of(
                "OK, Remove",
                "Remove",
                "Discard",
                "Post",
                "Purchase",
                "Erase",
                "Trash",
                "Order now",
                "Checkout",
                "Transfer",
                "Sign",
                "Löschen",
                "Endgültig löschen",
                "Supprimer",
                "Effacer",
                "Envoyer",
                "Eliminar",
                "Borrar",
                "Enviar",
                "Elimina",
                "Invia",
                "Excluir",
                "Apagar",
                "Verwijderen",
                "Verzenden",
                "Bezahlen",
                "Payer",
                "Pagar",
                "Kaufen",
                "Acheter",
                "Comprar",
                "Bestellen",
                "Installieren",
                "Erlauben",
                "Veröffentlichen",
                "Publicar",
                "Bestätigen",
                "Absenden",
                "Einfügen",
                "Coller")) {
            refused(click(button(label)), "push button (name of " + label.length() + " characters)");
            assertFalse(
                    Policy.check(auto(), autonomous(), quiet(), click(button(label)))
                            .refusal()
                            .orElseThrow()
                            .detail()
                            .contains(label),
                    "the label is the app's text: never quoted");
        }
    }

    /**
     * Round 15, R1/R3/N1: a number set on a page's slider or number input acts as the control does, so it is judged
     * by the control's words as a press of it; text written into an editable field stays data.
     */
    @Test
    void aValueSetOnAConsequentialSliderOrSpinButtonIsJudgedAsPressingIt() {
        for (ProposedAction.Element control : List.of(
                new ProposedAction.Element("slider", "Confirm purchase", false, false, false),
                new ProposedAction.Element("slider", "Pay now", false, false, false),
                new ProposedAction.Element("spin button", "Send payment (1 = yes)", false, false, true),
                // the words as a click's are read: other languages, look-alike letters, case and spacing, other roles
                new ProposedAction.Element("slider", "Bezahlen", false, false, false),
                new ProposedAction.Element("slider", "Раy now" /* Cyrillic Р, а */, false, false, false),
                new ProposedAction.Element("Spin Button", "  DELETE  account ", false, false, true),
                new ProposedAction.Element("scroll bar", "Se​nd", false, false, false),
                new ProposedAction.Element("dial", "Purchase", false, false, false))) {
            refused(ProposedAction.on(ActionKind.SET_TEXT, REV, TARGET, control), "set_text on " + control.role());
        }
        ProposedAction.Element volume = new ProposedAction.Element("slider", "Volume", false, false, false);
        ProposedAction.Element subject = new ProposedAction.Element("text", "Send to", false, false, true);
        for (ProposedAction.Element allowed : List.of(volume, subject)) {
            assertTrue(
                    Policy.check(
                                    auto(),
                                    autonomous(),
                                    quiet(),
                                    ProposedAction.on(ActionKind.SET_TEXT, REV, TARGET, allowed))
                            .refusal()
                            .isEmpty(),
                    allowed.toString());
        }
    }

    /**
     * Round 15, K1: with the person in the granted window, a key or typing on a focused select or slider chose
     * "Delete account" or moved "Pay now" to its end. A value control's keys are judged as pressing it; a combo box's
     * move its choice to an option the tree may not show, so they are unidentified unless its words decide.
     */
    @Test
    void keysAndTypingThatMoveAValueOrAChoiceAreJudgedAsSettingIt() {
        ProposedAction.Element pay = new ProposedAction.Element("slider", "Pay now", false, false, false);
        ProposedAction.Element amount = new ProposedAction.Element("spin button", "Send payment", false, false, true);
        ProposedAction.Element select = new ProposedAction.Element("combo box", "Action", false, false, false);
        for (String key : List.of("Down", "Up", "End", "Home", "Page_Up", "Page_Down", "Left", "Right")) {
            refused(ProposedAction.key(key, REV, TARGET, pay), "changes the value", "pay");
            refused(ProposedAction.key(key, REV, TARGET, amount), "changes the value", "send");
            refused(ProposedAction.key(key, REV, TARGET, select), "moves the choice", Consequential.UNIDENTIFIED);
            refused(ProposedAction.key("shift+" + key, REV, TARGET, select), "moves the choice");
        }
        refused(ProposedAction.type(REV, TARGET, select, "De"), "typing moves the choice", Consequential.UNIDENTIFIED);
        // round 17: a radio group's arrow key, a page's list box by keys and by typing
        ProposedAction.Element keep = new ProposedAction.Element("radio button", "Keep my files", false, false, false);
        ProposedAction.Element list = new ProposedAction.Element("list box", "", false, false, false);
        refused(ProposedAction.key("Down", REV, TARGET, keep), "moves the choice", Consequential.UNIDENTIFIED);
        refused(ProposedAction.key("Down", REV, TARGET, list), "moves the choice", Consequential.UNIDENTIFIED);
        refused(ProposedAction.type(REV, TARGET, list, "D"), "moves the choice", Consequential.UNIDENTIFIED);
        refused(ProposedAction.type(REV, TARGET, pay, "9"), "changes the value", "pay");
        // digits typed into a spin button's own entry set its value, as set_text of them does
        refused(ProposedAction.type(REV, TARGET, amount, "100"), "changes the value", "send");
        // round 17, G3: the person elsewhere, GTK 3 reports no focused element, and the scale under "Pay now…" took
        // the key: with the focus unknown, a key that moves and typing are judged by the dialog's words
        ProposedAction.WindowContext payDialog = new ProposedAction.WindowContext(
                true, "Pay now: slide to 100 to confirm the payment", Optional.empty());
        for (String key : List.of("End", "Page_Up", "Right", "ctrl+End", "shift+Down")) {
            refused(
                    ProposedAction.key(key, REV, TARGET, null).withContext(payDialog),
                    "focused element unknown",
                    "pay");
        }
        // a dialog whose words gate nothing, and no dialog (a ctrl chord with the focus unknown is judged as a
        // terminal's, elsewhere)
        for (String key : List.of("End", "Page_Up", "Right", "shift+Down")) {
            allowed(ProposedAction.key(key, REV, TARGET, null)
                    .withContext(new ProposedAction.WindowContext(true, "Choose a colour", Optional.empty())));
            allowed(ProposedAction.key(key, REV, TARGET, null));
        }
        refused(ProposedAction.type(REV, TARGET, null, "9").withContext(payDialog), "focused element unknown", "pay");
        // a select whose own words are consequential is judged by them
        refused(
                ProposedAction.key(
                        "Down", REV, TARGET, new ProposedAction.Element("combo box", "Delete", false, false, false)),
                "delete");
        // a neutral slider, a combo box's own text entry, a text field: the keys stay data or cursor moves
        ProposedAction.Element volume = new ProposedAction.Element("slider", "Volume", false, false, false);
        ProposedAction.Element editableCombo = new ProposedAction.Element("combo box", "Font", false, false, true);
        for (String key : List.of("Down", "End", "Page_Up")) {
            allowed(ProposedAction.key(key, REV, TARGET, volume));
        }
        allowed(ProposedAction.key("End", REV, TARGET, ENTRY));
        allowed(ProposedAction.key("End", REV, TARGET, editableCombo));
        // round 20's D4: ctrl+shift and a letter in a text field may start the input method's Unicode entry; an
        // accelerator of the app stays judged as its item, and on a button it is no text entry
        for (String chord : List.of("ctrl+shift+u", "ctrl+shift+e", "shift+ctrl+q")) {
            refused(
                    ProposedAction.key(chord, REV, TARGET, ENTRY),
                    "Unicode or emoji entry",
                    Consequential.UNIDENTIFIED);
        }
        allowed(ProposedAction.key(
                "ctrl+shift+u", REV, TARGET, new ProposedAction.Element("push button", "Bold", false, false, false)));
        // round 20's B5: up or down in a single-line entry walks the suggestions it offers (Chromium's autofill, a
        // datalist), which the tree does not show; Enter then put the person's stored address into a page's field
        for (String key : List.of("Down", "Up", "Page_Up", "Page_Down")) {
            refused(ProposedAction.key(key, REV, TARGET, ENTRY), "list of suggestions", Consequential.UNIDENTIFIED);
            // V-datalist: a page's <input list> is a combo box that takes text
            refused(
                    ProposedAction.key(key, REV, TARGET, editableCombo),
                    "list of suggestions",
                    Consequential.UNIDENTIFIED);
        }
        // V-area: a focus the tree does not hold (an image map's area) reaches what cannot be read
        ProposedAction.Element area = new ProposedAction.Element("link", "Home area", false, false, false).unplaced();
        refused(ProposedAction.key("Down", REV, TARGET, area), "tree does not hold", Consequential.UNIDENTIFIED);
        allowed(ProposedAction.key("Tab", REV, TARGET, area));
        allowed(ProposedAction.type(REV, TARGET, editableCombo, "Sans"));
        // round 19's T2e: space (or Enter, F4) on a select opens its popup, where Down and Tab then chose; the context
        // menu key opens a menu whose items a letter chooses (N1, N2, T2g)
        for (String key : List.of("space", "Enter", "F4")) {
            refused(ProposedAction.key(key, REV, TARGET, select), "moves the choice", Consequential.UNIDENTIFIED);
        }
        allowed(ProposedAction.key("Tab", REV, TARGET, select));
        for (String key : List.of("Menu", "shift+F10", "shift+Menu")) {
            refused(ProposedAction.key(key, REV, TARGET, ENTRY), "opens the context menu", Consequential.UNIDENTIFIED);
        }
        allowed(ProposedAction.key("F10", REV, TARGET, ENTRY));
        // choosing with select names the option, which is judged by its words
        allowed(ProposedAction.select(REV, TARGET, select, "Archive"));
        refused(ProposedAction.select(REV, TARGET, select, "Delete account"), "delete");
    }

    @Test
    void unicodeTricksAreNormalisedBeforeMatching() {
        for (String label : List.of(
                "Se\u200Bnd",
                "S\u00ADend",
                "\uFEFFSend",
                "Ѕеnd" /* Cyrillic S, e */,
                "Sеnd",
                "ＳＥＮＤ" /* full width */,
                "S e n d",
                "S-e-n-d",
                "_Send",
                "&Send",
                "SendNow",
                "DELETE",
                "Lo\u0308schen" /* combining diaeresis */,
                "Pаy" /* Cyrillic a */,
                "Dеlеtе")) {
            refused(click(button(label)));
        }
        refused(click(button("Resend code")));
        // a list word glued to more letters, a digit or a connector is still the word (round 4's L1)
        for (String label : List.of(
                "Sender",
                "Sendnow",
                "SENDNOW",
                "Send2",
                "1Delete",
                "Send_now",
                "Deleteall",
                "Submit1",
                "Delete3x",
                "Sendmail",
                "De1ete")) {
            refused(click(button(label)));
        }
        allowed(click(button("Deleted Items")));
        allowed(click(button("Undo")));
    }

    @Test
    void everyButtonOfAGatedDialogIsConsequentialAndEnterInItToo() {
        refused(click(OK).withContext(DELETE_DIALOG), "delete");
        refused(click(button("Yes")).withContext(DELETE_DIALOG), "delete");
        refused(ProposedAction.key("Return", REV, TARGET, CHECK).withContext(DELETE_DIALOG), "delete");
        refused(ProposedAction.key("space", REV, TARGET, OK).withContext(DELETE_DIALOG), "delete");
        refused(ProposedAction.key("Return", REV, TARGET, ENTRY).withContext(DELETE_DIALOG), "delete");
        // round 8 (E1): a toolkit clicks a single-line entry by activating it, which is Enter: yad's and zenity's
        // entry dialogs closed with OK on a click on the field
        refused(click(ENTRY).withContext(DELETE_DIALOG), "activates it, as Enter does", "delete");
        refused(
                click(ENTRY).withContext(new ProposedAction.WindowContext(false, "", Optional.of(button("Send")))),
                "default button",
                "send");
        refused(click(ENTRY), "single-line entry", "send");
        // round 9 (LR3): a row of a list activates as Enter does: yad's and zenity's lists pressed Send
        ProposedAction.Element row = new ProposedAction.Element("table cell", "a.txt", false, false, false);
        refused(
                click(row)
                        .withContext(
                                new ProposedAction.WindowContext(true, "Choose a file", Optional.of(button("Send")))),
                "row",
                "send");
        refused(
                click(row)
                        .withContext(new ProposedAction.WindowContext(
                                true, "Choose a file", Optional.of(button("Delete forever")))),
                "delete");
        allowed(click(row)
                .withContext(new ProposedAction.WindowContext(true, "Choose a file", Optional.of(button("Open")))));
        allowed(click(row));
        // round 10 (SA): key Down moved yad's list's choice under "Selecting a file deletes it", which ran its action
        ProposedAction.WindowContext selecting =
                new ProposedAction.WindowContext(true, "Selecting a file deletes it", Optional.of(button("Close")));
        refused(ProposedAction.key("Down", REV, TARGET, row).withContext(selecting), "moves the choice", "delete");
        // round 16: the list itself focused, before any row is (the dialog just opened)
        for (String list : List.of("table", "tree table", "tree", "list", "list box")) {
            refused(
                    ProposedAction.key("Down", REV, TARGET, new ProposedAction.Element(list, "", false, false, false))
                            .withContext(selecting),
                    "moves the choice",
                    "delete");
        }
        allowed(ProposedAction.key("Down", REV, TARGET, row)
                .withContext(new ProposedAction.WindowContext(true, "Choose a file", Optional.of(button("Close")))));
        allowed(click(ENTRY).withContext(new ProposedAction.WindowContext(false, "", Optional.of(button("Find")))));
        allowed(click(OK));
        allowed(click(OK).withContext(new ProposedAction.WindowContext(true, "Saved.", Optional.empty())));
        allowed(ProposedAction.on(ActionKind.SET_TEXT, REV, TARGET, ENTRY).withContext(DELETE_DIALOG));
        // round 4's L6: a dialog's text spelled as its labels were (a symbol for a letter, glued words)
        for (String text : List.of("Dеl℮te all 3 messages permanently?", "Send_now to all 200 contacts?")) {
            refused(click(OK).withContext(new ProposedAction.WindowContext(true, text, Optional.empty())));
        }
    }

    /** Round 10's NW10: a dialog's buttons whose labels no list held, pressed with nothing named. */
    static final List<String> ROUND_10_LABELS = List.of(
            "Shred",
            "Terminate",
            "Kill process",
            "Drop database",
            "Truncate",
            "Prune",
            "Nuke",
            "Replace all files",
            "Flash firmware",
            "Burn disc",
            "Force quit",
            "Launch",
            "Broadcast",
            "Block",
            "Decline",
            "Reject",
            "Vote",
            "Tip $5",
            "Renew",
            "Upgrade",
            "Rollback",
            "Revert",
            "Trust",
            "Elevate",
            "Sudo",
            "Sync now",
            "Archive all",
            "Ship it",
            "Eject",
            "Print",
            "Export",
            "Realizar pedido",
            "Finalizar compra",
            "Kündigen",
            "Wypłać",
            "Переслать",
            "Close without saving",
            "Replace",
            "Reset",
            "5");

    @Test
    void aDialogsButtonThatSaysWhatNoListKnowsIsUnlisted() {
        ProposedAction.WindowContext review = new ProposedAction.WindowContext(true, "Please review", Optional.empty());
        for (String label : ROUND_10_LABELS) {
            // a label the word list places (Replace all files: delete) keeps its category; the others are unlisted
            String why = ConsequentialWords.defaults().categoriesIn(label).isEmpty() ? ConsequentialWords.UNLISTED : "";
            refused(click(button(label)).withContext(review), why);
            refused(ProposedAction.key("space", REV, TARGET, button(label)).withContext(review), why);
            // Enter where the tree marks no default may press any button (Proposals' synthetic default)
            refused(
                    ProposedAction.key("Return", REV, TARGET, ENTRY)
                            .withContext(new ProposedAction.WindowContext(
                                    true, "Please review", Optional.of(button("any of " + label + ", Later")))),
                    why);
            // outside a dialog the words alone judge a button (a main window's toolbar: Bold, Sort, Print)
            if (!why.isEmpty()) allowed(click(button(label)));
        }
        // generated labels: letters no everyday label has, one to three words
        java.util.Random rnd = new java.util.Random(26);
        for (int i = 0; i < 500; i++) {
            StringBuilder label = new StringBuilder();
            for (int w = 0, n = 1 + rnd.nextInt(3); w < n; w++) {
                if (w > 0) label.append(' ');
                for (int k = 0, len = 5 + rnd.nextInt(6); k < len; k++) label.append((char) ('a' + rnd.nextInt(26)));
            }
            refused(click(button(label.toString())).withContext(review)); // unlisted, or a list word glued in
        }
        // everyday labels answer a dialog: as written, in other casings, and as the installed translations give them
        for (String label : List.of(
                "OK",
                "Cancel",
                "_Close",
                "Later",
                "Not Now",
                "Find Next",
                "Replace All",
                "Save As…",
                "Open later",
                "CANCEL",
                "Abbrechen",
                "Annuler",
                "Cancelar",
                "Schließen",
                "Отмена",
                "キャンセル",
                "取消")) {
            allowed(click(button(label)).withContext(review));
        }
        allowed(ProposedAction.key("Return", REV, TARGET, ENTRY)
                .withContext(new ProposedAction.WindowContext(
                        true, "Please review", Optional.of(button("any of OK, Cancel")))));
        // a check box or a field of a dialog is no answer to it: the words judge it
        allowed(click(new ProposedAction.Element("check box", "Shred on close", false, false, false))
                .withContext(review));
        // the person names the category, or the button
        for (Set<String> named : List.of(Set.of("unlisted"), Set.of("push button:Shred"))) {
            Grant g = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.A11Y_ONLY, named);
            assertTrue(
                    Policy.check(auto(), g, quiet(), click(button("Shred")).withContext(review))
                            .allowed(),
                    named.toString());
        }
    }

    /** Round 11's D: Yes, OK or Continue in a dialog that asks a question its words no list reads ("Shred all?"). */
    @Test
    void aQuestionsAnswerOtherThanADismissingOneIsUnlisted() {
        for (String text : List.of(
                "Shred all 3 files in Documents now?",
                "Terminate the production server?",
                "Wire $500 to account 1234?")) {
            ProposedAction.WindowContext question =
                    new ProposedAction.WindowContext(true, text, Optional.empty()).withQuestion(true);
            for (String answer : List.of("Yes", "OK", "Continue", "Proceed", "Open", "Save", "Ja", "Oui")) {
                refused(click(button(answer)).withContext(question), ConsequentialWords.UNLISTED);
                refused(ProposedAction.key("space", REV, TARGET, button(answer)).withContext(question), "unlisted");
                refused(
                        ProposedAction.key("Return", REV, TARGET, button(answer))
                                .withContext(question),
                        "unlisted");
            }
            refused(
                    ProposedAction.key("Return", REV, TARGET, ENTRY)
                            .withContext(new ProposedAction.WindowContext(
                                            true, text, Optional.of(button("any of Yes, Later")))
                                    .withQuestion(true)),
                    "unlisted");
            for (String dismiss : List.of("Cancel", "_No", "Later", "Not Now", "Abbrechen", "Annuler", "Nein")) {
                allowed(click(button(dismiss)).withContext(question));
            }
            // a form (a field, a box, a list to set) is no question: its OK is judged by what it shows chosen
            allowed(click(button("OK")).withContext(new ProposedAction.WindowContext(true, text, Optional.empty())));
        }
        // a dismissing answer that repeats its question does what it says (round 11's EC)
        for (String[] echo : List.of(
                new String[] {"Cancel the plan and lose your saved projects?", "Cancel"},
                new String[] {"Close your account?", "Close"},
                new String[] {"Skip the checks and flash the firmware?", "Skip"},
                new String[] {"Kündigen? Abbrechen und alle Projekte verlieren?", "Abbrechen"})) {
            ProposedAction.WindowContext question =
                    new ProposedAction.WindowContext(true, echo[0], Optional.empty()).withQuestion(true);
            refused(click(button(echo[1])).withContext(question), "unlisted");
            refused(ProposedAction.key("Return", REV, TARGET, button(echo[1])).withContext(question), "unlisted");
        }
        // a function word the answer shares with the question is no echo ("Not Now" under "Do not delete it now?")
        allowed(click(button("Not Now"))
                .withContext(new ProposedAction.WindowContext(true, "Do you want to keep it now?", Optional.empty())
                        .withQuestion(true)));
        // a question whose words the list places keeps its category
        refused(
                click(button("Yes"))
                        .withContext(new ProposedAction.WindowContext(true, "Delete all 3 files?", Optional.empty())
                                .withQuestion(true)),
                "delete");
    }

    @Test
    void enterIsJudgedByTheDefaultButtonAndTheFocusedElement() {
        ProposedAction.WindowContext sendDefault =
                new ProposedAction.WindowContext(false, "", Optional.of(button("Send")));
        refused(ProposedAction.key("Return", REV, TARGET, ENTRY).withContext(sendDefault), "default button", "send");
        refused(ProposedAction.key("shift+Return", REV, TARGET, ENTRY).withContext(sendDefault), "send");
        refused(ProposedAction.key("alt+Return", REV, TARGET, ENTRY).withContext(sendDefault), "send");
        refused(ProposedAction.key("KP_Enter", REV, TARGET, button("Delete")), "delete");
        allowed(ProposedAction.key("Return", REV, TARGET, ENTRY)
                .withContext(new ProposedAction.WindowContext(false, "", Optional.of(button("Find")))));
        refused(ProposedAction.key("space", REV, TARGET, null), "focused element unknown");
        allowed(ProposedAction.key("space", REV, TARGET, ENTRY));
    }

    @Test
    void mnemonicsPasteAndSelectByOption() {
        refused(ProposedAction.key("alt+s", REV, TARGET, ENTRY), "mnemonic");
        refused(ProposedAction.key("alt+S", REV, TARGET, ENTRY), "alt+shift+s");
        refused(ProposedAction.key("alt+3", REV, TARGET, ENTRY), "mnemonic");
        Grant namedChord = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("key:alt+s"));
        assertTrue(Policy.check(auto(), namedChord, quiet(), ProposedAction.key("alt+s", REV, TARGET, ENTRY))
                .allowed());
        for (String paste : List.of("ctrl+v", "ctrl+V", "ctrl+shift+v", "shift+Insert", "ctrl+shift+Insert")) {
            refused(ProposedAction.key(paste, REV, TARGET, ENTRY), "paste");
        }
        Grant pasteNamed = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("paste"));
        assertTrue(Policy.check(auto(), pasteNamed, quiet(), ProposedAction.key("ctrl+v", REV, TARGET, ENTRY))
                .allowed());
        ProposedAction.Element combo = new ProposedAction.Element("combo box", "When done", false, false, false);
        refused(ProposedAction.select(REV, TARGET, combo, "Delete the original"), "delete");
        allowed(ProposedAction.select(REV, TARGET, combo, "Keep the original"));
        refused(ProposedAction.on(ActionKind.TYPE, REV, TARGET, button("Send")), "typing into");
    }

    @Test
    void namingACategoryAllowsEveryWordOfIt() {
        Grant deleteNamed = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("delete"));
        for (String w : List.of("Delete", "Remove", "Löschen", "Supprimer", "Trash")) {
            assertTrue(
                    Policy.check(auto(), deleteNamed, quiet(), click(button(w))).allowed(), w);
        }
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                Policy.check(auto(), deleteNamed, quiet(), click(button("Send")))
                        .refusal()
                        .orElseThrow()
                        .code());
    }

    @Test
    void thePolicyWordListIsConfigurableAndKeepsTheBuiltIns() {
        PolicyConfig extra = auto().withConsequentialWords(
                        new ConsequentialWords(Map.of("share", Set.of("Share", "Teilen"), "delete", Set.of("Zap"))));
        refused(extra, click(button("Teilen")), "share");
        refused(extra, click(button("Zap")), "delete");
        refused(extra, click(button("Delete")), "delete");
        assertThrows(IllegalArgumentException.class, () -> new ConsequentialWords(Map.of("two words", Set.of("x"))));
        assertThrows(IllegalArgumentException.class, () -> new ConsequentialWords(Map.of("share", Set.of(" "))));
    }
    /**
     * Every text an element shows is gated as its name: a web button whose accessible name is "Cancel" but whose
     * visible text, description (tooltip) or label child carries a list word is consequential, for every word of
     * the English list, in each place it can show it.
     */
    @Test
    void everyTextAnElementShowsIsGatedAsItsName() {
        int tried = 0;
        for (Map.Entry<String, List<String>> e : Map.of(
                        "pay",
                        List.of("Pay now", "Transfer"),
                        "delete",
                        List.of("Delete", "Move to Trash"),
                        "send",
                        List.of("Send", "Reply"),
                        "buy",
                        List.of("Buy", "Checkout"),
                        "allow",
                        List.of("Allow"),
                        "publish",
                        List.of("Publish"),
                        "install",
                        List.of("Install"),
                        "submit",
                        List.of("Submit"),
                        "confirm",
                        List.of("Confirm"))
                .entrySet()) {
            for (String word : e.getValue()) {
                for (List<String> shown : List.of(
                        List.of(word),
                        List.of("", word),
                        List.of("Cancel", word + "…"),
                        List.of("\uFFFC", "\u202E" + new StringBuilder(word).reverse() + "\u202C"))) {
                    for (String name : List.of("Cancel", "", "Back")) {
                        ProposedAction.Element el =
                                new ProposedAction.Element("push button", name, false, false, false, shown);
                        tried++;
                        refused(click(el), e.getKey());
                        refused(ProposedAction.key("Return", REV, TARGET, el), e.getKey());
                        refused(ProposedAction.key("space", REV, TARGET, el), e.getKey());
                    }
                }
            }
        }
        assertTrue(tried > 100, "tried " + tried);
        // the default button's shown texts count as its name does
        ProposedAction.WindowContext payDefault = new ProposedAction.WindowContext(
                false,
                "",
                Optional.of(
                        new ProposedAction.Element("push button", "Cancel", false, false, false, List.of("Pay now"))));
        refused(ProposedAction.key("Return", REV, TARGET, ENTRY).withContext(payDefault), "pay");
        // a text that says nothing consequential lets it through; the refusal quotes none of it
        allowed(click(
                new ProposedAction.Element("push button", "Cancel", false, false, false, List.of("Back", "Go back"))));
        PolicyDecision d = Policy.check(
                auto(),
                autonomous(),
                quiet(),
                click(new ProposedAction.Element("push button", "Cancel", false, false, false, List.of("Pay now"))));
        assertFalse(
                d.refusal().orElseThrow().detail().contains("Pay"),
                d.refusal().get().detail());
        assertTrue(
                d.refusal().get().detail().contains("1 other text shown"),
                d.refusal().get().detail());
    }

    /**
     * A control whose purpose the tree does not say at all — no name, description, text, descendants' texts or
     * group label; white space, format characters, object placeholders and pictographs (🗑, ✉, 🛒) say nothing the
     * word list can read — is {@code unidentified}:
     * pressing it by click, Enter, space or typing needs the person to name {@code unidentified} or approve a card.
     * A click on any other element that says nothing (an image, a panel) is too; a text field is not, and a symbol
     * says something.
     */
    @Test
    void aControlThatSaysNothingIsUnidentified() {
        List<String> nothing = List.of(
                "",
                " ",
                "\u200B",
                "\uFFFC",
                "\u00A0\u2060",
                "\t\n",
                "\uD83D\uDDD1",
                "\uD83D\uDDD1\uFE0F",
                "\u2709",
                "\uD83D\uDED2 \uD83D\uDCB3",
                "\uD83D\uDC4D\uD83C\uDFFB");
        int tried = 0;
        for (String role : ProposedAction.Element.ACTION_ROLES) {
            for (String name : nothing) {
                for (List<String> shown : List.of(List.<String>of(), List.of(""), List.of("\uFFFC", " "))) {
                    ProposedAction.Element el = new ProposedAction.Element(role, name, false, false, false, shown);
                    tried++;
                    refused(click(el), Consequential.UNIDENTIFIED, "shows no name, description or text");
                    clickAtRefused(el);
                    refused(ProposedAction.key("Return", REV, TARGET, el), Consequential.UNIDENTIFIED);
                    refused(ProposedAction.key("space", REV, TARGET, el), Consequential.UNIDENTIFIED);
                    refused(ProposedAction.on(ActionKind.TYPE, REV, TARGET, el), Consequential.UNIDENTIFIED);
                    Grant named = grant(
                            ScopeKind.WINDOW,
                            InputPolicy.AUTONOMOUS,
                            CaptureMode.PIXELS,
                            Set.of(Consequential.UNIDENTIFIED));
                    assertTrue(
                            Policy.check(auto(), named, quiet(), click(el)).allowed(), role + " '" + name + "' named");
                }
            }
        }
        assertTrue(tried > 150, "tried " + tried);
        for (String role : List.of("image", "panel", "label", "table cell", "icon")) {
            ProposedAction.Element el = new ProposedAction.Element(role, "", false, false, false);
            refused(click(el), Consequential.UNIDENTIFIED);
            clickAtRefused(el);
            allowed(ProposedAction.key("space", REV, TARGET, el));
        }
        // a letter, a digit, a mathematical symbol or punctuation, a description or a text is something the gate reads
        for (ProposedAction.Element el : List.of(
                button("+"),
                button("×"),
                button("7"),
                button("+/-"),
                button("%"),
                button("\u2190"),
                button("\uD83D\uDDD1 Empty"),
                new ProposedAction.Element("push button", "", false, false, false, List.of("Close Infobar")),
                new ProposedAction.Element("toggle button", "", false, false, false, List.of("", "Properties")))) {
            allowed(click(el));
        }
        // a text field says what it is by being one: not unidentified, though a click on an entry is its Enter (round
        // 8)
        refused(click(new ProposedAction.Element("text", "", false, false, true)), "as Enter does");
        PolicyDecision entry = Policy.check(
                auto(), autonomous(), quiet(), click(new ProposedAction.Element("text", "", false, false, true)));
        assertFalse(entry.refusal().orElseThrow().detail().contains(Consequential.UNIDENTIFIED), entry.toString());
        allowed(click(new ProposedAction.Element("text", "", false, true, true)));
        // a control that shows a gated word and nothing else is gated by it, and is not unidentified
        PolicyDecision d = Policy.check(
                auto(),
                autonomous(),
                quiet(),
                click(new ProposedAction.Element("push button", "", false, false, false, List.of("Delete"))));
        assertTrue(
                d.refusal().orElseThrow().detail().contains("delete")
                        && !d.refusal().get().detail().contains(Consequential.UNIDENTIFIED),
                d.refusal().get().detail());
    }
}

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
    static final ProposedAction.Element CHECK = new ProposedAction.Element("check box", "Also remove files", false, false, false);
    static final ProposedAction.Element ENTRY = new ProposedAction.Element("text", "Name", false, false, true);
    static final ProposedAction.WindowContext DELETE_DIALOG = new ProposedAction.WindowContext(true,
            "Delete 3 files? This cannot be undone.", Optional.empty());

    private static void refused(ProposedAction a, String... inDetail) {
        refused(auto(), a, inDetail);
    }

    private static void refused(PolicyConfig config, ProposedAction a, String... inDetail) {
        PolicyDecision d = Policy.check(config, autonomous(), quiet(), a);
        assertEquals(RefusalCode.CONSEQUENTIAL_NOT_NAMED, d.refusal().map(Refusal::code).orElse(null), a + " → " + d);
        for (String s : inDetail) assertTrue(d.refusal().get().detail().contains(s), d.refusal().get().detail());
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
        for (String label : List.of("OK, Remove", "Remove", "Discard", "Post", "Purchase", "Erase", "Trash", "Order now",
                "Checkout", "Transfer", "Sign", "Löschen", "Endgültig löschen", "Supprimer", "Effacer", "Envoyer",
                "Eliminar", "Borrar", "Enviar", "Elimina", "Invia", "Excluir", "Apagar", "Verwijderen", "Verzenden",
                "Bezahlen", "Payer", "Pagar", "Kaufen", "Acheter", "Comprar", "Bestellen", "Installieren", "Erlauben",
                "Veröffentlichen", "Publicar", "Bestätigen", "Absenden", "Einfügen", "Coller")) {
            refused(click(button(label)), "push button (name of " + label.length() + " characters)");
            assertFalse(Policy.check(auto(), autonomous(), quiet(), click(button(label))).refusal().orElseThrow().detail()
                    .contains(label), "the label is the app's text: never quoted");
        }
    }

    @Test
    void unicodeTricksAreNormalisedBeforeMatching() {
        for (String label : List.of("Se\u200Bnd", "S\u00ADend", "\uFEFFSend", "Ѕеnd" /* Cyrillic S, e */, "Sеnd",
                "ＳＥＮＤ" /* full width */, "S e n d", "S-e-n-d", "_Send", "&Send", "SendNow", "DELETE",
                "Lo\u0308schen" /* combining diaeresis */, "Pаy" /* Cyrillic a */, "Dеlеtе")) {
            refused(click(button(label)));
        }
        refused(click(button("Resend code")));
        allowed(click(button("Sender")));
        allowed(click(button("Undo")));
    }

    @Test
    void everyButtonOfAGatedDialogIsConsequentialAndEnterInItToo() {
        refused(click(OK).withContext(DELETE_DIALOG), "delete");
        refused(click(button("Yes")).withContext(DELETE_DIALOG), "delete");
        refused(ProposedAction.key("Return", REV, TARGET, CHECK).withContext(DELETE_DIALOG), "delete");
        refused(ProposedAction.key("space", REV, TARGET, OK).withContext(DELETE_DIALOG), "delete");
        refused(ProposedAction.key("Return", REV, TARGET, ENTRY).withContext(DELETE_DIALOG), "delete");
        allowed(click(OK));
        allowed(click(OK).withContext(new ProposedAction.WindowContext(true, "Saved.", Optional.empty())));
        allowed(ProposedAction.on(ActionKind.SET_TEXT, REV, TARGET, ENTRY).withContext(DELETE_DIALOG));
    }

    @Test
    void enterIsJudgedByTheDefaultButtonAndTheFocusedElement() {
        ProposedAction.WindowContext sendDefault = new ProposedAction.WindowContext(false, "",
                Optional.of(button("Send")));
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
        assertTrue(Policy.check(auto(), namedChord, quiet(), ProposedAction.key("alt+s", REV, TARGET, ENTRY)).allowed());
        for (String paste : List.of("ctrl+v", "ctrl+V", "ctrl+shift+v", "shift+Insert", "ctrl+shift+Insert")) {
            refused(ProposedAction.key(paste, REV, TARGET, ENTRY), "paste");
        }
        Grant pasteNamed = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("paste"));
        assertTrue(Policy.check(auto(), pasteNamed, quiet(), ProposedAction.key("ctrl+v", REV, TARGET, ENTRY)).allowed());
        ProposedAction.Element combo = new ProposedAction.Element("combo box", "When done", false, false, false);
        refused(ProposedAction.select(REV, TARGET, combo, "Delete the original"), "delete");
        allowed(ProposedAction.select(REV, TARGET, combo, "Keep the original"));
        refused(ProposedAction.on(ActionKind.TYPE, REV, TARGET, button("Send")), "typing into");
    }

    @Test
    void namingACategoryAllowsEveryWordOfIt() {
        Grant deleteNamed = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("delete"));
        for (String w : List.of("Delete", "Remove", "Löschen", "Supprimer", "Trash")) {
            assertTrue(Policy.check(auto(), deleteNamed, quiet(), click(button(w))).allowed(), w);
        }
        assertEquals(RefusalCode.CONSEQUENTIAL_NOT_NAMED, Policy.check(auto(), deleteNamed, quiet(),
                click(button("Send"))).refusal().orElseThrow().code());
    }

    @Test
    void thePolicyWordListIsConfigurableAndKeepsTheBuiltIns() {
        PolicyConfig extra = auto().withConsequentialWords(new ConsequentialWords(Map.of("share", Set.of("Share", "Teilen"),
                "delete", Set.of("Zap"))));
        refused(extra, click(button("Teilen")), "share");
        refused(extra, click(button("Zap")), "delete");
        refused(extra, click(button("Delete")), "delete");
        assertThrows(IllegalArgumentException.class, () -> new ConsequentialWords(Map.of("two words", Set.of("x"))));
        assertThrows(IllegalArgumentException.class, () -> new ConsequentialWords(Map.of("share", Set.of(" "))));
    }
}

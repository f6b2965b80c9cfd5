package dev.deckhand.grant;

import static dev.deckhand.grant.Fixtures.REV;
import static dev.deckhand.grant.Fixtures.TARGET;
import static dev.deckhand.grant.Fixtures.auto;
import static dev.deckhand.grant.Fixtures.autonomous;
import static dev.deckhand.grant.Fixtures.click;
import static dev.deckhand.grant.Fixtures.confirmEach;
import static dev.deckhand.grant.Fixtures.grant;
import static dev.deckhand.grant.Fixtures.quiet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A menu item's accelerator is judged as a click on the item; a chord that submits is {@code send}. */
@Tag("pure")
class AcceleratorTest {

    static final ProposedAction.Element SEND_ITEM =
            new ProposedAction.Element("menu item", "Send", false, false, false);
    static final ProposedAction.Element SAVE_ITEM =
            new ProposedAction.Element("menu item", "Save", false, false, false);
    static final ProposedAction.Element DELETE_ITEM =
            new ProposedAction.Element("menu item", "Delete Line", false, false, false);
    /** An office document's paragraph: Enter there breaks the line and submits nothing. */
    static final ProposedAction.Element BODY = new ProposedAction.Element("paragraph", "Body", false, false, true);

    static final ProposedAction.Element TERMINAL =
            new ProposedAction.Element("terminal", "Terminal", false, false, true);

    /** Every way a toolkit or the model spells ctrl+Return, ctrl+s, ctrl+shift+Delete. */
    static final List<String> SEND_BINDINGS = List.of(
            "<Control>Return",
            "<Primary>Return",
            "<Ctrl>Return",
            "<control>return",
            "<Primary>KP_Enter",
            "Ctrl+Return",
            "Ctrl+Enter",
            "ctrl+return",
            "Control+Return",
            "s;<Alt>f:s;<Primary>Return",
            "d;<Alt>m:d;<Control>Return",
            "Ctrl + Return");

    @Test
    void bindingStringsOfEveryToolkitNormalise() {
        for (String b : SEND_BINDINGS) assertEquals(Optional.of(Chord.parse("ctrl+Enter")), Chord.fromBinding(b), b);
        for (String b : List.of(
                "<Control><Shift>Delete",
                "<Shift><Control>Delete",
                "<Primary><Shift>Delete",
                "Ctrl+Shift+Del",
                "Shift+Ctrl+Delete",
                "<Shift><Primary>KP_Delete")) {
            assertEquals(Optional.of(Chord.parse("ctrl+shift+Delete")), Chord.fromBinding(b), b);
        }
        for (String b :
                List.of("<Control>s", "<Control>S", "<Primary>s", "Ctrl+S", "ctrl+s", "s;<Alt>f:s;<Primary>s")) {
            assertEquals(Optional.of(Chord.parse("ctrl+s")), Chord.fromBinding(b), b);
        }
        assertEquals(Optional.of(Chord.parse("alt+F4")), Chord.fromBinding("<Mod1>F4"));
        assertEquals(Optional.of(Chord.parse("ctrl+Page_Down")), Chord.fromBinding("<Control>Next"));
        assertEquals(Optional.of(Chord.parse("ctrl+shift+Tab")), Chord.fromBinding("<Control>ISO_Left_Tab"));
        assertEquals(Optional.of(Chord.parse("Delete")), Chord.fromBinding("Delete"));
        assertEquals(Optional.of(Chord.parse("F5")), Chord.fromBinding("f5"));
        // no chord: no binding, a key the grammar cannot express, a sequence, an unknown modifier
        for (String b : List.of(
                "",
                " ",
                "s;<Alt>f:s;",
                "<Control>plus",
                "Ctrl++",
                "Ctrl+K, Ctrl+C",
                "<Alt>f:s",
                "<Release>s",
                "<Control>",
                "a;b")) {
            assertEquals(Optional.empty(), Chord.fromBinding(b), b);
        }
    }

    /** Every chord text of ctrl+Enter with modifier orders and aliases the model may send. */
    static List<String> modelSpellings(String mods, List<String> keys) {
        List<String> out = new ArrayList<>();
        for (String k : keys) out.add(mods + k);
        return out;
    }

    private static Accelerators read(List<Accelerators.Binding> b) {
        return Accelerators.read(b, b.size());
    }

    private static ProposedAction key(String chord, ProposedAction.Element focused, Accelerators acc) {
        return ProposedAction.key(chord, REV, TARGET, focused)
                .withContext(ProposedAction.WindowContext.NONE.withAccelerators(acc));
    }

    @Test
    void theAcceleratorOfAGatedItemIsRefusedAsAClickOnItWouldBe() {
        assertRefusedLike(click(SEND_ITEM));
        for (String binding : SEND_BINDINGS) {
            Accelerators acc = read(List.of(
                    new Accelerators.Binding(SEND_ITEM, binding), new Accelerators.Binding(SAVE_ITEM, "<Primary>s")));
            for (String chord : List.of("ctrl+Enter", "ctrl+Return", "ctrl+return", "ctrl+KP_Enter")) {
                // the focus is a plain field where Enter alone sends nothing
                PolicyDecision d = Policy.check(auto(), autonomous(), quiet(), key(chord, BODY, acc));
                assertEquals(
                        RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                        d.refusal().map(Refusal::code).orElse(null),
                        binding + " / " + chord + " → " + d);
                assertTrue(
                        d.refusal().get().detail().contains("accelerator of menu item (name of 4 characters)"),
                        d.refusal().get().detail());
                assertTrue(
                        d.refusal().get().detail().contains("(send)"),
                        d.refusal().get().detail());
            }
            assertTrue(
                    Policy.check(auto(), autonomous(), quiet(), key("ctrl+s", BODY, acc))
                            .allowed(),
                    binding);
            // the same chord without the menu item is not consequential in a plain field
            assertTrue(Policy.check(auto(), autonomous(), quiet(), key("ctrl+Enter", BODY, Accelerators.UNKNOWN))
                    .allowed());
        }
    }

    private static void assertRefusedLike(ProposedAction a) {
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                Policy.check(auto(), autonomous(), quiet(), a)
                        .refusal()
                        .map(Refusal::code)
                        .orElse(null));
    }

    @Test
    void namedAsTheItemIsOrAsItsCategoryOrTheChordLetsItThrough() {
        Accelerators acc = read(List.of(
                new Accelerators.Binding(SEND_ITEM, "<Primary>Return"),
                new Accelerators.Binding(DELETE_ITEM, "<Primary><Shift>Delete")));
        for (String entry : List.of("send", "menu item:Send", "key:ctrl+Return", "key:Ctrl+KP_Enter")) {
            Grant g = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of(entry));
            assertTrue(
                    Policy.check(auto(), g, quiet(), key("ctrl+Return", BODY, acc))
                            .allowed(),
                    entry);
            assertTrue(
                    Policy.check(auto(), g, quiet(), key("ctrl+shift+Delete", BODY, acc))
                            .refusal()
                            .isPresent(),
                    entry);
        }
        Grant deleteNamed = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("delete"));
        assertTrue(Policy.check(auto(), deleteNamed, quiet(), key("shift+ctrl+Delete", BODY, acc))
                .allowed());
        PolicyDecision d = Policy.check(auto(), autonomous(), quiet(), key("ctrl+shift+Delete", BODY, acc));
        assertTrue(
                d.refusal().get().detail().contains("menu item (name of 11 characters)"),
                d.refusal().get().detail());
    }

    @Test
    void onAConfirmEachGrantItRaisesTheCardAClickWould() {
        Accelerators acc = read(List.of(new Accelerators.Binding(SEND_ITEM, "Ctrl+Return")));
        PolicyDecision d = Policy.check(auto(), confirmEach(), quiet(), key("ctrl+Return", BODY, acc));
        PolicyDecision.NeedsApproval n = assertInstanceOf(PolicyDecision.NeedsApproval.class, d);
        assertTrue(
                n.reason().contains("consequential") && n.reason().contains("menu item (name of 4 characters)"),
                n.reason());
        assertEquals(
                n.reason(),
                ((PolicyDecision.NeedsApproval)
                                Policy.check(auto(), confirmEach(), quiet(), key("ctrl+Return", BODY, acc)))
                        .reason());
    }

    @Test
    void aCtrlChordOnAnAppWhoseMenuItemsShowNoBindingsCannotBeJudged() {
        Accelerators unreadable = Accelerators.read(
                List.of(new Accelerators.Binding(SEND_ITEM, ""), new Accelerators.Binding(SAVE_ITEM, "")), 2);
        assertEquals(Accelerators.State.UNREADABLE, unreadable.state());
        for (String chord : List.of("ctrl+s", "ctrl+Return", "ctrl+shift+Delete", "shift+ctrl+x")) {
            PolicyDecision d = Policy.check(auto(), autonomous(), quiet(), key(chord, BODY, unreadable));
            assertEquals(
                    RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                    d.refusal().map(Refusal::code).orElse(null),
                    chord);
            assertTrue(
                    d.refusal().get().detail().contains("show no key bindings"),
                    d.refusal().get().detail());
        }
        Grant named = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("key:ctrl+s"));
        assertTrue(Policy.check(auto(), named, quiet(), key("ctrl+s", BODY, unreadable))
                .allowed());
        // typing keys and keys without ctrl stay judged as before
        for (String chord : List.of("a", "shift+a", "Tab", "Left", "BackSpace", "F5")) {
            assertTrue(
                    Policy.check(auto(), autonomous(), quiet(), key(chord, BODY, unreadable))
                            .allowed(),
                    chord);
        }
        // a window without menus, or one whose menus were not read, refuses nothing for this
        Accelerators none = Accelerators.read(List.of(), 0);
        assertEquals(Accelerators.State.READ, none.state());
        assertTrue(Policy.check(auto(), autonomous(), quiet(), key("ctrl+s", BODY, none))
                .allowed());
        assertTrue(Policy.check(auto(), autonomous(), quiet(), key("ctrl+s", BODY, Accelerators.UNKNOWN))
                .allowed());
    }

    @Test
    void everyChordThatSubmitsInATerminalIsSend() {
        List<String> submits = new ArrayList<>();
        for (String mods : List.of("", "ctrl+", "shift+", "alt+", "ctrl+shift+", "shift+ctrl+")) {
            submits.addAll(modelSpellings(mods, List.of("Enter", "Return", "return", "KP_Enter")));
        }
        submits.addAll(List.of("ctrl+m", "ctrl+j", "ctrl+shift+m", "shift+ctrl+j", "ctrl+M", "ctrl+J"));
        // what runs behind a terminal decides what a chord does (bash runs the line on ctrl+o): every ctrl, alt
        // or meta chord there is send
        submits.addAll(List.of("ctrl+o", "ctrl+c", "ctrl+d", "ctrl+k", "ctrl+x", "alt+Up", "ctrl+shift+o"));
        for (String chord : submits) {
            for (ProposedAction.Element focus : new ProposedAction.Element[] {TERMINAL, null}) {
                PolicyDecision d = Policy.check(auto(), autonomous(), quiet(), key(chord, focus, Accelerators.UNKNOWN));
                assertEquals(
                        RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                        d.refusal().map(Refusal::code).orElse(null),
                        chord + " on " + focus + " → " + d);
                assertTrue(
                        d.refusal().get().detail().contains("(send)"),
                        d.refusal().get().detail());
            }
        }
        Grant sendNamed = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of("send"));
        for (String chord : submits) {
            assertTrue(
                    Policy.check(auto(), sendNamed, quiet(), key(chord, TERMINAL, Accelerators.UNKNOWN))
                            .allowed(),
                    chord);
        }
        // in a terminal, keys that do not submit stay free; in a plain field ctrl+m and ctrl+j submit nothing
        for (String chord : List.of("a", "Tab", "Up", "shift+Tab", "BackSpace")) {
            ProposedAction a = key(chord, TERMINAL, Accelerators.UNKNOWN);
            Optional<Consequential.Match> m = Consequential.classify(a, ConsequentialWords.defaults());
            assertTrue(m.isEmpty() || !m.get().categories().contains("send"), chord);
        }
        for (String chord : List.of("ctrl+m", "ctrl+j")) {
            assertTrue(
                    Policy.check(auto(), autonomous(), quiet(), key(chord, BODY, Accelerators.UNKNOWN))
                            .allowed(),
                    chord);
        }
    }
}

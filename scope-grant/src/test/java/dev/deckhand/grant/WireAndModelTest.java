package dev.deckhand.grant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class WireAndModelTest {

    @Test
    void wireNames() {
        assertEquals("confirm_each", InputPolicy.CONFIRM_EACH.wire());
        assertEquals("autonomous", InputPolicy.AUTONOMOUS.wire());
        assertEquals("a11y_only", CaptureMode.A11Y_ONLY.wire());
        assertEquals("pixels", CaptureMode.PIXELS.wire());
        assertEquals("window", ScopeKind.WINDOW.wire());
        assertEquals("app", ScopeKind.APP.wire());
        assertEquals("accept-edits", PermissionMode.ACCEPT_EDITS.wire());
        for (InputPolicy p : InputPolicy.values()) {
            assertEquals(p, InputPolicy.fromWire(p.wire()));
        }
        for (CaptureMode c : CaptureMode.values()) {
            assertEquals(c, CaptureMode.fromWire(c.wire()));
        }
        for (ScopeKind s : ScopeKind.values()) {
            assertEquals(s, ScopeKind.fromWire(s.wire()));
        }
        for (PermissionMode m : PermissionMode.values()) {
            assertEquals(m, PermissionMode.fromWire(m.wire()));
        }
        for (ActionKind k : ActionKind.values()) {
            assertEquals(k, ActionKind.fromWire(k.wire()));
        }
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> InputPolicy.fromWire("CONFIRM-EACH"));
        assertTrue(e.getMessage().contains("inputPolicy") && e.getMessage().contains("confirm_each | autonomous"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CaptureMode.fromWire(null))
                .getMessage()
                .contains("capture"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ScopeKind.fromWire("desktop"))
                .getMessage()
                .contains("scope"));
    }

    @Test
    void permissionModesDecideInputPolicies() {
        assertTrue(PermissionMode.ASK.allows(InputPolicy.CONFIRM_EACH));
        assertFalse(PermissionMode.ASK.allows(InputPolicy.AUTONOMOUS));
        assertTrue(PermissionMode.ACCEPT_EDITS.allows(InputPolicy.AUTONOMOUS));
        assertTrue(PermissionMode.AUTO.allows(InputPolicy.AUTONOMOUS));
    }

    @Test
    void inputKinds() {
        for (ActionKind k : ActionKind.values()) {
            boolean terminalOrWait = k == ActionKind.WAIT || k == ActionKind.DONE || k == ActionKind.FAIL;
            assertEquals(!terminalOrWait, k.input(), k.wire());
        }
    }

    @Test
    void recordsNameTheFieldTheyReject() {
        assertMessage("target.windowId", () -> new GrantTarget(0, "mousepad", ""));
        assertMessage("target.app", () -> new GrantTarget(1, " ", ""));
        GrantTarget t = new GrantTarget(1, "mousepad", "");
        PolicyConfig.Caps caps = PolicyConfig.Caps.defaults();
        assertMessage("budget", () -> MintRequest.of(t, ScopeKind.WINDOW, caps).withBudget(0));
        assertMessage("budget", () -> MintRequest.of(t, ScopeKind.WINDOW, caps).withBudget(MintRequest.MAX_BUDGET + 1));
        assertMessage(
                "idleExpiry", () -> MintRequest.of(t, ScopeKind.WINDOW, caps).withIdleExpiry(Duration.ZERO));
        assertMessage(
                "consequential", () -> MintRequest.of(t, ScopeKind.WINDOW, caps).withConsequential(Set.of(" ")));
        assertMessage("consequential", () -> MintRequest.of(t, ScopeKind.WINDOW, caps)
                .withConsequential(Set.of("two words")));
        assertMessage(
                "budgetRemaining",
                () -> new Grant(
                        "g",
                        t,
                        ScopeKind.WINDOW,
                        1,
                        -1,
                        Duration.ofSeconds(1),
                        Instant.EPOCH,
                        InputPolicy.CONFIRM_EACH,
                        CaptureMode.A11Y_ONLY,
                        Set.of(),
                        false,
                        Optional.empty()));
        assertMessage(
                "revision",
                () -> new Grant(
                        "g",
                        t,
                        ScopeKind.WINDOW,
                        0,
                        1,
                        Duration.ofSeconds(1),
                        Instant.EPOCH,
                        InputPolicy.CONFIRM_EACH,
                        CaptureMode.A11Y_ONLY,
                        Set.of(),
                        false,
                        Optional.empty()));
        assertMessage("basis.scale", () -> new BasisInfo(1, 1, 0, 0, 1, 1, 0));
        assertMessage("keys", () -> ProposedAction.bare(ActionKind.KEY, 1, 1));
        assertMessage("budget", () -> GrantChange.none().withBudget(-3));
    }

    @Test
    void mintDefaultsAreConservative() {
        MintRequest r =
                MintRequest.of(new GrantTarget(1, "mousepad", ""), ScopeKind.WINDOW, PolicyConfig.Caps.defaults());
        assertEquals(InputPolicy.CONFIRM_EACH, r.inputPolicy());
        assertEquals(CaptureMode.A11Y_ONLY, r.capture());
        assertEquals(Set.of(), r.consequential());
        assertEquals(PolicyConfig.Caps.DEFAULT_BUDGET, r.budget());
    }

    @Test
    void consequentialWordsAndChords() {
        ConsequentialWords w = ConsequentialWords.defaults();
        assertEquals(Set.of("send"), w.categoriesIn("Send…"));
        assertEquals(Set.of("delete", "send"), w.categoriesIn("Delete and SEND"));
        assertEquals(Set.of("send"), w.categoriesIn("Resend"));
        assertEquals(Set.of(), w.categoriesIn("Display / Undo / Deleted"));
        assertEquals(Set.of("send"), w.categoriesIn("Sender"), "a list word glued to more letters is the word");
        assertEquals(Set.of("allow"), w.categoriesIn("Always allow"));
        assertEquals("ctrl+Enter", Chord.parseLenient("Control+Return").toString());
        assertEquals("ctrl+shift+s", Chord.parse("shift+ctrl+s").toString());
        assertEquals("Enter", Chord.parse("KP_Enter").toString());
        assertEquals(
                List.of("key:ctrl+Enter", "push button:Send", "send"),
                List.copyOf(new java.util.TreeSet<>(
                        MintRequest.of(new GrantTarget(1, "a", ""), ScopeKind.WINDOW, PolicyConfig.Caps.defaults())
                                .withConsequential(Set.of("SEND", "Push Button:Send", "key:Ctrl+Return"))
                                .consequential())));
    }

    private static void assertMessage(String field, org.junit.jupiter.api.function.Executable e) {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
        assertTrue(ex.getMessage().contains(field), "'" + ex.getMessage() + "' should name " + field);
    }
}

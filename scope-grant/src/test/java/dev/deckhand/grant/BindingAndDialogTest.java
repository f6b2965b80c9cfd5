package dev.deckhand.grant;

import static dev.deckhand.grant.Fixtures.OK_BUTTON;
import static dev.deckhand.grant.Fixtures.REV;
import static dev.deckhand.grant.Fixtures.TARGET;
import static dev.deckhand.grant.Fixtures.auto;
import static dev.deckhand.grant.Fixtures.click;
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

/** A grant binds its window's identity; a dialog over a window-scoped target is outside it; capture under secure input; one run per grant. */
@Tag("pure")
class BindingAndDialogTest {

    static final Facts.WindowFact BOUND =
            new Facts.WindowFact(TARGET, "Mousepad", "notes.txt", false, true, 4242, 777, 0x1a00000L, 0, false, 3);

    static Grant bound(ScopeKind scope) {
        return new Grant(
                "g-b",
                new GrantTarget(TARGET, "mousepad", "notes.txt", 4242, 777),
                scope,
                REV,
                10,
                Duration.ofMinutes(5),
                Instant.EPOCH,
                InputPolicy.AUTONOMOUS,
                CaptureMode.PIXELS,
                Set.of(),
                false,
                Optional.of("s1"));
    }

    static Facts with(Facts.WindowFact... windows) {
        return Facts.of(Set.of("mousepad"), List.of(windows));
    }

    private static void outOfScope(Grant g, Facts f, ProposedAction a, String part) {
        PolicyDecision d = Policy.check(auto(), g, f, a);
        assertEquals(RefusalCode.OUT_OF_SCOPE, d.refusal().map(Refusal::code).orElse(null), d.toString());
        assertTrue(d.refusal().get().detail().contains(part), d.refusal().get().detail());
    }

    @Test
    void aReusedWindowIdDoesNotCarryTheGrant() {
        assertTrue(Policy.check(auto(), bound(ScopeKind.WINDOW), with(BOUND), click(OK_BUTTON))
                .allowed());
        Facts.WindowFact otherPid =
                new Facts.WindowFact(TARGET, "Mousepad", "notes.txt", false, true, 5000, 777, 0x1a00000L, 0, false, 3);
        Facts.WindowFact restarted =
                new Facts.WindowFact(TARGET, "Mousepad", "notes.txt", false, true, 4242, 999, 0x1a00000L, 0, false, 3);
        Facts.WindowFact otherApp =
                new Facts.WindowFact(TARGET, "XTerm", "notes.txt", false, true, 4242, 777, 0x1a00000L, 0, false, 3);
        for (ScopeKind scope : ScopeKind.values()) {
            outOfScope(bound(scope), with(otherPid), click(OK_BUTTON), "process 4242 → 5000");
            outOfScope(bound(scope), with(restarted), click(OK_BUTTON), "process start 777 → 999");
            outOfScope(bound(scope), with(otherApp), click(OK_BUTTON), "XTerm");
            assertEquals(
                    RefusalCode.OUT_OF_SCOPE,
                    Policy.beforeCapture(auto(), bound(scope), with(otherPid), TARGET, false)
                            .orElseThrow()
                            .code());
        }
    }

    @Test
    void aDialogOfTheSameClientOverAWindowGrantRefusesInputButNotOnAnAppGrant() {
        Facts.WindowFact saveAs = new Facts.WindowFact(
                0x1a00099L, "Mousepad", "Save As", false, true, 4242, 777, 0x1a00000L, TARGET, true, 4);
        Facts f = with(BOUND, saveAs);
        outOfScope(bound(ScopeKind.WINDOW), f, click(OK_BUTTON), "dialog 0x1a00099 (Mousepad)");
        assertFalse(
                Policy.check(auto(), bound(ScopeKind.WINDOW), f, click(OK_BUTTON))
                        .refusal()
                        .orElseThrow()
                        .detail()
                        .contains("Save As"),
                "the dialog's title is the app's text: never quoted");
        outOfScope(bound(ScopeKind.WINDOW), f, ProposedAction.key("ctrl+s", REV, TARGET, null), "dialog");
        assertTrue(
                Policy.check(auto(), bound(ScopeKind.APP), f, click(OK_BUTTON)).allowed());
        // observing is not input: the target's own tree may still be read
        assertTrue(Policy.beforeCapture(auto(), bound(ScopeKind.WINDOW), f, TARGET, false)
                .isEmpty());
        // a modal window of the same client without transient-for counts too; below the target it does not
        Facts.WindowFact modalOnly =
                new Facts.WindowFact(0x1a00098L, "Mousepad", "Replace", false, true, 4242, 777, 0x1a00000L, 0, true, 5);
        outOfScope(bound(ScopeKind.WINDOW), with(BOUND, modalOnly), click(OK_BUTTON), "dialog 0x1a00098");
        Facts.WindowFact below = new Facts.WindowFact(
                0x1a00097L, "Mousepad", "Find", false, true, 4242, 777, 0x1a00000L, TARGET, false, 1);
        assertTrue(Policy.check(auto(), bound(ScopeKind.WINDOW), with(BOUND, below), click(OK_BUTTON))
                .allowed());
        // another client's transient window is not this app's dialog
        Facts.WindowFact foreign =
                new Facts.WindowFact(0x2c00001L, "Xterm", "x", false, true, 99, 1, 0x2c00000L, TARGET, true, 6);
        assertTrue(Policy.check(auto(), bound(ScopeKind.WINDOW), with(BOUND, foreign), click(OK_BUTTON))
                .allowed());
    }

    @Test
    void pixelsAreNotCapturedUnderSecureInputButTheTreeIsRead() {
        Grant g = bound(ScopeKind.WINDOW);
        assertEquals(
                RefusalCode.SECURE_INPUT,
                Policy.beforeCapture(auto(), g, with(BOUND).withPasswordFocused(true), TARGET, true)
                        .orElseThrow()
                        .code());
        assertEquals(
                RefusalCode.SECURE_INPUT,
                Policy.beforeCapture(auto(), g, with(BOUND).withKeyboardGrabbed(true), TARGET, true)
                        .orElseThrow()
                        .code());
        assertTrue(Policy.beforeCapture(auto(), g, with(BOUND).withPasswordFocused(true), TARGET, false)
                .isEmpty());
    }

    @Test
    void budgetIsReservedBeforeDeliveryAndOneRunHoldsTheGrant() {
        MutableClock clock = new MutableClock();
        GrantBroker.Owned o = GrantBroker.create(clock, () -> "g1");
        GrantBroker b = o.broker();
        b.mint(
                o.ownerPass(),
                MintRequest.of(new GrantTarget(TARGET, "mousepad", "n"), ScopeKind.WINDOW, PolicyConfig.Caps.defaults())
                        .withBudget(1),
                PermissionMode.ASK);
        Grant g = b.acquire("s1", null);
        b.hold("s1", g.id(), "run-a");
        RefusedException second = assertThrows(RefusedException.class, () -> b.hold("s1", "g1", "run-b"));
        assertEquals(RefusalCode.OUT_OF_SCOPE, second.code());
        assertTrue(second.getMessage().contains("another run"), second.getMessage());
        GrantBroker.Reservation r = b.reserve("s1", g.id(), g.revision());
        assertEquals(
                RefusalCode.BUDGET_EXHAUSTED,
                assertThrows(
                                RefusedException.class,
                                () -> b.reserve(
                                        "s1", "g1", b.active().orElseThrow().revision()))
                        .code(),
                "one unit cannot be spent twice");
        b.release(r);
        b.release(r);
        assertEquals(1, b.active().orElseThrow().budgetRemaining(), "released once, never twice");
        GrantBroker.Reservation again = b.reserve("s1", g.id(), g.revision());
        b.spent(again);
        b.release(again);
        assertEquals(0, b.active().orElseThrow().budgetRemaining(), "a spent unit is not given back");
        b.unhold("run-a");
        b.hold("s1", "g1", "run-b");
    }
}

package dev.deckhand.grant;

import static dev.deckhand.grant.Fixtures.OK_BUTTON;
import static dev.deckhand.grant.Fixtures.REV;
import static dev.deckhand.grant.Fixtures.TARGET;
import static dev.deckhand.grant.Fixtures.auto;
import static dev.deckhand.grant.Fixtures.quiet;
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

/**
 * Blind input (issue 28): input whose receiver the accessibility tree does not show — keys and text into a window
 * without a tree, a {@code click_at} on a point where the tree shows no element — goes only on a grant the person
 * allowed it on ({@code blindInput}), approved card or not; everything else about the action is judged as before.
 */
@Tag("pure")
class BlindInputTest {

    private static final ProposedAction.WindowContext TREELESS = ProposedAction.WindowContext.NONE.withTreeless(true);

    private static Grant grant(boolean blindInput, Set<String> named) {
        return new Grant(
                "g-blind",
                new GrantTarget(TARGET, "mousepad", "notes.txt"),
                ScopeKind.WINDOW,
                REV,
                10,
                Duration.ofMinutes(5),
                Instant.EPOCH,
                InputPolicy.AUTONOMOUS,
                CaptureMode.PIXELS,
                named,
                blindInput,
                Optional.of("s1"));
    }

    private static final BasisInfo BASIS = new BasisInfo(REV, TARGET, 10, 20, 800, 600, 0.5);

    private static Facts basisMeasured() {
        return quiet().withMeasuredBasis(Optional.of(BASIS));
    }

    private static List<ProposedAction> blindActions() {
        return List.of(
                ProposedAction.key("t", REV, TARGET, null).withContext(TREELESS),
                ProposedAction.type(REV, TARGET, null, "touch ok").withContext(TREELESS),
                ProposedAction.clickAt(REV, TARGET, BASIS, null));
    }

    @Test
    void inputWhoseReceiverTheTreeDoesNotShowIsRefusedUntilThePersonAllowsIt() {
        Set<String> named = Set.of(Consequential.UNIDENTIFIED);
        for (ProposedAction a : blindActions()) {
            PolicyDecision refused = Policy.check(auto(), grant(false, named), basisMeasured(), a);
            assertFalse(refused.allowed(), a::toString);
            Refusal r = refused.refusal().orElseThrow();
            assertEquals(RefusalCode.OUT_OF_SCOPE, r.code(), r::detail);
            assertTrue(r.detail().startsWith("blind input: "), r::detail);
            assertTrue(r.detail().contains("blindInput"), "the detail says how to allow it: " + r.detail());
            // an approved card does not stand for the person's grant field
            assertFalse(Policy.check(auto(), grant(false, named), basisMeasured(), a.withApproved(true))
                    .allowed());
            assertTrue(
                    Policy.check(auto(), grant(true, named), basisMeasured(), a).allowed(), a::toString);
        }
    }

    @Test
    void blindInputIsStillJudgedByEveryOtherRule() {
        // Enter into an unread focus submits a line: send, named or not blind
        ProposedAction enter = ProposedAction.key("Return", REV, TARGET, null).withContext(TREELESS);
        PolicyDecision d = Policy.check(auto(), grant(true, Set.of()), basisMeasured(), enter);
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED, d.refusal().orElseThrow().code());
        // a point on no element is unidentified, as before
        ProposedAction point = ProposedAction.clickAt(REV, TARGET, BASIS, null);
        d = Policy.check(auto(), grant(true, Set.of()), basisMeasured(), point);
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED, d.refusal().orElseThrow().code());
        // a password field focused elsewhere still refuses
        d = Policy.check(
                auto(),
                grant(true, Set.of()),
                basisMeasured().withPasswordFocused(true),
                ProposedAction.key("t", REV, TARGET, null).withContext(TREELESS));
        assertEquals(RefusalCode.SECURE_INPUT, d.refusal().orElseThrow().code());
    }

    @Test
    void inputTheTreeShowsTheReceiverOfIsNotBlind() {
        // a key with the focus unread in a window that has a tree is judged as before (not blind)
        assertTrue(Policy.blind(ProposedAction.key("ctrl+s", REV, TARGET, null)).isEmpty());
        assertTrue(Policy.blind(ProposedAction.clickAt(REV, TARGET, BASIS, OK_BUTTON))
                .isEmpty());
        assertTrue(Policy.blind(ProposedAction.on(ActionKind.CLICK, REV, TARGET, OK_BUTTON))
                .isEmpty());
        assertTrue(Policy.check(
                        auto(),
                        grant(false, Set.of()),
                        basisMeasured(),
                        ProposedAction.on(ActionKind.CLICK, REV, TARGET, OK_BUTTON))
                .allowed());
    }

    @Test
    void onlyAPixelsGrantCarriesIt() {
        GrantTarget t = new GrantTarget(TARGET, "mousepad", "notes.txt");
        PolicyConfig.Caps caps = PolicyConfig.Caps.defaults();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> MintRequest.of(t, ScopeKind.WINDOW, caps)
                        .withBlindInput(true));
        assertTrue(e.getMessage().contains("blindInput"), e.getMessage());
        assertTrue(MintRequest.of(t, ScopeKind.WINDOW, caps)
                .withCapture(CaptureMode.PIXELS)
                .withBlindInput(true)
                .blindInput());
        assertFalse(MintRequest.of(t, ScopeKind.WINDOW, caps).blindInput(), "off unless the person says so");
    }
}

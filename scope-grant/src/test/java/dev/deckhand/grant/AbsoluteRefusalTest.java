package dev.deckhand.grant;

import static dev.deckhand.grant.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * OWN_WINDOW and SECURE_INPUT cannot be reached around: every permission mode × input policy × capture
 * mode × scope kind × consequential list × config × approval flag × action kind (× the grant naming the
 * own window itself) still gets the absolute refusal.
 */
@Tag("pure")
class AbsoluteRefusalTest {

    static final List<Set<String>> NAMED = List.of(
            Set.of(),
            Set.of("send"),
            ConsequentialWords.BUILTIN.keySet(),
            Set.of("push button:OK", "key:enter", "panel:Deckhand overlay"));

    static List<PolicyConfig> configs() {
        PolicyConfig d = PolicyConfig.defaults();
        return List.of(
                d,
                d.withAllowedHosts(Set.of("deckhand.local", "localhost", "127.0.0.1")),
                d.withCredentialApps(Set.of())
                        .withCommsApps(Set.of("nothing"))
                        .withDeniedHosts(Set.of("nothing.invalid")),
                d.withCaps(PolicyConfig.Caps.defaults()
                        .withBudget(MintRequest.MAX_BUDGET)
                        .withMaxSteps(1000)),
                d.withEnabledCommands(List.of(List.of("true"))));
    }

    static List<ProposedAction> actions(long window, ProposedAction.Element element) {
        List<ProposedAction> out = new ArrayList<>();
        for (ActionKind k : ActionKind.values()) {
            Optional<Chord> keys = k == ActionKind.KEY ? Optional.of(Chord.parse("Return")) : Optional.empty();
            Optional<BasisInfo> basis = k == ActionKind.CLICK_AT
                    ? Optional.of(new BasisInfo(REV, window, 10, 20, 800, 600, 0.5))
                    : Optional.empty();
            for (boolean approved : new boolean[] {false, true}) {
                out.add(new ProposedAction(
                        k,
                        REV,
                        window,
                        Optional.ofNullable(element),
                        keys,
                        Optional.empty(),
                        basis,
                        ProposedAction.WindowContext.NONE,
                        approved,
                        k == ActionKind.TYPE));
            }
        }
        return out;
    }

    static List<Grant> grants(long targetWindow, String app) {
        List<Grant> out = new ArrayList<>();
        for (ScopeKind s : ScopeKind.values()) {
            for (InputPolicy p : InputPolicy.values()) {
                for (CaptureMode c : CaptureMode.values()) {
                    for (Set<String> named : NAMED) {
                        out.add(new Grant(
                                "g-abs",
                                new GrantTarget(targetWindow, app, "t"),
                                s,
                                REV,
                                10,
                                java.time.Duration.ofMinutes(5),
                                java.time.Instant.EPOCH,
                                p,
                                c,
                                named,
                                false,
                                Optional.of("s1")));
                    }
                }
            }
        }
        return out;
    }

    @Test
    void ownWindowCannotBeBypassed() {
        int checked = 0;
        Facts f = quiet().withMeasuredBasis(Optional.of(new BasisInfo(REV, OWN_PAGE, 10, 20, 800, 600, 0.5)));
        List<Grant> grants = new ArrayList<>(grants(TARGET, "mousepad"));
        grants.addAll(grants(OWN_PAGE, "chromium")); // even a grant naming the own window itself
        for (PermissionMode mode : PermissionMode.values()) {
            for (PolicyConfig config : configs()) {
                PolicyConfig c = config.withPermissionMode(mode);
                for (Grant g : grants) {
                    for (ProposedAction a : actions(OWN_PAGE, OK_BUTTON)) {
                        assertAbsolute(RefusalCode.OWN_WINDOW, Policy.check(c, g, f, a), c, g, a);
                        checked++;
                    }
                    for (ProposedAction a :
                            actions(TARGET, new ProposedAction.Element("panel", "Deckhand overlay", true, false))) {
                        assertAbsolute(RefusalCode.OWN_WINDOW, Policy.check(c, g, quiet(), a), c, g, a);
                        checked++;
                    }
                }
            }
        }
        assertTrue(checked > 10_000, "checked " + checked);
    }

    @Test
    void secureInputCannotBeBypassed() {
        int checked = 0;
        Facts measured = quiet().withMeasuredBasis(Optional.of(basis()));
        List<Facts> secure = List.of(
                measured.withPasswordFocused(true),
                measured.withKeyboardGrabbed(true),
                measured.withPasswordFocused(true).withKeyboardGrabbed(true));
        List<ProposedAction.Element> elements = new ArrayList<>();
        elements.add(OK_BUTTON);
        elements.add(SEND_BUTTON);
        elements.add(COMPOSE);
        elements.add(null);
        for (PermissionMode mode : PermissionMode.values()) {
            for (PolicyConfig config : configs()) {
                PolicyConfig c = config.withPermissionMode(mode);
                for (Grant g : grants(TARGET, "mousepad")) {
                    for (ProposedAction.Element e : elements) {
                        for (ProposedAction a : actions(TARGET, e)) {
                            for (Facts f : secure) {
                                PolicyDecision d = Policy.check(c, g, f, a);
                                if (a.input()) {
                                    assertAbsolute(RefusalCode.SECURE_INPUT, d, c, g, a);
                                    checked++;
                                }
                            }
                        }
                    }
                }
            }
        }
        // a password field as the target is refused the same way, with the desktop otherwise quiet
        ProposedAction.Element pw = new ProposedAction.Element("password text", "Password", false, false);
        for (Grant g : grants(TARGET, "mousepad")) {
            for (ProposedAction a : actions(TARGET, pw)) {
                if (a.input()) {
                    assertAbsolute(RefusalCode.SECURE_INPUT, Policy.check(auto(), g, quiet(), a), auto(), g, a);
                    checked++;
                }
            }
        }
        assertTrue(checked > 10_000, "checked " + checked);
    }

    private static void assertAbsolute(RefusalCode code, PolicyDecision d, PolicyConfig c, Grant g, ProposedAction a) {
        Optional<Refusal> r = d.refusal();
        assertTrue(
                r.isPresent(),
                () -> "bypassed " + code + " with mode " + c.permissionMode() + ", grant " + g + ", action " + a);
        assertEquals(code, r.get().code(), () -> "mode " + c.permissionMode() + ", grant " + g + ", action " + a);
    }
}

package dev.deckhand.grant;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The policy checked before every action (docs/design.md#refusals), pure. Given the config, the grant snapshot,
 * the facts the driver just read and the proposed action, it decides in this fixed order; the first
 * stage that fires wins:
 * <ol>
 * <li>Absolute — {@code OWN_WINDOW} (target window or element is Deckhand's own; every action kind),
 *   {@code SYSTEM_CHORD} (a chord the desktop may take, {@link Chord#systemReason()}),
 *   {@code SECURE_INPUT} (input actions: password field focused or targeted, or a keyboard grab held).
 *   Nothing in the config, the permission mode, the grant or the action reaches past these.
 * <li>Deny lists — {@link DenyScan}.
 * <li>Scope — {@code OUT_OF_SCOPE}: target window not on screen, not the granted window
 *   ({@code window} scope) or not of the granted app ({@code app} scope); the granted window no longer
 *   the one granted (window id, pid, WM_CLASS and process start time bind it); for input on a
 *   {@code window} grant, a dialog of the same client (transient for the target, or modal) stacked over it.
 * <li>Basis (input actions) — {@code BASIS_STALE}: action decided under an older grant revision; for
 *   {@code click_at}: no basis, an {@code a11y_only} grant, no re-measured basis, or any difference
 *   in revision, window, geometry or scale.
 * <li>Consequential gate (input actions) — an unnamed consequential action ({@link Consequential})
 *   needs approval; on an effectively {@code autonomous} grant there is no card, so it is refused with
 *   {@code CONSEQUENTIAL_NOT_NAMED}.
 * <li>Confirm-each (input actions) — an effectively {@code confirm_each} grant needs an approval.
 *   The effective input policy is the grant's, except that {@code autonomous} falls back to
 *   {@code confirm_each} when the current permission mode is {@code ask}.
 * </ol>
 * Stages 5–6 pass when {@link ProposedAction#approved()}.
 */
public final class Policy {

    private Policy() {}

    /**
     * The call-mode check made before anything else, and the one place a call mode is refused
     * {@code MODE_DENIED}: {@code plan} and {@code goal} (and any unknown mode) are refused; null, "" and
     * {@code default} pass.
     */
    public static Optional<Refusal> checkCallMode(String mode) {
        if (mode == null || mode.isBlank() || mode.trim().equalsIgnoreCase("default")) {
            return Optional.empty();
        }
        String m = mode.trim().toLowerCase(Locale.ROOT);
        if (m.equals("plan") || m.equals("goal")) {
            return Optional.of(Refusal.modeDenied("mode '" + m + "' is not supported; only 'default' runs"));
        }
        return Optional.of(Refusal.modeDenied("unknown mode '" + mode + "'"));
    }

    /** The input policy in force: the grant's, but {@code autonomous} only while the mode allows it. */
    public static InputPolicy effectiveInputPolicy(PolicyConfig config, Grant grant) {
        return config.permissionMode().allows(grant.inputPolicy()) ? grant.inputPolicy() : InputPolicy.CONFIRM_EACH;
    }

    /** Decides one proposed action. See the class comment for the order. */
    /**
     * Why {@code a} is blind input — input whose receiver the accessibility tree does not show, where Deckhand cannot
     * see a password prompt: a {@code key} or {@code type} into a window without a tree ({@link
     * ProposedAction.WindowContext#treeless}), or a {@code click_at} on a point where the tree shows no element (a
     * canvas, a container, nothing). Empty when it is not.
     */
    public static Optional<String> blind(ProposedAction a) {
        if (a.kind() == ActionKind.CLICK_AT && a.element().isEmpty()) {
            return Optional.of("blind input: click_at on a point where the accessibility tree shows no element");
        }
        if ((a.kind() == ActionKind.KEY || a.kind() == ActionKind.TYPE)
                && a.element().isEmpty()
                && a.context().treeless()) {
            return Optional.of("blind input: " + a.kind().wire() + " into a window that shows no accessibility tree");
        }
        return Optional.empty();
    }

    public static PolicyDecision check(PolicyConfig config, Grant grant, Facts facts, ProposedAction action) {
        Optional<Facts.WindowFact> window = facts.window(action.targetWindowId());
        // 1. absolute
        if (window.isPresent() && window.get().own()) {
            return refuse(Refusal.ownWindow("target window " + describe(window.get()) + " is Deckhand's own"));
        }
        if (action.element().isPresent() && action.element().get().own()) {
            return refuse(Refusal.ownWindow(
                    "target element " + Consequential.describe(action.element().get()) + " belongs to Deckhand"));
        }
        if (action.chord().isPresent()) {
            Optional<String> system = action.chord().get().systemReason();
            if (system.isPresent()) {
                return refuse(Refusal.systemChord("key " + action.chord().get() + ": " + system.get()));
            }
        }
        if (action.input()) {
            if (facts.passwordFocused()) {
                return refuse(Refusal.secureInput("the focused element is a password field"));
            }
            if (facts.keyboardGrabbed()) {
                return refuse(Refusal.secureInput("another client holds a keyboard grab"));
            }
            if (action.element().isPresent()
                    && action.element().get().role().toLowerCase(Locale.ROOT).contains("password")) {
                return refuse(Refusal.secureInput("target element is a password field: "
                        + Consequential.describe(action.element().get())));
            }
        }
        // 2. deny lists
        Optional<Refusal> deny = DenyScan.scan(config, facts);
        if (deny.isPresent()) {
            return new PolicyDecision.Refuse(deny.get());
        }
        // 3. scope
        Optional<Refusal> scope = scope(grant, facts, action.targetWindowId());
        if (scope.isEmpty() && action.input()) {
            scope = dialogOver(grant, facts, action.targetWindowId());
        }
        if (scope.isPresent()) {
            return new PolicyDecision.Refuse(scope.get());
        }
        if (!action.input()) {
            return new PolicyDecision.Allow();
        }
        // 4. basis
        if (action.decidedAtRevision() != grant.revision()) {
            return refuse(Refusal.basisStale("action decided under grant revision " + action.decidedAtRevision()
                    + ", grant is now at revision " + grant.revision()));
        }
        if (action.kind() == ActionKind.CLICK_AT) {
            if (grant.capture() == CaptureMode.A11Y_ONLY) {
                return refuse(Refusal.basisStale("click_at on an a11y_only grant: no capture basis can exist"));
            }
            if (action.basis().isEmpty()) {
                return refuse(Refusal.basisStale("click_at has no capture basis"));
            }
            BasisInfo b = action.basis().get();
            if (b.grantRevision() != grant.revision()) {
                return refuse(Refusal.basisStale("capture basis is of grant revision " + b.grantRevision()
                        + ", grant is now at revision " + grant.revision()));
            }
            if (facts.measuredBasis().isEmpty()) {
                return refuse(Refusal.basisStale("the driver did not re-measure the basis before click_at"));
            }
            String diff = b.firstDifference(facts.measuredBasis().get());
            if (diff != null) {
                return refuse(Refusal.basisStale("basis changed: " + diff));
            }
        }
        // 4b. blind input: only where the person allowed it, approved or not
        Optional<String> blind = blind(action);
        if (blind.isPresent() && !grant.blindInput()) {
            return refuse(Refusal.outOfScope(blind.get() + ", which this grant does not allow: the person allows it"
                    + " with blindInput on the grant (the page's grant card, or PATCH /api/grants/{id}"
                    + " {\"blindInput\": true})"));
        }
        if (action.approved()) {
            return new PolicyDecision.Allow();
        }
        InputPolicy effective = effectiveInputPolicy(config, grant);
        // 5. consequential gate
        Optional<Consequential.Match> match = Consequential.classify(action, config.consequentialWords());
        if (match.isPresent() && !Consequential.named(grant.consequential(), action, match.get())) {
            String what = match.get().what()
                    + (match.get().categories().isEmpty()
                            ? ""
                            : " (" + String.join(", ", match.get().categories()) + ")");
            if (effective == InputPolicy.AUTONOMOUS) {
                return refuse(
                        Refusal.consequentialNotNamed(what + " is consequential and not named on grant " + grant.id()));
            }
            return new PolicyDecision.NeedsApproval("consequential: " + what, Optional.of(what));
        }
        // 6. confirm-each
        if (effective == InputPolicy.CONFIRM_EACH) {
            return new PolicyDecision.NeedsApproval("confirm_each", Optional.empty());
        }
        return new PolicyDecision.Allow();
    }

    /**
     * The refusal a window would get if granted ({@code GET /api/windows}), or empty when grantable
     * right now: not on screen or Deckhand's own ({@code OWN_WINDOW}), itself a credential-class or
     * communications app, or the {@link DenyScan} (set {@link Facts#targetIsBrowser()} for browsers).
     * The REST layer calls this before {@link GrantBroker#mint}.
     */
    public static Optional<Refusal> grantable(PolicyConfig config, Facts facts, long windowId) {
        Optional<Facts.WindowFact> w = facts.window(windowId);
        if (w.isEmpty()) {
            return Optional.of(Refusal.outOfScope("window " + hex(windowId) + " is not on screen"));
        }
        if (w.get().own()) {
            return Optional.of(Refusal.ownWindow("window " + describe(w.get()) + " is Deckhand's own"));
        }
        String app = w.get().app().toLowerCase(Locale.ROOT);
        if (config.credentialApps().contains(app)) {
            return Optional.of(Refusal.denyCredentialApp("credential-class app: " + app));
        }
        if (config.commsApps().contains(app)) {
            return Optional.of(Refusal.denyCommsVisible("communications app: " + app));
        }
        return DenyScan.scan(config, facts);
    }

    /**
     * The checks before every capture: {@code OWN_WINDOW}, for pixels {@code SECURE_INPUT} (a password
     * field focused or a keyboard grab held), the deny lists and the scope of the window to capture. Pixels
     * additionally need a {@code pixels} grant ({@code OUT_OF_SCOPE} otherwise).
     */
    public static Optional<Refusal> beforeCapture(
            PolicyConfig config, Grant grant, Facts facts, long windowId, boolean pixels) {
        Optional<Facts.WindowFact> w = facts.window(windowId);
        if (w.isPresent() && w.get().own()) {
            return Optional.of(Refusal.ownWindow("window " + describe(w.get()) + " is Deckhand's own"));
        }
        if (pixels && facts.passwordFocused()) {
            return Optional.of(Refusal.secureInput("the focused element is a password field: no capture"));
        }
        if (pixels && facts.keyboardGrabbed()) {
            return Optional.of(Refusal.secureInput("another client holds a keyboard grab: no capture"));
        }
        Optional<Refusal> deny = DenyScan.scan(config, facts);
        if (deny.isPresent()) {
            return deny;
        }
        Optional<Refusal> scope = scope(grant, facts, windowId);
        if (scope.isPresent()) {
            return scope;
        }
        if (pixels && grant.capture() != CaptureMode.PIXELS) {
            return Optional.of(Refusal.outOfScope("grant " + grant.id() + " is a11y_only: no pixels"));
        }
        // a local page can show any file the browser can read where its tree does not (a frame hidden from it: round
        // 14's L6 showed the owner token so): its pixels are withheld as under secure input, and the tree goes on alone
        if (pixels
                && facts.targetIsBrowser()
                && facts.browserHost().map(Facts.LOCAL_DOCUMENT::equals).orElse(false)) {
            return Optional.of(Refusal.secureInput("the tab shows a local document (file://), which may show files"
                    + " the accessibility tree does not: no capture"));
        }
        return Optional.empty();
    }

    private static Optional<Refusal> scope(Grant grant, Facts facts, long windowId) {
        Optional<Facts.WindowFact> w = facts.window(windowId);
        if (w.isEmpty()) {
            return Optional.of(Refusal.outOfScope("window " + hex(windowId) + " is not on screen"));
        }
        if (grant.scope() == ScopeKind.WINDOW && windowId != grant.target().windowId()) {
            return Optional.of(Refusal.outOfScope("window " + describe(w.get()) + " is not the granted window "
                    + hex(grant.target().windowId())));
        }
        if (grant.scope() == ScopeKind.APP
                && !w.get().app().equalsIgnoreCase(grant.target().app())) {
            return Optional.of(Refusal.outOfScope("window " + describe(w.get()) + " is not of the granted app "
                    + grant.target().app()));
        }
        if (windowId == grant.target().windowId()) {
            return binding(grant.target(), w.get());
        }
        return Optional.empty();
    }

    /** The granted window must still be the one granted: same WM_CLASS, process and process start. */
    private static Optional<Refusal> binding(GrantTarget t, Facts.WindowFact w) {
        String diff = null;
        if (!w.app().equalsIgnoreCase(t.app())) {
            diff = "WM_CLASS " + t.app() + " → " + w.app();
        } else if (w.pid() != t.pid()) {
            diff = "process " + t.pid() + " → " + w.pid();
        } else if (w.processStart() != t.processStart()) {
            diff = "process start " + t.processStart() + " → " + w.processStart();
        }
        if (diff == null) return Optional.empty();
        return Optional.of(Refusal.outOfScope("window " + hex(w.windowId()) + " is no longer the granted window ("
                + diff + "): a reused window id never carries a grant"));
    }

    /**
     * On a {@code window} grant: a separate top-level of the target's client — transient for the target,
     * or modal — mapped and stacked over it takes the keys meant for the target (GTK routes them to its
     * modal dialog), so input is {@code OUT_OF_SCOPE} while it is there. On an {@code app} grant the
     * dialog is in scope.
     */
    static Optional<Refusal> dialogOver(Grant grant, Facts facts, long windowId) {
        if (grant.scope() != ScopeKind.WINDOW) return Optional.empty();
        return dialogsOver(facts, windowId).stream()
                .findFirst()
                .map(w -> Refusal.outOfScope("dialog " + describe(w)
                        + " of the same app is open over the granted window; it is outside this window grant"));
    }

    /**
     * The separate top-levels of {@code windowId}'s client — transient for it, or modal — mapped and
     * stacked over it, bottom to top: outside a window grant, observed with an app grant.
     */
    public static List<Facts.WindowFact> dialogsOver(Facts facts, long windowId) {
        Optional<Facts.WindowFact> target = facts.window(windowId);
        if (target.isEmpty()) return List.of();
        List<Facts.WindowFact> out = new ArrayList<>();
        for (Facts.WindowFact w : facts.windows()) {
            if (w.windowId() == windowId || !w.visible() || !w.sameClient(target.get())) continue;
            if ((w.transientFor() == windowId || w.modal())
                    && w.stacking() > target.get().stacking()) out.add(w);
        }
        return out;
    }

    private static PolicyDecision refuse(Refusal refusal) {
        return new PolicyDecision.Refuse(refusal);
    }

    /** The window's id and app (its WM_CLASS): never its title, which is the app's text and reaches the MCP client. */
    static String describe(Facts.WindowFact w) {
        return hex(w.windowId()) + " (" + w.app() + ")";
    }

    static String hex(long id) {
        return "0x" + Long.toHexString(id);
    }
}

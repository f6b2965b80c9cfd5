package dev.deckhand.grant;

import java.time.Duration;
import java.util.Set;

/**
 * An owner's revision of the active grant ({@link GrantBroker#revise}). Null fields stay as they are.
 * Every applied change bumps the revision, which invalidates uids, bases and approvals of the old one.
 *
 * @param target a new target binding (e.g. the window was re-created), or null
 * @param budget a new remaining budget, or null
 * @param blindInput allow or end blind input ({@link Grant#blindInput}), or null
 * @param releaseSession unbind the MCP session so the next session to use the grant owns it
 */
public record GrantChange(
        GrantTarget target,
        Integer budget,
        Duration idleExpiry,
        InputPolicy inputPolicy,
        CaptureMode capture,
        Set<String> consequential,
        Boolean blindInput,
        boolean releaseSession) {

    public GrantChange {
        if (budget != null) {
            MintRequest.requireBudget(budget, "budget");
        }
        if (idleExpiry != null) {
            MintRequest.requirePositive(idleExpiry, "idleExpiry");
        }
        if (consequential != null) {
            consequential = Consequential.normalize(consequential);
        }
    }

    /** No change at all (still bumps the revision when applied). */
    public static GrantChange none() {
        return new GrantChange(null, null, null, null, null, null, null, false);
    }

    public GrantChange withTarget(GrantTarget v) {
        return new GrantChange(v, budget, idleExpiry, inputPolicy, capture, consequential, blindInput, releaseSession);
    }

    public GrantChange withBudget(int v) {
        return new GrantChange(target, v, idleExpiry, inputPolicy, capture, consequential, blindInput, releaseSession);
    }

    public GrantChange withIdleExpiry(Duration v) {
        return new GrantChange(target, budget, v, inputPolicy, capture, consequential, blindInput, releaseSession);
    }

    public GrantChange withInputPolicy(InputPolicy v) {
        return new GrantChange(target, budget, idleExpiry, v, capture, consequential, blindInput, releaseSession);
    }

    public GrantChange withCapture(CaptureMode v) {
        return new GrantChange(target, budget, idleExpiry, inputPolicy, v, consequential, blindInput, releaseSession);
    }

    public GrantChange withConsequential(Set<String> v) {
        return new GrantChange(target, budget, idleExpiry, inputPolicy, capture, v, blindInput, releaseSession);
    }

    public GrantChange withBlindInput(boolean v) {
        return new GrantChange(target, budget, idleExpiry, inputPolicy, capture, consequential, v, releaseSession);
    }

    public GrantChange withReleaseSession(boolean v) {
        return new GrantChange(target, budget, idleExpiry, inputPolicy, capture, consequential, blindInput, v);
    }
}

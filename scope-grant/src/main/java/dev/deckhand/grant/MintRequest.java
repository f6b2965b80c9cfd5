package dev.deckhand.grant;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * What the person asks for when minting ({@code POST /api/grants}). The REST layer fills omitted
 * fields from {@link PolicyConfig.Caps} with {@link #of(GrantTarget, ScopeKind, PolicyConfig.Caps)}.
 *
 * @param budget input actions the grant allows, 1..{@value #MAX_BUDGET}
 * @param consequential named consequential actions; see {@link Consequential} for the entry forms
 * @param blindInput input the tree does not show the receiver of is allowed ({@link Grant#blindInput})
 */
public record MintRequest(
        GrantTarget target,
        ScopeKind scope,
        int budget,
        Duration idleExpiry,
        InputPolicy inputPolicy,
        CaptureMode capture,
        Set<String> consequential,
        boolean blindInput) {

    public static final int MAX_BUDGET = 10_000;

    public MintRequest {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(scope, "scope");
        requireBudget(budget, "budget");
        requirePositive(idleExpiry, "idleExpiry");
        Objects.requireNonNull(inputPolicy, "inputPolicy");
        Objects.requireNonNull(capture, "capture");
        consequential = Consequential.normalize(consequential);
        Grant.requireBlindOnPixels(blindInput, capture);
    }

    /** Defaults: the caps' budget and idle expiry, {@code confirm_each}, {@code a11y_only}, nothing named, no blind input. */
    public static MintRequest of(GrantTarget target, ScopeKind scope, PolicyConfig.Caps caps) {
        return new MintRequest(
                target,
                scope,
                caps.budget(),
                caps.idleExpiry(),
                InputPolicy.CONFIRM_EACH,
                CaptureMode.A11Y_ONLY,
                Set.of(),
                false);
    }

    public MintRequest withBudget(int v) {
        return new MintRequest(target, scope, v, idleExpiry, inputPolicy, capture, consequential, blindInput);
    }

    public MintRequest withIdleExpiry(Duration v) {
        return new MintRequest(target, scope, budget, v, inputPolicy, capture, consequential, blindInput);
    }

    public MintRequest withInputPolicy(InputPolicy v) {
        return new MintRequest(target, scope, budget, idleExpiry, v, capture, consequential, blindInput);
    }

    public MintRequest withCapture(CaptureMode v) {
        return new MintRequest(target, scope, budget, idleExpiry, inputPolicy, v, consequential, blindInput);
    }

    public MintRequest withConsequential(Set<String> v) {
        return new MintRequest(target, scope, budget, idleExpiry, inputPolicy, capture, v, blindInput);
    }

    public MintRequest withBlindInput(boolean v) {
        return new MintRequest(target, scope, budget, idleExpiry, inputPolicy, capture, consequential, v);
    }

    static void requireBudget(int budget, String field) {
        if (budget < 1 || budget > MAX_BUDGET) {
            throw new IllegalArgumentException(field + " must be in 1.." + MAX_BUDGET + ", was " + budget);
        }
    }

    static Duration requirePositive(Duration d, String field) {
        Objects.requireNonNull(d, field);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(field + " must be positive, was " + d);
        }
        return d;
    }
}

package dev.deckhand.loop;

import dev.deckhand.grant.Refusal;

/** How a run ended (DESIGN.md §2). Says nothing about success: that is the verdict's job. */
public enum Outcome {
    COMPLETED, FAILED, REFUSED, STOPPED, BUDGET_EXHAUSTED, EXPIRED, TIMED_OUT;

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The outcome a refusal ends a run with: {@code STOPPED} and {@code GRANT_REVOKED} → stopped (a revoke
     * is a Stop), {@code BUDGET_EXHAUSTED} → budget_exhausted, {@code GRANT_EXPIRED} → expired, any
     * other → refused.
     */
    public static Outcome of(Refusal refusal) {
        switch (refusal.code()) {
            case STOPPED:
            case GRANT_REVOKED:
                return STOPPED;
            case BUDGET_EXHAUSTED:
                return BUDGET_EXHAUSTED;
            case GRANT_EXPIRED:
                return EXPIRED;
            default:
                return REFUSED;
        }
    }
}

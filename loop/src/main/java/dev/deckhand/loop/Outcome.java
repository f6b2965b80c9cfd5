package dev.deckhand.loop;

import dev.deckhand.grant.Refusal;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * How a run ended (docs/contract.md#result) and what ended it. Says nothing about success: that is the verdict's
 * job. Build one with the factory named by the outcome ({@link #completed}, {@link #failed},
 * {@link #timedOut}, {@link #budgetExhausted}) or, for a refusal, with {@link #endedBy}, which knows
 * which refusals are a Stop, an expiry or the grant's budget.
 */
public sealed interface Outcome
        permits Outcome.Completed,
                Outcome.Failed,
                Outcome.Refused,
                Outcome.Stopped,
                Outcome.BudgetExhausted,
                Outcome.Expired,
                Outcome.TimedOut {

    /** The outcome's name on the wire ({@link #wire()}) and in the audit log. */
    enum Kind {
        COMPLETED,
        FAILED,
        REFUSED,
        STOPPED,
        BUDGET_EXHAUSTED,
        EXPIRED,
        TIMED_OUT;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    Kind kind();

    /**
     * The refusal that ended the run: always present for refused, stopped and expired; for
     * budget_exhausted when the grant's budget (not the run's step cap) ended it; empty otherwise.
     */
    Optional<Refusal> refusal();

    /** What ended the run, in words: the model's summary, the failure, the refusal's line. */
    String text();

    default String wire() {
        return kind().wire();
    }

    /** This outcome with every text it carries (the refusal's detail included) passed through {@code f}. */
    default Outcome mapText(java.util.function.UnaryOperator<String> f) {
        if (this instanceof Completed c) return new Completed(f.apply(c.text()));
        if (this instanceof Failed c) return new Failed(f.apply(c.text()));
        if (this instanceof TimedOut c) return new TimedOut(f.apply(c.text()));
        if (this instanceof BudgetExhausted c)
            return new BudgetExhausted(c.cause().map(r -> mapped(r, f)), f.apply(c.text()));
        if (this instanceof Refused c) return new Refused(mapped(c.cause(), f));
        if (this instanceof Stopped c) return new Stopped(mapped(c.cause(), f));
        Expired e = (Expired) this;
        return new Expired(mapped(e.cause(), f));
    }

    private static Refusal mapped(Refusal r, java.util.function.UnaryOperator<String> f) {
        return r.withDetail(f.apply(r.detail()));
    }

    /** The acting phase ran to its end: {@code done}, or every explicit step. */
    static Outcome completed(String summary) {
        return new Completed(summary);
    }

    /** The model gave up ({@code fail}), a step could not be resolved, the driver or the run failed. */
    static Outcome failed(String reason) {
        return new Failed(reason);
    }

    /** The run's wall clock ran out. */
    static Outcome timedOut(String what) {
        return new TimedOut(what);
    }

    /**
     * A refusal before the run started (a request check, the grant, the policy file, the display): refused
     * whatever the code, since nothing ran that a Stop or an expiry could have ended.
     */
    static Outcome refused(Refusal refusal) {
        return new Refused(refusal);
    }

    /** The run's step cap was reached (the grant's budget ends a run through {@link #endedBy}). */
    static Outcome budgetExhausted(String what) {
        return new BudgetExhausted(Optional.empty(), what);
    }

    /**
     * The outcome a refusal ends a run with: {@code STOPPED} and {@code GRANT_REVOKED} → stopped (a revoke
     * is a Stop), {@code BUDGET_EXHAUSTED} → budget_exhausted, {@code GRANT_EXPIRED} → expired, any other →
     * refused.
     */
    static Outcome endedBy(Refusal refusal) {
        switch (refusal.code()) {
            case STOPPED:
            case GRANT_REVOKED:
                return new Stopped(refusal);
            case BUDGET_EXHAUSTED:
                return new BudgetExhausted(Optional.of(refusal), refusal.toString());
            case GRANT_EXPIRED:
                return new Expired(refusal);
            default:
                return new Refused(refusal);
        }
    }

    record Completed(String text) implements Outcome {
        public Completed {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public Kind kind() {
            return Kind.COMPLETED;
        }

        @Override
        public Optional<Refusal> refusal() {
            return Optional.empty();
        }
    }

    record Failed(String text) implements Outcome {
        public Failed {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public Kind kind() {
            return Kind.FAILED;
        }

        @Override
        public Optional<Refusal> refusal() {
            return Optional.empty();
        }
    }

    record Refused(Refusal cause) implements Outcome {
        public Refused {
            Objects.requireNonNull(cause, "cause");
        }

        @Override
        public Kind kind() {
            return Kind.REFUSED;
        }

        @Override
        public Optional<Refusal> refusal() {
            return Optional.of(cause);
        }

        @Override
        public String text() {
            return cause.toString();
        }
    }

    /** Stop, an MCP cancellation or a revoke. */
    record Stopped(Refusal cause) implements Outcome {
        public Stopped {
            Objects.requireNonNull(cause, "cause");
        }

        @Override
        public Kind kind() {
            return Kind.STOPPED;
        }

        @Override
        public Optional<Refusal> refusal() {
            return Optional.of(cause);
        }

        @Override
        public String text() {
            return cause.toString();
        }
    }

    /** @param cause the grant's {@code BUDGET_EXHAUSTED}, or empty when the run's own step cap ended it */
    record BudgetExhausted(Optional<Refusal> cause, String text) implements Outcome {
        public BudgetExhausted {
            Objects.requireNonNull(cause, "cause");
            Objects.requireNonNull(text, "text");
        }

        @Override
        public Kind kind() {
            return Kind.BUDGET_EXHAUSTED;
        }

        @Override
        public Optional<Refusal> refusal() {
            return cause;
        }
    }

    record Expired(Refusal cause) implements Outcome {
        public Expired {
            Objects.requireNonNull(cause, "cause");
        }

        @Override
        public Kind kind() {
            return Kind.EXPIRED;
        }

        @Override
        public Optional<Refusal> refusal() {
            return Optional.of(cause);
        }

        @Override
        public String text() {
            return cause.toString();
        }
    }

    record TimedOut(String text) implements Outcome {
        public TimedOut {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public Kind kind() {
            return Kind.TIMED_OUT;
        }

        @Override
        public Optional<Refusal> refusal() {
            return Optional.empty();
        }
    }
}

package dev.deckhand.audit;

import dev.deckhand.grant.RefusalCode;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * A filtered page request, newest first (seq descending). Every filter is optional (null or empty
 * means "any"); filters combine with AND.
 *
 * @param kinds record kinds to include; empty for all
 * @param runId exact run id
 * @param grantId exact grant id
 * @param actionKind exact action kind (intents and results only)
 * @param outcome exact stored outcome, lower case: an {@link ActionOutcome} name for action results
 *     (e.g. {@code refused}) or a run outcome wire name for runs (e.g. {@code budget_exhausted})
 * @param refusalCode exact refusal code
 * @param from records at or after this instant
 * @param to records strictly before this instant
 * @param beforeSeq keyset cursor: only records with seq below this (pass the previous page's
 *     {@link AuditPage#nextCursor()})
 * @param limit page size, 1..1000
 */
public record AuditQuery(
        Set<RecordKind> kinds,
        String runId,
        String grantId,
        ActionKind actionKind,
        String outcome,
        RefusalCode refusalCode,
        Instant from,
        Instant to,
        Long beforeSeq,
        int limit) {
    public static final int MAX_LIMIT = 1000;

    public AuditQuery {
        kinds = kinds == null || kinds.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(kinds));
        Fields.optId("runId", runId);
        Fields.optId("grantId", grantId);
        outcome = outcome == null ? null : Fields.optId("outcome", outcome).toLowerCase(Locale.ROOT);
        if (from != null && to != null && to.isBefore(from)) {
            throw new IllegalArgumentException("to must not be before from");
        }
        if (beforeSeq != null && beforeSeq < 1) {
            throw new IllegalArgumentException("beforeSeq must be >= 1");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT);
        }
    }

    /** A builder starting from "everything, 50 per page". */
    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.kinds = kinds;
        b.runId = runId;
        b.grantId = grantId;
        b.actionKind = actionKind;
        b.outcome = outcome;
        b.refusalCode = refusalCode;
        b.from = from;
        b.to = to;
        b.beforeSeq = beforeSeq;
        b.limit = limit;
        return b;
    }

    /** Builder for {@link AuditQuery}. */
    public static final class Builder {
        private Set<RecordKind> kinds = Set.of();
        private String runId;
        private String grantId;
        private ActionKind actionKind;
        private String outcome;
        private RefusalCode refusalCode;
        private Instant from;
        private Instant to;
        private Long beforeSeq;
        private int limit = 50;

        public Builder kinds(Set<RecordKind> v) {
            kinds = v;
            return this;
        }

        public Builder kinds(RecordKind first, RecordKind... rest) {
            kinds = EnumSet.of(first, rest);
            return this;
        }

        public Builder runId(String v) {
            runId = v;
            return this;
        }

        public Builder grantId(String v) {
            grantId = v;
            return this;
        }

        public Builder actionKind(ActionKind v) {
            actionKind = v;
            return this;
        }

        public Builder outcome(String v) {
            outcome = v;
            return this;
        }

        public Builder refusalCode(RefusalCode v) {
            refusalCode = v;
            return this;
        }

        public Builder from(Instant v) {
            from = v;
            return this;
        }

        public Builder to(Instant v) {
            to = v;
            return this;
        }

        public Builder beforeSeq(Long v) {
            beforeSeq = v;
            return this;
        }

        public Builder limit(int v) {
            limit = v;
            return this;
        }

        public AuditQuery build() {
            return new AuditQuery(kinds, runId, grantId, actionKind, outcome, refusalCode, from, to, beforeSeq, limit);
        }
    }
}

package dev.deckhand.audit;

import dev.deckhand.grant.RefusalCode;
import java.time.Instant;

/**
 * A finished run (docs/design.md#audit). The instruction is stored: it is the user's task. Typed text is
 * not part of a run record.
 *
 * @param runId required
 * @param instruction the user's instruction, at most 20,000 chars
 * @param route the router's decision as a short token (e.g. {@code uid}, {@code pixels}, {@code read_only})
 * @param grantId the grant used, or null when the run was refused before it had one
 * @param stepsRun steps performed (>= 0)
 * @param verifierKind the declared verifier's kind ({@code a11y}, {@code window}, {@code file},
 *     {@code command}) or null when none was declared
 * @param verifierResult the verifier's own result
 * @param verdict pass, fail or none: from the verifier only
 * @param outcome the run's outcome
 * @param refusalCode required when outcome is {@link Outcome#REFUSED}; also names why a run was stopped,
 *     expired or ran out of budget; absent when it completed
 * @param startedAt when the run started
 * @param endedAt when it ended (not before startedAt)
 * @param model which model ran and what it used, and its own final report; null when no model was asked
 * @param timings per phase, e.g. {@code "model=812ms verifier=40ms approval=0ms host=95ms"}; null when not run
 */
public record RunRecord(
        String runId,
        String instruction,
        String route,
        String grantId,
        int stepsRun,
        String verifierKind,
        VerifierResult verifierResult,
        Verdict verdict,
        Outcome outcome,
        RefusalCode refusalCode,
        Instant startedAt,
        Instant endedAt,
        ModelUse model,
        String timings)
        implements AuditEvent {

    /**
     * The model's part of a run.
     *
     * @param costUsd US dollars as a decimal string, null when the model is unpriced
     * @param finalReport the model's own words when it said done or fail, at most 2,000 characters; never a
     *     verdict (the verdict comes only from the verifier); null when it said neither
     */
    public record ModelUse(
            String provider,
            String model,
            int modelTurns,
            long inputTokens,
            long outputTokens,
            String costUsd,
            String finalReport) {
        public static final int MAX_REPORT = 2_000;

        public ModelUse {
            Fields.required("provider", provider);
            Fields.required("model", model);
            if (modelTurns < 0 || inputTokens < 0 || outputTokens < 0) {
                throw new IllegalArgumentException("modelTurns, inputTokens and outputTokens must be >= 0");
            }
            if (costUsd != null && !costUsd.matches("\\d{1,12}(\\.\\d{1,9})?")) {
                throw new IllegalArgumentException("costUsd must be a non-negative decimal");
            }
            if (finalReport != null && finalReport.length() > MAX_REPORT) {
                finalReport = finalReport.substring(0, MAX_REPORT - 1) + "…";
            }
        }

        /** Marks the report for every reader: it is the model's claim, not the verdict. */
        @com.fasterxml.jackson.annotation.JsonProperty("finalReportIsVerdict")
        public boolean finalReportIsVerdict() {
            return false;
        }
    }

    /** A run record without the model's part (refused before any model turn, or explicit steps). */
    public RunRecord(
            String runId,
            String instruction,
            String route,
            String grantId,
            int stepsRun,
            String verifierKind,
            VerifierResult verifierResult,
            Verdict verdict,
            Outcome outcome,
            RefusalCode refusalCode,
            Instant startedAt,
            Instant endedAt) {
        this(
                runId,
                instruction,
                route,
                grantId,
                stepsRun,
                verifierKind,
                verifierResult,
                verdict,
                outcome,
                refusalCode,
                startedAt,
                endedAt,
                null,
                null);
    }

    /** The run outcomes of docs/contract.md#result; {@link #wire()} is the stored value. */
    public enum Outcome {
        COMPLETED,
        FAILED,
        REFUSED,
        STOPPED,
        BUDGET_EXHAUSTED,
        EXPIRED,
        TIMED_OUT;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** What the verifier itself reported. */
    public enum VerifierResult {
        PASS,
        FAIL,
        TIMEOUT,
        ERROR,
        NOT_RUN
    }

    /** The verdict, written only from the verifier's result. */
    public enum Verdict {
        PASS,
        FAIL,
        NONE
    }

    public RunRecord {
        Fields.id("runId", runId);
        Fields.required("instruction", instruction);
        if (instruction.length() > Fields.MAX_INSTRUCTION) {
            throw new IllegalArgumentException("instruction must be at most " + Fields.MAX_INSTRUCTION + " characters");
        }
        Fields.optId("route", route);
        Fields.optId("grantId", grantId);
        if (stepsRun < 0) {
            throw new IllegalArgumentException("stepsRun must be >= 0");
        }
        Fields.optId("verifierKind", verifierKind);
        Fields.required("verifierResult", verifierResult);
        Fields.required("verdict", verdict);
        Fields.required("outcome", outcome);
        if (outcome == Outcome.REFUSED && refusalCode == null) {
            throw new IllegalArgumentException("refusalCode is required when outcome is REFUSED");
        }
        if (outcome == Outcome.COMPLETED && refusalCode != null) {
            throw new IllegalArgumentException("refusalCode must be absent when outcome is COMPLETED");
        }
        Fields.required("startedAt", startedAt);
        Fields.required("endedAt", endedAt);
        if (endedAt.isBefore(startedAt)) {
            throw new IllegalArgumentException("endedAt must not be before startedAt");
        }
    }

    @Override
    public RecordKind recordKind() {
        return RecordKind.RUN;
    }
}

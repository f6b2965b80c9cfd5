package dev.deckhand.mcp;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.Usage;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The {@code structuredContent} of a {@code computer} call (docs/contract.md#result).
 *
 * @param refusal present only when {@code outcome} is {@code refused}
 * @param summary at most 2,000 characters
 * @param usage model turns, tokens and cost (docs/contract.md#result); always present
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolResult(
        String runId,
        String outcome,
        String verdict,
        int stepsRun,
        RefusalView refusal,
        String summary,
        UsageView usage) {

    public static final int SUMMARY_LIMIT = 2000;

    public ToolResult {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(usage, "usage");
        if (summary.length() > SUMMARY_LIMIT) {
            throw new IllegalArgumentException("summary must be at most " + SUMMARY_LIMIT + " characters");
        }
    }

    /** The refusal as it travels: code and what fired. */
    public record RefusalView(String code, String detail) {
        public static RefusalView of(Refusal refusal) {
            return new RefusalView(refusal.code().name(), refusal.detail());
        }
    }

    /** {@code usage} as it travels: {@code costUsd} is null (and present) when the model is unpriced. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record UsageView(int modelTurns, long inputTokens, long outputTokens, BigDecimal costUsd) {
        public static UsageView of(Usage u) {
            return new UsageView(
                    u.modelTurns(),
                    u.inputTokens(),
                    u.outputTokens(),
                    u.costUsd().orElse(null));
        }
    }

    /** The result of a run as it travels to the agent (MCP) or the terminal ({@code deckhand run --json}). */
    public static ToolResult of(RunResult r) {
        return new ToolResult(
                r.runId(),
                r.outcome().wire(),
                r.verdict().wire(),
                r.stepsRun(),
                r.refusal().map(RefusalView::of).orElse(null),
                r.summary(),
                UsageView.of(r.usage()));
    }
}

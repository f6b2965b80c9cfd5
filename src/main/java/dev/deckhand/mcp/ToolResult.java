package dev.deckhand.mcp;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.deckhand.grant.Refusal;
import java.util.Objects;

/**
 * The {@code structuredContent} of a {@code computer} call (DESIGN.md §2).
 *
 * @param refusal present only when {@code outcome} is {@code refused}
 * @param summary at most 2,000 characters
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolResult(String runId, String outcome, String verdict, int stepsRun, RefusalView refusal,
        String summary) {

    public static final int SUMMARY_LIMIT = 2000;

    public ToolResult {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(summary, "summary");
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

    public static ToolResult refused(String runId, int stepsRun, String verdict, Refusal refusal) {
        return new ToolResult(runId, "refused", verdict, stepsRun, RefusalView.of(refusal), bound(refusal.toString()));
    }

    static String bound(String s) {
        return s.length() <= SUMMARY_LIMIT ? s : s.substring(0, SUMMARY_LIMIT - 1) + "…";
    }
}

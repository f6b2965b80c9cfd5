package dev.deckhand.eval;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One row of {@code report.json} (docs/design.md#task-format, exactly these fields; absent values are {@code null}).
 * {@code error} names a harness failure, and such a row is never {@code expected}.
 *
 * @param expect what the task expected, for the table (not part of the JSON row)
 * @param summary the run's bounded summary or the error, for report.md (not part of the JSON row)
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({
    "id",
    "app",
    "outcome",
    "verdict",
    "refusal",
    "expected",
    "steps",
    "modelTurns",
    "inputTokens",
    "outputTokens",
    "costUsd",
    "route",
    "provider",
    "model",
    "error",
    "wallMs"
})
public record TaskResult(
        String id,
        String app,
        String outcome,
        String verdict,
        String refusal,
        boolean expected,
        int steps,
        int modelTurns,
        long inputTokens,
        long outputTokens,
        Double costUsd,
        String route,
        String provider,
        String model,
        String error,
        long wallMs,
        @JsonIgnore TaskSpec.Expect expect,
        @JsonIgnore String summary) {

    /** Whether this row is a safety task (its correct result is a refusal). */
    @JsonIgnore
    public boolean safety() {
        return expect != null && expect.safety();
    }

    /** Reads a row back from a stored report (the two table-only fields are lost). */
    static TaskResult fromJson(JsonNode n) {
        return new TaskResult(
                n.path("id").asText(),
                n.path("app").asText(),
                text(n, "outcome"),
                text(n, "verdict"),
                text(n, "refusal"),
                n.path("expected").asBoolean(),
                n.path("steps").asInt(),
                n.path("modelTurns").asInt(),
                n.path("inputTokens").asLong(),
                n.path("outputTokens").asLong(),
                n.hasNonNull("costUsd") ? n.get("costUsd").asDouble() : null,
                text(n, "route"),
                text(n, "provider"),
                text(n, "model"),
                text(n, "error"),
                n.path("wallMs").asLong(),
                null,
                null);
    }

    private static String text(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }

    static Builder builder(String id, String app, TaskSpec.Expect expect, TaskRunner.Settings settings) {
        return new Builder(id, app, expect, settings);
    }

    /** Collects a row while a task runs. */
    static final class Builder {
        private final String id;
        private final String app;
        private final TaskSpec.Expect expect;
        private String outcome;
        private String verdict;
        private String refusal;
        private int steps;
        private int modelTurns;
        private long inputTokens;
        private long outputTokens;
        private String route;
        private String provider;
        private String model;
        private String summary;

        private Builder(String id, String app, TaskSpec.Expect expect, TaskRunner.Settings settings) {
            this.id = id;
            this.app = app;
            this.expect = expect;
            if (settings != null && settings.mode() == TaskRunner.Mode.MODEL) {
                settings.binding().ifPresent(b -> {
                    provider = b.providerId();
                    model = b.modelId();
                });
            } else if (settings != null) {
                provider = "oracle";
            }
        }

        /** Takes what the child process reported. */
        Builder fromChild(JsonNode r) {
            outcome = TaskResult.text(r, "outcome");
            verdict = TaskResult.text(r, "verdict");
            refusal = TaskResult.text(r, "refusal");
            steps = r.path("steps").asInt();
            modelTurns = r.path("modelTurns").asInt();
            inputTokens = r.path("inputTokens").asLong();
            outputTokens = r.path("outputTokens").asLong();
            route = TaskResult.text(r, "route");
            summary = TaskResult.text(r, "summary");
            if (r.hasNonNull("provider")) provider = r.get("provider").asText();
            if (r.hasNonNull("model")) model = r.get("model").asText();
            return this;
        }

        TaskResult done(long t0) {
            boolean ok = outcome != null && expect.matches(outcome, verdict, refusal);
            return new TaskResult(
                    id,
                    app,
                    outcome,
                    verdict,
                    refusal,
                    ok,
                    steps,
                    modelTurns,
                    inputTokens,
                    outputTokens,
                    null,
                    route,
                    provider,
                    model,
                    null,
                    wall(t0),
                    expect,
                    summary);
        }

        TaskResult error(String why, long t0) {
            return new TaskResult(
                    id,
                    app,
                    outcome,
                    verdict,
                    refusal,
                    false,
                    steps,
                    modelTurns,
                    inputTokens,
                    outputTokens,
                    null,
                    route,
                    provider,
                    model,
                    why,
                    wall(t0),
                    expect,
                    why);
        }

        private static long wall(long t0) {
            return (System.nanoTime() - t0) / 1_000_000;
        }
    }
}

package dev.deckhand.run;

import dev.deckhand.audit.RunRecord;
import dev.deckhand.loop.Usage;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ActionParser;
import java.util.Optional;

/**
 * What the run record keeps beside the result: which model answered, what it used, its own final
 * report (never a verdict), and the time spent per phase. Filled while the run goes on, read once
 * when it is recorded.
 */
final class RunNotes {

    private volatile RunRecord.ModelUse model;
    private volatile String timings;

    /** After the loop: the model's part, when a model was asked and answered at least once. */
    void model(UsageTally tally, Usage usage, Optional<String> lastAnswer) {
        if (tally.provider().isEmpty() || tally.model().isEmpty()) return;
        String report = lastAnswer.flatMap(RunNotes::report).orElse(null);
        model = new RunRecord.ModelUse(
                tally.provider().get(),
                tally.model().get(),
                usage.modelTurns(),
                usage.inputTokens(),
                usage.outputTokens(),
                usage.costUsd().map(c -> c.toPlainString()).orElse(null),
                report);
    }

    /**
     * Milliseconds per phase: waiting for the model, the verifier, approvals, and the host's own work; then
     * the actions delivered and the whole run's breakdown ({@link StepPhases#totals()}), e.g. {@code "model=0ms
     * verifier=3ms approval=0ms host=95ms | steps=1 observe=9.1ms facts=12.0ms ... other=2.3ms"}.
     */
    void timings(
            long modelNanos, long verifierNanos, long approvalNanos, long totalNanos, int steps, String breakdown) {
        long host = Math.max(0, totalNanos - modelNanos - verifierNanos - approvalNanos);
        timings = "model=" + modelNanos / 1_000_000 + "ms verifier=" + verifierNanos / 1_000_000 + "ms approval="
                + approvalNanos / 1_000_000 + "ms host=" + host / 1_000_000 + "ms | steps=" + steps + " " + breakdown;
    }

    RunRecord.ModelUse model() {
        return model;
    }

    String timings() {
        return timings;
    }

    /** The summary of a done, or the reason of a fail, in the model's last answer. */
    static Optional<String> report(String raw) {
        try {
            Action a = ActionParser.parse(raw);
            if (a instanceof Action.Done d) return Optional.of(d.summary());
            if (a instanceof Action.Fail f) return Optional.of(f.reason());
        } catch (RuntimeException notAnAction) {
            // the last answer was not a done or fail the parser accepts: no report
        }
        return Optional.empty();
    }
}

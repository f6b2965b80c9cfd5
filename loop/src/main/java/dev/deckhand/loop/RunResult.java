package dev.deckhand.loop;

import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.route.Route;
import dev.deckhand.loop.verify.Verdict;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of a run (docs/contract.md#result).
 *
 * @param outcome how the run ended, with the refusal that ended it
 * @param verdict from the verifier only
 * @param stepsRun actions delivered (wait included; done/fail and refused actions are not counted)
 * @param summary bounded, at most {@value #MAX_SUMMARY} characters
 * @param route the route taken, empty when the run ended before routing
 * @param verifierDetail what the verifier found, or why there is no verdict
 * @param usage the model turns, tokens and cost of the run ({@link Usage#NONE} when no model was asked)
 */
public record RunResult(
        String runId,
        Outcome outcome,
        Verdict verdict,
        int stepsRun,
        String summary,
        Optional<Route> route,
        String verifierDetail,
        Usage usage) {

    public static final int MAX_SUMMARY = 2_000;
    static final String NOT_RUN = "not run: the request was refused before the run started";

    public RunResult {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(verifierDetail, "verifierDetail");
        Objects.requireNonNull(usage, "usage");
        if (stepsRun < 0) throw new IllegalArgumentException("stepsRun must be >= 0");
        if (summary.length() > MAX_SUMMARY)
            throw new IllegalArgumentException("summary must be at most " + MAX_SUMMARY + " characters");
    }

    /**
     * A call refused before its run started (MODE_DENIED, NO_VERIFIER, the policy file, the grant, the
     * display...): nothing ran, not even the verifier.
     */
    public static RunResult notStarted(String runId, Refusal refusal) {
        return new RunResult(
                runId,
                Outcome.refused(refusal),
                Verdict.NONE,
                0,
                bound("refused: " + refusal),
                Optional.empty(),
                NOT_RUN);
    }

    /** A result of a run that asked no model. */
    public RunResult(
            String runId,
            Outcome outcome,
            Verdict verdict,
            int stepsRun,
            String summary,
            Optional<Route> route,
            String verifierDetail) {
        this(runId, outcome, verdict, stepsRun, summary, route, verifierDetail, Usage.NONE);
    }

    /** This result with the run's model use. */
    public RunResult withUsage(Usage u) {
        return new RunResult(runId, outcome, verdict, stepsRun, summary, route, verifierDetail, u);
    }

    /**
     * This result with every text it carries passed through {@code f} (the summary bound again): how the
     * server withholds its own secrets from what leaves it.
     */
    public RunResult mapText(java.util.function.UnaryOperator<String> f) {
        return new RunResult(
                runId,
                outcome.mapText(f),
                verdict,
                stepsRun,
                bound(f.apply(summary)),
                route,
                f.apply(verifierDetail),
                usage);
    }

    /** The refusal that ended the run, also for stopped, expired and a grant's budget_exhausted. */
    public Optional<Refusal> refusal() {
        return outcome.refusal();
    }

    static String bound(String s) {
        return s.length() <= MAX_SUMMARY ? s : s.substring(0, MAX_SUMMARY - 1) + "…";
    }
}

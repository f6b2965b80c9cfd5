package dev.deckhand.loop;

import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.route.Route;
import dev.deckhand.loop.verify.Verdict;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of a run (DESIGN.md §2).
 *
 * @param verdict from the verifier only
 * @param stepsRun actions delivered (wait included; done/fail and refused actions are not counted)
 * @param refusal present when a refusal ended the run (also for stopped, budget_exhausted, expired)
 * @param summary bounded, at most {@value #MAX_SUMMARY} characters
 * @param route the route taken, empty when the run ended before routing
 * @param verifierDetail what the verifier found, or why there is no verdict
 * @param usage the model turns, tokens and cost of the run ({@link Usage#NONE} when no model was asked)
 */
public record RunResult(String runId, Outcome outcome, Verdict verdict, int stepsRun, Optional<Refusal> refusal,
        String summary, Optional<Route> route, String verifierDetail, Usage usage) {

    public static final int MAX_SUMMARY = 2_000;

    public RunResult {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(refusal, "refusal");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(verifierDetail, "verifierDetail");
        Objects.requireNonNull(usage, "usage");
        if (stepsRun < 0) throw new IllegalArgumentException("stepsRun must be >= 0");
        if (summary.length() > MAX_SUMMARY) throw new IllegalArgumentException("summary must be at most " + MAX_SUMMARY + " characters");
        if (outcome == Outcome.REFUSED && refusal.isEmpty()) throw new IllegalArgumentException("refusal is required when refused");
    }

    /** A result of a run that asked no model. */
    public RunResult(String runId, Outcome outcome, Verdict verdict, int stepsRun, Optional<Refusal> refusal,
            String summary, Optional<Route> route, String verifierDetail) {
        this(runId, outcome, verdict, stepsRun, refusal, summary, route, verifierDetail, Usage.NONE);
    }

    /** This result with the run's model use. */
    public RunResult withUsage(Usage u) {
        return new RunResult(runId, outcome, verdict, stepsRun, refusal, summary, route, verifierDetail, u);
    }
}

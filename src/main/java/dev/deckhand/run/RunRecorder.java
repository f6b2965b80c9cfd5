package dev.deckhand.run;

import dev.deckhand.audit.ApprovalEvent;
import dev.deckhand.audit.AuditLog;
import dev.deckhand.audit.RunRecord;
import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.Refusal;
import dev.deckhand.home.PublishedSecrets;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.verify.VerifierSpec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.function.BiConsumer;
import org.jboss.logging.Logger;

/**
 * Writes a run's records to the audit log: the run record when it ends (every run, refused ones
 * included) and its approval cards as they are raised and decided. The action records are the loop's
 * {@link AuditTrail}, whose last result waits in the log for the next commit: the run record's or a
 * card's append commits it first, in the same transaction.
 */
@ApplicationScoped
public class RunRecorder {

    private static final Logger LOG = Logger.getLogger(RunRecorder.class);

    private final AuditLog audit;
    private final Clock clock;

    @Inject
    public RunRecorder(AuditLog audit, Clock clock) {
        this.audit = audit;
        this.clock = clock;
    }

    /**
     * Records the finished run and returns its result with Deckhand's own secrets withheld from every text
     * (a backstop: the loop ends a run that reads one, but the model's summary or a provider's error may
     * still quote one). A record that cannot be written is
     * logged; the result still goes back to the caller.
     *
     * @param grantId the grant the run held, or null when it was refused before it had one
     */
    public RunResult finished(RunRequest request, RunResult r, String grantId, Instant started) {
        return finished(request, r, grantId, started, new RunNotes());
    }

    /** As {@link #finished(RunRequest, RunResult, String, Instant)}, with the model's part and the timings. */
    RunResult finished(RunRequest request, RunResult r, String grantId, Instant started, RunNotes notes) {
        try {
            RunRecord.VerifierResult verifierResult =
                    switch (r.verdict()) {
                        case PASS -> RunRecord.VerifierResult.PASS;
                        case FAIL ->
                            r.verifierDetail().contains("timed out")
                                    ? RunRecord.VerifierResult.TIMEOUT
                                    : RunRecord.VerifierResult.FAIL;
                        case NONE -> RunRecord.VerifierResult.NOT_RUN;
                    };
            audit.append(new RunRecord(
                    request.runId(),
                    request.instruction(),
                    r.route().map(x -> x.name().toLowerCase(Locale.ROOT)).orElse(null),
                    grantId,
                    r.stepsRun(),
                    request.verifier().map(VerifierSpec::kind).orElse(null),
                    verifierResult,
                    RunRecord.Verdict.valueOf(r.verdict().name()),
                    RunRecord.Outcome.valueOf(r.outcome().kind().name()),
                    r.refusal().map(Refusal::code).orElse(null),
                    started,
                    clock.instant(),
                    notes.model(),
                    notes.timings()));
        } catch (RuntimeException e) {
            LOG.errorf("the run record of %s could not be written: %s", request.runId(), e.getMessage());
        }
        return r.mapText(PublishedSecrets::withhold);
    }

    /**
     * Commits what the log still defers (the last action's result) when run {@code runId} ends by an
     * exception that leaves no run record; a failure to write is logged, not thrown over the cause.
     */
    void flush(String runId) {
        try {
            audit.flush();
        } catch (RuntimeException e) {
            LOG.errorf("the last action record of %s could not be written: %s", runId, e.getMessage());
        }
    }

    /** The approval cards of run {@code runId}, as the guard raises and the person decides them. */
    public BiConsumer<ApprovalBook.Approval, ApprovalBook.Status> cards(String runId) {
        return (card, status) -> audit.append(new ApprovalEvent(
                switch (status) {
                    case PENDING -> ApprovalEvent.State.REQUESTED;
                    case APPROVED -> ApprovalEvent.State.APPROVED;
                    case EXPIRED -> ApprovalEvent.State.EXPIRED;
                    default -> ApprovalEvent.State.DENIED;
                },
                card.id(),
                runId,
                card.grantId(),
                card.revision(),
                Math.max(1, card.steps().size())));
    }
}

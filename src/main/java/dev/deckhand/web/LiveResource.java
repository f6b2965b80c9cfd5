package dev.deckhand.web;

import dev.deckhand.audit.AuditLog;
import dev.deckhand.audit.AuditQuery;
import dev.deckhand.audit.RunRecord;
import dev.deckhand.audit.StoredRecord;
import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.Grant;
import dev.deckhand.owner.GrantService;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /api/web/live}: everything the page must show without a reload, in one poll — the
 * active grant (for the indicator with Stop), the pending approval cards with their target role and
 * name and the window title, and the latest finished runs. The page polls it a few times a second
 * (short polling was chosen over SSE: one request shape, no held connections, nothing to reconnect).
 * Never a token, key, typed text or pixels.
 */
@Path("/api/web/live")
public class LiveResource {

    /** How many finished runs the live view carries. */
    static final int RECENT_RUNS = 5;

    @Inject
    GrantService grants;

    @Inject
    AuditLog audit;

    /** The grant as the indicator shows it; {@code bound} says an MCP session holds it. */
    public record GrantCard(
            String id,
            long revision,
            long windowId,
            String app,
            String title,
            String scope,
            int budgetRemaining,
            long idleExpirySeconds,
            Instant expiresAt,
            String inputPolicy,
            String capture,
            Set<String> consequential,
            boolean blindInput,
            boolean bound) {
        static GrantCard of(Grant g) {
            return new GrantCard(
                    g.id(),
                    g.revision(),
                    g.target().windowId(),
                    g.target().app(),
                    g.target().title(),
                    g.scope().wire(),
                    g.budgetRemaining(),
                    g.idleExpiry().toSeconds(),
                    g.expiresAt(),
                    g.inputPolicy().wire(),
                    g.capture().wire(),
                    g.consequential(),
                    g.blindInput(),
                    g.ownerSession().isPresent());
        }
    }

    /**
     * A pending card. {@code targetRole}/{@code targetName} are the first step's resolved element (null
     * when the step has none, e.g. a key chord to the window); {@code windowTitle} is the granted window's.
     */
    public record ApprovalCard(
            String id,
            String grantId,
            List<String> steps,
            String consequential,
            String targetRole,
            String targetName,
            String windowTitle,
            Instant requestedAt,
            Instant expiresAt,
            long secondsLeft) {}

    /** A finished run, as the audit recorded it. */
    public record RunLine(
            long seq,
            String runId,
            String instruction,
            String outcome,
            String refusalCode,
            String verdict,
            int stepsRun,
            Instant endedAt) {
        static RunLine of(StoredRecord r) {
            RunRecord run = (RunRecord) r.event();
            return new RunLine(
                    r.seq(),
                    run.runId(),
                    run.instruction(),
                    run.outcome().wire(),
                    run.refusalCode() == null ? null : run.refusalCode().name(),
                    run.verdict().name().toLowerCase(java.util.Locale.ROOT),
                    run.stepsRun(),
                    run.endedAt());
        }
    }

    public record LiveView(Instant now, GrantCard grant, List<ApprovalCard> approvals, List<RunLine> recentRuns) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public LiveView live() {
        Instant now = grants.clock().instant();
        Optional<Grant> active = grants.broker().active();
        List<ApprovalCard> cards = grants.approvals().pending().stream()
                .map(a -> card(a, active, now))
                .toList();
        List<RunLine> runs = audit
                .store()
                .runs(AuditQuery.builder().limit(RECENT_RUNS).build())
                .records()
                .stream()
                .filter(r -> r.event() instanceof RunRecord)
                .map(RunLine::of)
                .toList();
        return new LiveView(now, active.map(GrantCard::of).orElse(null), cards, runs);
    }

    static ApprovalCard card(ApprovalBook.Approval a, Optional<Grant> active, Instant now) {
        Optional<StepTarget> target = a.steps().stream()
                .map(StepTarget::parse)
                .flatMap(Optional::stream)
                .findFirst();
        String title = active.filter(g -> g.id().equals(a.grantId()))
                .map(g -> g.target().title())
                .orElse(null);
        long left = Math.max(0, Duration.between(now, a.expiresAt()).toMillis() + 999) / 1000;
        return new ApprovalCard(
                a.id(),
                a.grantId(),
                a.steps(),
                a.consequential().orElse(null),
                target.map(StepTarget::role).orElse(null),
                target.map(StepTarget::name).orElse(null),
                title,
                a.requestedAt(),
                a.expiresAt(),
                left);
    }
}

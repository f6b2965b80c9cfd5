package dev.deckhand.audit;

import dev.deckhand.grant.RefusalCode;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.Map;

/**
 * {@code GET /api/audit/runs}, {@code /api/audit/actions} (filters, newest first, keyset paging with
 * {@code before}) and {@code /api/audit/verify} (the chain's first broken link). Owner token only.
 */
@Path("/api/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    /** A stored record with its kind named, for the page. */
    public record RecordView(long seq, Instant recordedAt, String kind, AuditEvent event) {}

    public record PageView(java.util.List<RecordView> records, Long nextCursor) {
        static PageView of(AuditPage page) {
            return new PageView(
                    page.records().stream()
                            .map(r -> new RecordView(
                                    r.seq(),
                                    r.recordedAt(),
                                    r.event().recordKind().name().toLowerCase(java.util.Locale.ROOT),
                                    r.event()))
                            .toList(),
                    page.nextCursor());
        }
    }

    @Inject
    AuditLog audit;

    @GET
    @Path("runs")
    public PageView runs(
            @QueryParam("runId") String runId,
            @QueryParam("grantId") String grantId,
            @QueryParam("outcome") String outcome,
            @QueryParam("refusal") String refusal,
            @QueryParam("from") String from,
            @QueryParam("to") String to,
            @QueryParam("before") Long before,
            @QueryParam("limit") Integer limit) {
        return PageView.of(audit.store().runs(query(runId, grantId, null, outcome, refusal, from, to, before, limit)));
    }

    @GET
    @Path("actions")
    public PageView actions(
            @QueryParam("runId") String runId,
            @QueryParam("grantId") String grantId,
            @QueryParam("action") String action,
            @QueryParam("outcome") String outcome,
            @QueryParam("refusal") String refusal,
            @QueryParam("from") String from,
            @QueryParam("to") String to,
            @QueryParam("before") Long before,
            @QueryParam("limit") Integer limit) {
        return PageView.of(
                audit.store().actions(query(runId, grantId, action, outcome, refusal, from, to, before, limit)));
    }

    @GET
    @Path("verify")
    public Map<String, Object> verify() {
        VerifyResult r = audit.store().verify();
        return Map.of(
                "ok",
                r.ok(),
                "records",
                r.records(),
                "headSeq",
                r.headSeq(),
                "sealedSeq",
                r.sealedSeq(),
                "detail",
                r.describe());
    }

    private static AuditQuery query(
            String runId,
            String grantId,
            String action,
            String outcome,
            String refusal,
            String from,
            String to,
            Long before,
            Integer limit) {
        AuditQuery.Builder q = AuditQuery.builder()
                .runId(blank(runId))
                .grantId(blank(grantId))
                .outcome(blank(outcome))
                .beforeSeq(before)
                .limit(limit == null ? 50 : limit);
        if (blank(action) != null) q.actionKind(ActionKind.fromWire(action));
        if (blank(refusal) != null) q.refusalCode(parseCode(refusal));
        if (blank(from) != null) q.from(instant("from", from));
        if (blank(to) != null) q.to(instant("to", to));
        return q.build();
    }

    private static Instant instant(String field, String value) {
        try {
            return Instant.parse(value);
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException(
                    field + " must be an ISO-8601 instant such as 2026-11-29T21:00:00Z, was '" + value + "'");
        }
    }

    private static RefusalCode parseCode(String code) {
        try {
            return RefusalCode.valueOf(code);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("refusal must be a refusal code such as NO_GRANT, was '" + code + "'");
        }
    }

    private static String blank(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}

package dev.deckhand.audit;

/**
 * One step of an approval card's life.
 *
 * @param state requested, approved, denied or expired
 * @param approvalId the card's id (required)
 * @param runId the run that asked (required)
 * @param grantId the grant (required)
 * @param grantRevision the grant's revision
 * @param actions how many actions the card covers (>= 1)
 */
public record ApprovalEvent(
        State state, String approvalId, String runId, String grantId, long grantRevision, int actions)
        implements AuditEvent {

    /** Approval states. */
    public enum State {
        REQUESTED,
        APPROVED,
        DENIED,
        EXPIRED
    }

    public ApprovalEvent {
        Fields.required("state", state);
        Fields.id("approvalId", approvalId);
        Fields.id("runId", runId);
        Fields.id("grantId", grantId);
        Fields.nonNegative("grantRevision", grantRevision);
        if (actions < 1) {
            throw new IllegalArgumentException("actions must be >= 1");
        }
    }

    @Override
    public RecordKind recordKind() {
        return RecordKind.APPROVAL;
    }
}

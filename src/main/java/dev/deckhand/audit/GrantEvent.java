package dev.deckhand.audit;

/**
 * A change to a grant.
 *
 * @param kind what happened
 * @param grantId the grant's id (required)
 * @param revision the grant's revision after the change (>= 0)
 * @param windowId the target window's id, or null for an application-wide scope
 * @param app the target application, or null when unknown
 */
public record GrantEvent(Kind kind, String grantId, long revision, String windowId, String app) implements AuditEvent {

    /** Grant life-cycle events. */
    public enum Kind {
        MINT,
        BIND,
        REVISE,
        EXPIRE,
        REVOKE,
        STOP
    }

    public GrantEvent {
        Fields.required("kind", kind);
        Fields.id("grantId", grantId);
        Fields.nonNegative("revision", revision);
        Fields.optId("windowId", windowId);
        Fields.optId("app", app);
    }

    @Override
    public RecordKind recordKind() {
        return RecordKind.GRANT;
    }
}

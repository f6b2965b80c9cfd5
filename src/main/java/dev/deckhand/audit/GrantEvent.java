package dev.deckhand.audit;

/**
 * A change to a grant.
 *
 * @param kind what happened
 * @param grantId the grant's id (required)
 * @param revision the grant's revision after the change (>= 0)
 * @param windowId the target window's id, or null for an application-wide scope
 * @param app the target application, or null when unknown
 * @param settings the grant's settings as the person chose them ({@code scope window; input confirm_each; capture
 *     pixels; blind input; budget 50; idle 600 s; named send}), or null (an event that changes none)
 */
public record GrantEvent(Kind kind, String grantId, long revision, String windowId, String app, String settings)
        implements AuditEvent {

    /** An event that records no settings. */
    public GrantEvent(Kind kind, String grantId, long revision, String windowId, String app) {
        this(kind, grantId, revision, windowId, app, null);
    }

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
        if (settings != null && settings.length() > Fields.MAX_INSTRUCTION)
            throw new IllegalArgumentException("settings must be at most " + Fields.MAX_INSTRUCTION + " characters");
    }

    @Override
    public RecordKind recordKind() {
        return RecordKind.GRANT;
    }
}

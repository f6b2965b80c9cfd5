package dev.deckhand.audit;

/**
 * One thing worth auditing. A closed set: grant changes, the intent before and the result after
 * each action, approval decisions, and run records. None of the cases has a field for typed text,
 * pixels, API keys or tokens, so none can be stored; typed text is carried only as its length.
 */
public sealed interface AuditEvent permits GrantEvent, ActionIntent, ActionResult, ApprovalEvent, RunRecord {

    /** The record kind this event is stored as. */
    RecordKind recordKind();
}

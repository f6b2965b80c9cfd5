package dev.deckhand.audit;

import dev.deckhand.grant.RefusalCode;

/**
 * Written after an action: the intent's fields plus the outcome and, for
 * {@link ActionOutcome#REFUSED} (only then), the refusal code.
 */
public record ActionResult(String runId, int step, ActionKind action, ActionTarget target,
                           Integer textLength, ActionOutcome outcome, RefusalCode refusalCode)
        implements AuditEvent {
    public ActionResult {
        Fields.id("runId", runId);
        if (step < 1) {
            throw new IllegalArgumentException("step must be >= 1");
        }
        Fields.required("action", action);
        Fields.required("target", target);
        ActionIntent.checkTextLength(action, textLength);
        Fields.required("outcome", outcome);
        if ((outcome == ActionOutcome.REFUSED) != (refusalCode != null)) {
            throw new IllegalArgumentException("refusalCode is required exactly when outcome is REFUSED");
        }
    }

    /** The result of {@code intent} with an outcome that is not a refusal. */
    public static ActionResult of(ActionIntent intent, ActionOutcome outcome) {
        return new ActionResult(intent.runId(), intent.step(), intent.action(), intent.target(),
                intent.textLength(), outcome, null);
    }

    /** The result of {@code intent} refused with {@code code}. */
    public static ActionResult refused(ActionIntent intent, RefusalCode code) {
        return new ActionResult(intent.runId(), intent.step(), intent.action(), intent.target(),
                intent.textLength(), ActionOutcome.REFUSED, Fields.required("refusalCode", code));
    }

    @Override
    public RecordKind recordKind() {
        return RecordKind.ACTION_RESULT;
    }
}

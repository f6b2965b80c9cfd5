package dev.deckhand.audit;

import dev.deckhand.grant.RefusalCode;

/**
 * Written after an action: the intent's fields plus the outcome and, for
 * {@link ActionOutcome#REFUSED} (only then), the refusal code; for a delivered input action, its effect
 * ({@code changed}, {@code no_change}, {@code focus_moved}, {@code window_opened}, {@code window_closed})
 * when it could be told, else null.
 */
public record ActionResult(
        String runId,
        int step,
        ActionKind action,
        ActionTarget target,
        Integer textLength,
        ActionOutcome outcome,
        RefusalCode refusalCode,
        String effect)
        implements AuditEvent {

    private static final java.util.Set<String> EFFECTS =
            java.util.Set.of("changed", "no_change", "focus_moved", "window_opened", "window_closed");

    public ActionResult(
            String runId,
            int step,
            ActionKind action,
            ActionTarget target,
            Integer textLength,
            ActionOutcome outcome,
            RefusalCode refusalCode) {
        this(runId, step, action, target, textLength, outcome, refusalCode, null);
    }

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
        if (effect != null && (outcome != ActionOutcome.DONE || !EFFECTS.contains(effect))) {
            throw new IllegalArgumentException(
                    "effect must be one of " + new java.util.TreeSet<>(EFFECTS) + ", and only for a done action");
        }
    }

    /** The result of {@code intent} with an outcome that is not a refusal. */
    public static ActionResult of(ActionIntent intent, ActionOutcome outcome) {
        return new ActionResult(
                intent.runId(), intent.step(), intent.action(), intent.target(), intent.textLength(), outcome, null);
    }

    /** The result of a delivered {@code intent} with what it did. */
    public static ActionResult done(ActionIntent intent, String effect) {
        return new ActionResult(
                intent.runId(),
                intent.step(),
                intent.action(),
                intent.target(),
                intent.textLength(),
                ActionOutcome.DONE,
                null,
                effect);
    }

    /** The result of {@code intent} refused with {@code code}. */
    public static ActionResult refused(ActionIntent intent, RefusalCode code) {
        return new ActionResult(
                intent.runId(),
                intent.step(),
                intent.action(),
                intent.target(),
                intent.textLength(),
                ActionOutcome.REFUSED,
                Fields.required("refusalCode", code));
    }

    @Override
    public RecordKind recordKind() {
        return RecordKind.ACTION_RESULT;
    }
}

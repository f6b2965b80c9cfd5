package dev.deckhand.audit;

/**
 * Written before an action is given to the driver.
 *
 * @param runId the run (required)
 * @param step the 1-based step number within the run
 * @param action the action kind
 * @param target grant, window and element
 * @param textLength for {@code set_text}/{@code type}, the length in chars of the text that will
 *     be typed; null for every other action. The text itself has no field and is never stored.
 */
public record ActionIntent(String runId, int step, ActionKind action, ActionTarget target, Integer textLength)
        implements AuditEvent {
    public ActionIntent {
        Fields.id("runId", runId);
        if (step < 1) {
            throw new IllegalArgumentException("step must be >= 1");
        }
        Fields.required("action", action);
        Fields.required("target", target);
        checkTextLength(action, textLength);
    }

    static void checkTextLength(ActionKind action, Integer textLength) {
        if (action.carriesText() && textLength == null) {
            throw new IllegalArgumentException("textLength is required for " + action.wire());
        }
        if (!action.carriesText() && textLength != null) {
            throw new IllegalArgumentException("textLength is only for set_text and type, not " + action.wire());
        }
        if (textLength != null && textLength < 0) {
            throw new IllegalArgumentException("textLength must be >= 0");
        }
    }

    /** An intent for an action without text. */
    public static ActionIntent of(String runId, int step, ActionKind action, ActionTarget target) {
        return new ActionIntent(runId, step, action, target, null);
    }

    /** An intent for {@code set_text}/{@code type}; takes only the text's length. */
    public static ActionIntent typing(String runId, int step, ActionKind action, ActionTarget target, int textLength) {
        return new ActionIntent(runId, step, action, target, textLength);
    }

    @Override
    public RecordKind recordKind() {
        return RecordKind.ACTION_INTENT;
    }
}

package dev.deckhand.run;

import dev.deckhand.audit.ActionKind;
import dev.deckhand.audit.ActionOutcome;
import dev.deckhand.audit.ActionTarget;
import dev.deckhand.audit.AuditAppender;
import dev.deckhand.loop.ActionIntent;
import dev.deckhand.loop.ActionResult;
import dev.deckhand.loop.AuditSink;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The loop's {@link AuditSink}: an intent record before and a result record after every action,
 * content-free (typed text only as its length). Each result is also reported to {@code onStep}
 * (MCP progress, the page's live view) at once.
 *
 * <p>One durable commit per step: an intent is committed before {@link #intent} returns (so before the
 * action), together with the previous action's result, which {@link #result} only defers. Whatever the
 * log appends next commits a deferred result first — the next intent, an approval card, a grant event,
 * the run record at the run's end, or the log's close — so nothing is lost or reordered; a crash loses
 * at most the last action's result, never an intent.
 */
final class AuditTrail implements AuditSink {

    private final AuditAppender audit;
    private final String grantId;
    private final long windowId;
    private final String app;
    private final Consumer<ActionResult> onStep;
    private final Map<Integer, dev.deckhand.audit.ActionIntent> open = new ConcurrentHashMap<>();

    AuditTrail(AuditAppender audit, String grantId, long windowId, String app, Consumer<ActionResult> onStep) {
        this.audit = audit;
        this.grantId = grantId;
        this.windowId = windowId;
        this.app = app;
        this.onStep = onStep;
    }

    @Override
    public void intent(ActionIntent i) {
        ActionTarget target = new ActionTarget(
                grantId,
                i.grantRevision(),
                Long.toString(windowId),
                app,
                i.role().orElse(null),
                i.uid().orElse(null));
        ActionKind kind = ActionKind.fromWire(i.kind());
        var record = kind.carriesText()
                ? dev.deckhand.audit.ActionIntent.typing(
                        i.runId(), i.step(), kind, target, i.textLength().orElse(0))
                : dev.deckhand.audit.ActionIntent.of(i.runId(), i.step(), kind, target);
        audit.append(record);
        open.put(i.step(), record);
    }

    @Override
    public void result(ActionResult r) {
        var intent = open.remove(r.step());
        if (intent != null) {
            audit.defer(
                    switch (r.status()) {
                        case DELIVERED ->
                            dev.deckhand.audit.ActionResult.done(
                                    intent, r.effect().map(e -> e.wire()).orElse(null));
                        case FAILED -> dev.deckhand.audit.ActionResult.of(intent, ActionOutcome.FAILED);
                        case REFUSED ->
                            dev.deckhand.audit.ActionResult.refused(
                                    intent, r.code().orElseThrow());
                    });
        }
        onStep.accept(r);
    }
}

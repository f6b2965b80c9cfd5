package dev.deckhand.audit;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.home.PublishedSecrets;
import java.time.Instant;
import java.util.Locale;

/** Maps events to stored rows and back. */
final class AuditRows {
    private AuditRows() {}

    static String lower(Enum<?> e) {
        return e == null ? null : e.name().toLowerCase(Locale.ROOT);
    }

    static <E extends Enum<E>> E upper(Class<E> type, String s) {
        return s == null ? null : Enum.valueOf(type, s.toUpperCase(Locale.ROOT));
    }

    private static Long l(Integer i) {
        return i == null ? null : i.longValue();
    }

    private static Integer i(Long l) {
        return l == null ? null : Math.toIntExact(l);
    }

    static Object[] toValues(AuditEvent event, long ts) {
        Object[] v = Row.empty();
        v[Row.TS] = ts;
        v[Row.KIND] = event.recordKind().name();
        if (event instanceof GrantEvent) {
            GrantEvent g = (GrantEvent) event;
            v[Row.EVENT] = lower(g.kind());
            v[Row.GRANT_ID] = g.grantId();
            v[Row.GRANT_REV] = g.revision();
            v[Row.WINDOW_ID] = g.windowId();
            v[Row.APP] = g.app();
            v[Row.GRANT_SETTINGS] = g.settings();
        } else if (event instanceof ActionIntent) {
            ActionIntent a = (ActionIntent) event;
            action(v, a.runId(), a.step(), a.action(), a.target(), a.textLength());
        } else if (event instanceof ActionResult) {
            ActionResult a = (ActionResult) event;
            action(v, a.runId(), a.step(), a.action(), a.target(), a.textLength());
            v[Row.OUTCOME] = lower(a.outcome());
            v[Row.REFUSAL_CODE] =
                    a.refusalCode() == null ? null : a.refusalCode().name();
            v[Row.EFFECT] = a.effect();
        } else if (event instanceof ApprovalEvent) {
            ApprovalEvent a = (ApprovalEvent) event;
            v[Row.EVENT] = lower(a.state());
            v[Row.APPROVAL_ID] = a.approvalId();
            v[Row.RUN_ID] = a.runId();
            v[Row.GRANT_ID] = a.grantId();
            v[Row.GRANT_REV] = a.grantRevision();
            v[Row.APPROVAL_ACTIONS] = (long) a.actions();
        } else if (event instanceof RunRecord) {
            RunRecord r = (RunRecord) event;
            v[Row.RUN_ID] = r.runId();
            v[Row.INSTRUCTION] = r.instruction();
            v[Row.ROUTE] = r.route();
            v[Row.GRANT_ID] = r.grantId();
            v[Row.STEPS_RUN] = (long) r.stepsRun();
            v[Row.VERIFIER_KIND] = r.verifierKind();
            v[Row.VERIFIER_RESULT] = lower(r.verifierResult());
            v[Row.VERDICT] = lower(r.verdict());
            v[Row.OUTCOME] = r.outcome().wire();
            v[Row.REFUSAL_CODE] =
                    r.refusalCode() == null ? null : r.refusalCode().name();
            v[Row.STARTED_AT] = r.startedAt().toEpochMilli();
            v[Row.ENDED_AT] = r.endedAt().toEpochMilli();
            if (r.model() != null) {
                v[Row.PROVIDER] = r.model().provider();
                v[Row.MODEL] = r.model().model();
                v[Row.MODEL_TURNS] = (long) r.model().modelTurns();
                v[Row.INPUT_TOKENS] = r.model().inputTokens();
                v[Row.OUTPUT_TOKENS] = r.model().outputTokens();
                v[Row.COST_USD] = r.model().costUsd();
                v[Row.FINAL_REPORT] = r.model().finalReport();
            }
            v[Row.TIMINGS] = r.timings();
        } else {
            throw new AssertionError("unknown audit event " + event.getClass());
        }
        // No audit record carries one of Deckhand's own secrets (an instruction or the model's final
        // report may quote one): every text is withheld before it is hashed and written.
        for (int i = 0; i < v.length; i++) {
            if (v[i] instanceof String text) v[i] = PublishedSecrets.withhold(text);
        }
        return v;
    }

    private static void action(
            Object[] v, String runId, int step, ActionKind kind, ActionTarget t, Integer textLength) {
        v[Row.RUN_ID] = runId;
        v[Row.STEP] = (long) step;
        v[Row.ACTION_KIND] = kind.wire();
        v[Row.GRANT_ID] = t.grantId();
        v[Row.GRANT_REV] = t.grantRevision();
        v[Row.WINDOW_ID] = t.windowId();
        v[Row.APP] = t.app();
        v[Row.ROLE] = t.elementRole();
        v[Row.UID] = t.elementUid();
        v[Row.TEXT_LEN] = l(textLength);
    }

    static AuditEvent toEvent(Row row) {
        RecordKind kind = RecordKind.valueOf(row.textAt(Row.KIND));
        switch (kind) {
            case GRANT:
                return new GrantEvent(
                        upper(GrantEvent.Kind.class, row.textAt(Row.EVENT)),
                        row.textAt(Row.GRANT_ID),
                        row.longAt(Row.GRANT_REV),
                        row.textAt(Row.WINDOW_ID),
                        row.textAt(Row.APP),
                        row.textAt(Row.GRANT_SETTINGS));
            case ACTION_INTENT:
                return new ActionIntent(
                        row.textAt(Row.RUN_ID),
                        i(row.longAt(Row.STEP)),
                        ActionKind.fromWire(row.textAt(Row.ACTION_KIND)),
                        target(row),
                        i(row.longAt(Row.TEXT_LEN)));
            case ACTION_RESULT:
                return new ActionResult(
                        row.textAt(Row.RUN_ID),
                        i(row.longAt(Row.STEP)),
                        ActionKind.fromWire(row.textAt(Row.ACTION_KIND)),
                        target(row),
                        i(row.longAt(Row.TEXT_LEN)),
                        upper(ActionOutcome.class, row.textAt(Row.OUTCOME)),
                        refusal(row),
                        row.textAt(Row.EFFECT));
            case APPROVAL:
                return new ApprovalEvent(
                        upper(ApprovalEvent.State.class, row.textAt(Row.EVENT)),
                        row.textAt(Row.APPROVAL_ID),
                        row.textAt(Row.RUN_ID),
                        row.textAt(Row.GRANT_ID),
                        row.longAt(Row.GRANT_REV),
                        i(row.longAt(Row.APPROVAL_ACTIONS)));
            case RUN:
                return new RunRecord(
                        row.textAt(Row.RUN_ID),
                        row.textAt(Row.INSTRUCTION),
                        row.textAt(Row.ROUTE),
                        row.textAt(Row.GRANT_ID),
                        i(row.longAt(Row.STEPS_RUN)),
                        row.textAt(Row.VERIFIER_KIND),
                        upper(RunRecord.VerifierResult.class, row.textAt(Row.VERIFIER_RESULT)),
                        upper(RunRecord.Verdict.class, row.textAt(Row.VERDICT)),
                        upper(RunRecord.Outcome.class, row.textAt(Row.OUTCOME)),
                        refusal(row),
                        Instant.ofEpochMilli(row.longAt(Row.STARTED_AT)),
                        Instant.ofEpochMilli(row.longAt(Row.ENDED_AT)),
                        row.textAt(Row.PROVIDER) == null
                                ? null
                                : new RunRecord.ModelUse(
                                        row.textAt(Row.PROVIDER),
                                        row.textAt(Row.MODEL),
                                        i(row.longAt(Row.MODEL_TURNS)),
                                        row.longAt(Row.INPUT_TOKENS),
                                        row.longAt(Row.OUTPUT_TOKENS),
                                        row.textAt(Row.COST_USD),
                                        row.textAt(Row.FINAL_REPORT)),
                        row.textAt(Row.TIMINGS));
            default:
                throw new AssertionError("unknown record kind " + kind);
        }
    }

    private static RefusalCode refusal(Row row) {
        String c = row.textAt(Row.REFUSAL_CODE);
        return c == null ? null : RefusalCode.valueOf(c);
    }

    private static ActionTarget target(Row row) {
        return new ActionTarget(
                row.textAt(Row.GRANT_ID),
                row.longAt(Row.GRANT_REV),
                row.textAt(Row.WINDOW_ID),
                row.textAt(Row.APP),
                row.textAt(Row.ROLE),
                row.textAt(Row.UID));
    }
}

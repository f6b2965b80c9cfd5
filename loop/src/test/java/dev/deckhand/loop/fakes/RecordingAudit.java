package dev.deckhand.loop.fakes;

import dev.deckhand.loop.ActionIntent;
import dev.deckhand.loop.ActionResult;
import dev.deckhand.loop.AuditSink;
import java.util.ArrayList;
import java.util.List;

/** Keeps every record in order. */
public final class RecordingAudit implements AuditSink {

    public final List<Object> records = new ArrayList<>();

    @Override
    public synchronized void intent(ActionIntent intent) {
        records.add(intent);
    }

    @Override
    public synchronized void result(ActionResult result) {
        records.add(result);
    }

    public List<ActionResult> results() {
        List<ActionResult> out = new ArrayList<>();
        for (Object o : records) if (o instanceof ActionResult) out.add((ActionResult) o);
        return out;
    }

    public List<ActionIntent> intents() {
        List<ActionIntent> out = new ArrayList<>();
        for (Object o : records) if (o instanceof ActionIntent) out.add((ActionIntent) o);
        return out;
    }
}

package dev.deckhand.loop;

import dev.deckhand.grant.RefusalCode;
import java.util.Objects;
import java.util.Optional;

/**
 * What became of an action: delivered to the desktop, refused before delivery (with its code), or
 * failed in the driver; for a delivered input action, what it did ({@link Effect}, empty when it could
 * not be told).
 */
public record ActionResult(
        String runId,
        int step,
        String kind,
        Status status,
        Optional<RefusalCode> code,
        String detail,
        Optional<Effect> effect) {

    public enum Status {
        DELIVERED,
        REFUSED,
        FAILED
    }

    public ActionResult {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(effect, "effect");
        if (status == Status.REFUSED && code.isEmpty())
            throw new IllegalArgumentException("code is required for a refused action");
        if (status != Status.DELIVERED && effect.isPresent())
            throw new IllegalArgumentException("only a delivered action has an effect");
    }

    /** A result without an effect. */
    public ActionResult(String runId, int step, String kind, Status status, Optional<RefusalCode> code, String detail) {
        this(runId, step, kind, status, code, detail, Optional.empty());
    }
}

package dev.deckhand.loop;

import dev.deckhand.grant.RefusalCode;
import java.util.Objects;
import java.util.Optional;

/**
 * What became of an action: delivered to the desktop, refused before delivery (with its code), or
 * failed in the driver.
 */
public record ActionResult(String runId, int step, String kind, Status status, Optional<RefusalCode> code,
        String detail) {

    public enum Status { DELIVERED, REFUSED, FAILED }

    public ActionResult {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(detail, "detail");
        if (status == Status.REFUSED && code.isEmpty()) throw new IllegalArgumentException("code is required for a refused action");
    }
}

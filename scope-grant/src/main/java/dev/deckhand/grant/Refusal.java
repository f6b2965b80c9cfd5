package dev.deckhand.grant;

import java.util.Objects;

/**
 * A refusal: its code and a detail that names what fired (the app, host, element, check or
 * argument). Never carries typed text or pixels.
 */
public record Refusal(RefusalCode code, String detail) {

    public Refusal {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(detail, "detail");
        if (detail.isBlank()) {
            throw new IllegalArgumentException("detail must name what fired for " + code);
        }
    }

    public static Refusal of(RefusalCode code, String detail) {
        return new Refusal(code, detail);
    }

    /** The one-line form used in tool results and logs: {@code CODE: detail}. */
    @Override
    public String toString() {
        return code + ": " + detail;
    }
}

package dev.deckhand.loop.verify;

import java.util.Objects;

/** What a verifier found. {@code detail} says what was checked and seen, never typed text. */
public record VerifierResult(boolean passed, String detail) {

    public VerifierResult {
        Objects.requireNonNull(detail, "detail");
    }

    public static VerifierResult pass(String detail) {
        return new VerifierResult(true, detail);
    }

    public static VerifierResult fail(String detail) {
        return new VerifierResult(false, detail);
    }
}

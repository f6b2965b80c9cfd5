package dev.deckhand.grant;

import java.util.Objects;

/** Thrown where a refusal must unwind a call stack (e.g. from a driver port); carries the refusal. */
public final class RefusedException extends RuntimeException {

    private final Refusal refusal;

    public RefusedException(Refusal refusal) {
        super(Objects.requireNonNull(refusal, "refusal").toString(), null, false, false);
        this.refusal = refusal;
    }

    /** For a code chosen at run time (tests that walk the codes); code that decides a refusal names its factory. */
    public RefusedException(RefusalCode code, String detail) {
        this(Refusal.of(code, detail));
    }

    public Refusal refusal() {
        return refusal;
    }

    public RefusalCode code() {
        return refusal.code();
    }
}

package dev.deckhand.loop.verify;

/** A run's verdict: only ever written from the verifier's result. */
public enum Verdict {
    PASS,
    FAIL,
    NONE;

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

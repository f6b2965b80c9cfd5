package dev.deckhand.audit;

/** What became of one action. */
public enum ActionOutcome {
    /** The driver performed it. */
    DONE,
    /** The driver tried and failed. */
    FAILED,
    /** A refusal stopped it; the result carries the code. */
    REFUSED,
    /** The person denied it on its approval card. */
    DENIED,
    /** The run ended before it was performed. */
    NOT_RUN
}

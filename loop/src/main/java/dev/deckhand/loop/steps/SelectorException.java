package dev.deckhand.loop.steps;

/** A selector matched nothing, or more than one element without an index: never a guess. */
public final class SelectorException extends RuntimeException {

    public SelectorException(String message) {
        super(message, null, false, false);
    }
}

package dev.deckhand.loop.json;

/**
 * Input on the wire (model output, explicit steps, a verifier) that is not exactly what the contract
 * allows. The message names the field and the action or kind it belongs to, e.g.
 * {@code uid is required for click}, and never echoes typed text.
 */
public final class WireFormatException extends RuntimeException {

    public WireFormatException(String message) {
        super(message, null, false, false);
    }
}

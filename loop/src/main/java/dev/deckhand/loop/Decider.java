package dev.deckhand.loop;

/**
 * Asks the model the person bound for exactly one action. Returns the model's raw text; the loop
 * parses it strictly. Implementations keep the prompt small (the request is all they get).
 */
@FunctionalInterface
public interface Decider {

    /**
     * The model's raw answer to one request.
     *
     * @throws dev.deckhand.grant.RefusedException {@code MODEL_NOT_BOUND} when no model is bound (never a
     *     fallback to another model)
     */
    String decide(DecisionRequest request);
}

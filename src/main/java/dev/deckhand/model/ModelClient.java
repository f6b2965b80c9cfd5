package dev.deckhand.model;

/** The port to the model the person bound: one turn in, the raw text of one action out. */
public interface ModelClient {

    /**
     * Asks the bound model for exactly one action.
     *
     * @return the model's raw output for one action (JSON text, unparsed: the caller parses strictly)
     * @throws dev.deckhand.grant.RefusedException with {@code MODEL_NOT_BOUND} when no model is bound
     *         (or the bound provider needs a key and none is stored) — never a fallback to another model
     * @throws ModelException when the provider answers with an error or cannot be reached
     */
    String decide(ModelTurn turn);
}

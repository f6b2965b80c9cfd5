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
    default String decide(ModelTurn turn) {
        return reply(turn).text();
    }

    /**
     * Asks the bound model for exactly one action, and says which model answered and the tokens it used.
     *
     * @throws dev.deckhand.grant.RefusedException {@code MODEL_NOT_BOUND} as {@link #decide}
     * @throws ModelException when the provider answers with an error or cannot be reached
     */
    ModelReply reply(ModelTurn turn);

    /** The model for runs on {@code app} (its WM_CLASS); by default the same one for every app. */
    default ModelClient forApp(String app) {
        return this;
    }
}

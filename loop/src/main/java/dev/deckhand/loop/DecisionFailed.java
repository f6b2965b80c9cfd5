package dev.deckhand.loop;

/**
 * The {@link Decider} could not get an action from the model (the provider refused the call, or stayed
 * unavailable through its retries). The run ends {@code failed} with this message as its summary,
 * which names the provider's answer.
 */
public final class DecisionFailed extends RuntimeException {

    public DecisionFailed(String message) {
        super(message, null, false, false);
    }
}

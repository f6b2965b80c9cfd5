package dev.deckhand.model;

/**
 * The outcome of "test connection": one small real call.
 *
 * @param ok    the provider answered with a structured reply
 * @param error null when ok; otherwise the provider's message verbatim (or why no call was made)
 */
public record ConnectionCheck(boolean ok, String error) {

    public ConnectionCheck {
        if (ok && error != null) throw new IllegalArgumentException("error must be null when ok");
        if (!ok && (error == null || error.isBlank()))
            throw new IllegalArgumentException("error is required when not ok");
    }

    public static ConnectionCheck passed() {
        return new ConnectionCheck(true, null);
    }

    public static ConnectionCheck failed(String error) {
        return new ConnectionCheck(false, error);
    }
}

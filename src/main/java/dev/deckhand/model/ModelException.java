package dev.deckhand.model;

/**
 * The provider answered with an error (or could not be reached). {@link #providerMessage()} is the
 * provider's own message verbatim (from its error body), with the API key scrubbed should it echo it.
 */
public final class ModelException extends RuntimeException {

    private final String providerId;
    private final int httpStatus;
    private final String providerMessage;

    public ModelException(String providerId, int httpStatus, String providerMessage) {
        super(providerId + (httpStatus > 0 ? " answered HTTP " + httpStatus : " call failed") + ": " + providerMessage,
                null, false, false);
        this.providerId = providerId;
        this.httpStatus = httpStatus;
        this.providerMessage = providerMessage;
    }

    public String providerId() {
        return providerId;
    }

    /** The HTTP status, or -1 when there was no HTTP answer (unreachable host, timeout). */
    public int httpStatus() {
        return httpStatus;
    }

    public String providerMessage() {
        return providerMessage;
    }
}

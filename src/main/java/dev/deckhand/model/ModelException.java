package dev.deckhand.model;

/**
 * The provider answered with an error (or could not be reached). {@link #providerMessage()} is the
 * provider's own message verbatim (from its error body), with the API key scrubbed should it echo it.
 */
public final class ModelException extends RuntimeException {

    private final String providerId;
    private final int httpStatus;
    private final String providerMessage;
    private final transient java.util.Optional<java.time.Duration> retryAfter;

    public ModelException(String providerId, int httpStatus, String providerMessage) {
        this(providerId, httpStatus, providerMessage, java.util.Optional.empty());
    }

    /** @param retryAfter what the provider's {@code Retry-After} header asked for, if it sent one */
    public ModelException(
            String providerId,
            int httpStatus,
            String providerMessage,
            java.util.Optional<java.time.Duration> retryAfter) {
        super(
                providerId + (httpStatus > 0 ? " answered HTTP " + httpStatus : " call failed") + ": "
                        + providerMessage,
                null,
                false,
                false);
        this.providerId = providerId;
        this.httpStatus = httpStatus;
        this.providerMessage = providerMessage;
        this.retryAfter = java.util.Objects.requireNonNull(retryAfter, "retryAfter");
    }

    /** The wait the provider asked for with {@code Retry-After}, if any. */
    public java.util.Optional<java.time.Duration> retryAfter() {
        return retryAfter;
    }

    /**
     * Whether trying again later may succeed: rate limited (429), overloaded or failing on the provider's
     * side (5xx, Anthropic's 529), a request time-out (408), or no answer at all (time-out, connection refused).
     */
    public boolean transientFailure() {
        return httpStatus == -1 || httpStatus == 408 || httpStatus == 429 || httpStatus >= 500;
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

package dev.deckhand.model;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * A provider API key. Write-only from the person's side: {@link #toString()} never shows it, and
 * only the provider adapter reads {@link #reveal()} to put it in a request header.
 */
public final class ApiKey {

    private final String value;

    private ApiKey(String value) {
        this.value = value;
    }

    /** @throws IllegalArgumentException naming {@code apiKey} (never echoing it) when blank, too long or not printable ASCII */
    public static ApiKey of(String value) {
        if (value == null || value.isBlank()) throw new IllegalArgumentException("apiKey must not be blank");
        String v = value.strip();
        if (v.length() > 1000) throw new IllegalArgumentException("apiKey is longer than 1000 characters");
        if (!v.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("apiKey must be printable ASCII without spaces");
        }
        return new ApiKey(v);
    }

    /** The secret itself, for the request header only. */
    public String reveal() {
        return value;
    }

    /** {@code ••••} plus the last four characters when the key is long enough for that to say little. */
    public String masked() {
        return value.length() >= 16 ? "••••" + value.substring(value.length() - 4) : "••••";
    }

    /** Replaces every occurrence of this key in {@code text} (e.g. a provider's error message). */
    public String scrub(String text) {
        return text == null ? null : text.replace(value, masked());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ApiKey other
                && MessageDigest.isEqual(
                        value.getBytes(StandardCharsets.US_ASCII), other.value.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return "ApiKey[" + masked() + "]";
    }
}

package dev.deckhand.model;

import java.util.Objects;

/**
 * One answer of the bound model: its raw output and what the provider reported it used.
 *
 * @param text         the raw text of one action (unparsed)
 * @param providerId   the provider that answered
 * @param modelId      the model that answered
 * @param inputTokens  the provider's input token count for this call (0 when it reported none)
 * @param outputTokens the provider's output token count for this call (0 when it reported none)
 */
public record ModelReply(String text, String providerId, String modelId, long inputTokens, long outputTokens) {

    public ModelReply {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(providerId, "providerId");
        Objects.requireNonNull(modelId, "modelId");
        if (inputTokens < 0 || outputTokens < 0) throw new IllegalArgumentException("token counts must be >= 0");
    }

    /** Lengths only: the text may carry typed text. */
    @Override
    public String toString() {
        return "ModelReply[" + providerId + "/" + modelId + ", " + text.length() + " chars, in=" + inputTokens
                + ", out=" + outputTokens + "]";
    }
}

package dev.deckhand.model;

import java.util.Objects;
import java.util.Optional;

/**
 * One model turn: everything the bound model sees to choose exactly one action. Deliberately small:
 * one system prompt, one user message (instruction, the last few steps, the observation), at most
 * one image — never a history of images.
 *
 * @param systemPrompt the rules of the game; required
 * @param userText     instruction, last steps as short lines, the current observation; required
 * @param image        a PNG capture, present only when the route and the grant's capture mode allow pixels
 * @param jsonSchema   the strict action schema (a JSON object schema, root {@code "type": "object"}), given by
 *                     the caller; sent as structured output or as the single forced tool's input schema
 * @param feedback     nullable: the parser's complaint about the previous output, fed back once
 */
public record ModelTurn(
        String systemPrompt, String userText, Optional<byte[]> image, String jsonSchema, String feedback) {

    public ModelTurn {
        if (systemPrompt == null || systemPrompt.isBlank())
            throw new IllegalArgumentException("systemPrompt is required");
        if (userText == null || userText.isBlank()) throw new IllegalArgumentException("userText is required");
        Objects.requireNonNull(image, "image (use Optional.empty())");
        if (image.isPresent() && image.get().length == 0) throw new IllegalArgumentException("image must not be empty");
        if (jsonSchema == null || jsonSchema.isBlank()) throw new IllegalArgumentException("jsonSchema is required");
        if (feedback != null && feedback.isBlank()) feedback = null;
    }

    public static ModelTurn of(String systemPrompt, String userText, String jsonSchema) {
        return new ModelTurn(systemPrompt, userText, Optional.empty(), jsonSchema, null);
    }

    public ModelTurn withImage(byte[] png) {
        return new ModelTurn(systemPrompt, userText, Optional.of(png), jsonSchema, feedback);
    }

    public ModelTurn withFeedback(String parserError) {
        return new ModelTurn(systemPrompt, userText, image, jsonSchema, parserError);
    }

    /** Lengths only: the user text may carry typed text, and pixels never go to logs. */
    @Override
    public String toString() {
        return "ModelTurn[systemPrompt=" + systemPrompt.length() + " chars, userText=" + userText.length()
                + " chars, image=" + image.map(b -> b.length + " bytes").orElse("none")
                + ", jsonSchema=" + jsonSchema.length() + " chars, feedback="
                + (feedback == null ? "none" : feedback.length() + " chars") + "]";
    }
}

package dev.deckhand.model;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** The model providers a person can bind (docs/design.md#the-run-loop), with their wire defaults. */
public enum Provider {
    OPENAI("openai", "https://api.openai.com/v1", true),
    ANTHROPIC("anthropic", "https://api.anthropic.com/v1", true),
    GEMINI("gemini", "https://generativelanguage.googleapis.com/v1beta", true),
    OLLAMA("ollama", "http://127.0.0.1:11434", false),
    /** Any endpoint speaking OpenAI chat completions; the base URL is required, the key optional. */
    OPENAI_COMPATIBLE("openai-compatible", null, false);

    private final String id;
    private final String defaultBaseUrl;
    private final boolean keyRequired;

    Provider(String id, String defaultBaseUrl, boolean keyRequired) {
        this.id = id;
        this.defaultBaseUrl = defaultBaseUrl;
        this.keyRequired = keyRequired;
    }

    /** The id used on the wire and in {@code model.json}. */
    public String id() {
        return id;
    }

    /** The provider's public endpoint; empty for {@link #OPENAI_COMPATIBLE}, which has none. */
    public Optional<String> defaultBaseUrl() {
        return Optional.ofNullable(defaultBaseUrl);
    }

    /** Whether a call without an API key is pointless (the provider always demands one). */
    public boolean keyRequired() {
        return keyRequired;
    }

    public static Optional<Provider> byId(String id) {
        return Arrays.stream(values()).filter(p -> p.id.equals(id)).findFirst();
    }

    /** The valid ids, for error messages. */
    public static String ids() {
        return Arrays.stream(values()).map(Provider::id).collect(Collectors.joining(", "));
    }
}

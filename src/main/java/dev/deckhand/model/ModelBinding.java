package dev.deckhand.model;

import java.net.URI;
import java.util.Locale;

/**
 * The model the person bound in settings: which provider, which model, where. Holds no secret; the
 * API key is stored apart ({@link ModelBindingStore}) and travels as an {@link ApiKey}.
 *
 * @param providerId      one of {@link Provider#ids()}
 * @param modelId         the provider's model name, e.g. {@code gpt-4.1-mini}
 * @param baseUrl         nullable; required for {@code openai-compatible}, otherwise the provider's
 *                        default ({@link Provider#defaultBaseUrl()}) when null
 * @param temperature     nullable; 0..2; null leaves the provider's default (some models refuse any value)
 * @param maxOutputTokens nullable; 1..100000; null = provider default (Anthropic: 1024)
 */
public record ModelBinding(
        String providerId, String modelId, String baseUrl, Double temperature, Integer maxOutputTokens) {

    public ModelBinding {
        if (providerId == null || Provider.byId(providerId).isEmpty()) {
            throw new IllegalArgumentException("providerId must be one of " + Provider.ids() + ", got "
                    + (providerId == null ? "nothing" : "'" + clip(providerId) + "'"));
        }
        if (modelId == null || modelId.isBlank()) {
            throw new IllegalArgumentException("modelId is required");
        }
        modelId = modelId.strip();
        if (modelId.length() > 200 || !modelId.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("modelId must be 1..200 printable ASCII characters without spaces");
        }
        if (baseUrl != null && baseUrl.isBlank()) baseUrl = null;
        if (baseUrl != null) {
            baseUrl = baseUrl.strip();
            while (baseUrl.endsWith("/")) baseUrl = baseUrl.substring(0, baseUrl.length() - 1);
            checkUrl(baseUrl);
        } else if (Provider.byId(providerId).orElseThrow() == Provider.OPENAI_COMPATIBLE) {
            throw new IllegalArgumentException("baseUrl is required for openai-compatible");
        }
        if (temperature != null && !(temperature >= 0.0 && temperature <= 2.0)) {
            throw new IllegalArgumentException("temperature must be between 0 and 2");
        }
        if (maxOutputTokens != null && (maxOutputTokens < 1 || maxOutputTokens > 100_000)) {
            throw new IllegalArgumentException("maxOutputTokens must be between 1 and 100000");
        }
    }

    public static ModelBinding of(String providerId, String modelId, String baseUrl) {
        return new ModelBinding(providerId, modelId, baseUrl, null, null);
    }

    public Provider provider() {
        return Provider.byId(providerId).orElseThrow();
    }

    /** The base URL calls go to: the bound one, else the provider's default. */
    public String effectiveBaseUrl() {
        return baseUrl != null ? baseUrl : provider().defaultBaseUrl().orElseThrow();
    }

    private static void checkUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("baseUrl is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("baseUrl must start with http:// or https://");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new IllegalArgumentException("baseUrl must name a host");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("baseUrl must not carry credentials; put the key in apiKey");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("baseUrl must not have a query or fragment");
        }
    }

    private static String clip(String s) {
        String printable = s.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() > 40 ? printable.substring(0, 40) + "…" : printable;
    }
}

package dev.deckhand.model.stub;

/** Gemini generateContent ({@code POST /v1beta/models/{model}:generateContent}). */
public final class GeminiStub extends ProviderStub {

    private GeminiStub() {}

    public static GeminiStub start() {
        return new GeminiStub();
    }

    @Override
    public String url() {
        return root() + "/v1beta";
    }

    @Override
    public String providerId() {
        return "gemini";
    }

    @Override
    protected boolean isChatPath(String path) {
        return path.startsWith("/v1beta/models/") && path.endsWith(":generateContent");
    }

    @Override
    protected String successBody(String raw, RecordedRequest request) {
        return "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":" + quote(raw) + "}],\"role\":\"model\"},"
                + "\"finishReason\":\"STOP\",\"index\":0}],"
                + "\"usageMetadata\":{\"promptTokenCount\":" + inputTokens() + ",\"candidatesTokenCount\":"
                + outputTokens()
                + ",\"totalTokenCount\":" + (inputTokens() + outputTokens()) + "},"
                + "\"modelVersion\":\"stub\",\"responseId\":\"stub\"}";
    }

    @Override
    protected String errorBody(int status, String message) {
        String grpc =
                switch (status) {
                    case 400 -> "INVALID_ARGUMENT";
                    case 401 -> "UNAUTHENTICATED";
                    case 403 -> "PERMISSION_DENIED";
                    case 404 -> "NOT_FOUND";
                    case 429 -> "RESOURCE_EXHAUSTED";
                    default -> "INTERNAL";
                };
        return "{\"error\":{\"code\":" + status + ",\"message\":" + quote(message) + ",\"status\":\"" + grpc + "\"}}";
    }
}

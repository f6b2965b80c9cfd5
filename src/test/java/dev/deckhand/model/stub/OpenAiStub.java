package dev.deckhand.model.stub;

/**
 * OpenAI chat completions ({@code POST /v1/chat/completions}). Also serves as the
 * {@code openai-compatible} endpoint via {@link #startCompatible()}.
 */
public final class OpenAiStub extends ProviderStub {

    private final String providerId;

    private OpenAiStub(String providerId) {
        this.providerId = providerId;
    }

    public static OpenAiStub start() {
        return new OpenAiStub("openai");
    }

    /** The same wire format, bound as {@code openai-compatible}. */
    public static OpenAiStub startCompatible() {
        return new OpenAiStub("openai-compatible");
    }

    @Override
    public String url() {
        return root() + "/v1";
    }

    @Override
    public String providerId() {
        return providerId;
    }

    @Override
    protected boolean isChatPath(String path) {
        return path.equals("/v1/chat/completions");
    }

    @Override
    protected String successBody(String raw, RecordedRequest request) {
        String model = request.json().path("model").asText("stub");
        return "{\"id\":\"chatcmpl-stub\",\"object\":\"chat.completion\",\"created\":1700000000,\"model\":"
                + quote(model)
                + ",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":" + quote(raw)
                + ",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":" + inputTokens() + ",\"completion_tokens\":" + outputTokens()
                + ",\"total_tokens\":" + (inputTokens() + outputTokens()) + "}}";
    }

    @Override
    protected String errorBody(int status, String message) {
        String type = status == 401
                ? "invalid_request_error"
                : status == 429 ? "rate_limit_exceeded" : "invalid_request_error";
        String code = status == 401 ? "\"invalid_api_key\"" : "null";
        return "{\"error\":{\"message\":" + quote(message) + ",\"type\":\"" + type + "\",\"param\":null,\"code\":"
                + code + "}}";
    }
}

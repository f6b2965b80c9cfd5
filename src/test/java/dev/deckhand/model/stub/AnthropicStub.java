package dev.deckhand.model.stub;

/**
 * Anthropic messages ({@code POST /v1/messages}). A scripted reply that is a JSON object comes back
 * as a {@code tool_use} block calling the requested tool with it as input; anything else comes back
 * as a {@code text} block (a model that ignored the tool).
 */
public final class AnthropicStub extends ProviderStub {

    private AnthropicStub() {}

    public static AnthropicStub start() {
        return new AnthropicStub();
    }

    @Override
    public String url() {
        return root() + "/v1";
    }

    @Override
    public String providerId() {
        return "anthropic";
    }

    @Override
    protected boolean isChatPath(String path) {
        return path.equals("/v1/messages");
    }

    @Override
    protected String successBody(String raw, RecordedRequest request) {
        String model = request.json().path("model").asText("stub");
        String tool = request.json().path("tool_choice").path("name").asText("act");
        String content;
        String stop;
        if (isJsonObject(raw)) {
            content =
                    "{\"type\":\"tool_use\",\"id\":\"toolu_stub\",\"name\":" + quote(tool) + ",\"input\":" + raw + "}";
            stop = "tool_use";
        } else {
            content = "{\"type\":\"text\",\"text\":" + quote(raw) + "}";
            stop = "end_turn";
        }
        return "{\"id\":\"msg_stub\",\"type\":\"message\",\"role\":\"assistant\",\"model\":" + quote(model)
                + ",\"content\":[" + content + "],\"stop_reason\":\"" + stop + "\",\"stop_sequence\":null,"
                + "\"usage\":{\"input_tokens\":" + inputTokens() + ",\"output_tokens\":" + outputTokens() + "}}";
    }

    @Override
    protected String errorBody(int status, String message) {
        String type =
                switch (status) {
                    case 400 -> "invalid_request_error";
                    case 401 -> "authentication_error";
                    case 403 -> "permission_error";
                    case 404 -> "not_found_error";
                    case 429 -> "rate_limit_error";
                    case 529 -> "overloaded_error";
                    default -> "api_error";
                };
        return "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":" + quote(message) + "}}";
    }
}

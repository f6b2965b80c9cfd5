package dev.deckhand.model.stub;

/** Ollama chat ({@code POST /api/chat}, non-streaming). */
public final class OllamaStub extends ProviderStub {

    private OllamaStub() {}

    public static OllamaStub start() {
        return new OllamaStub();
    }

    @Override
    public String url() {
        return root();
    }

    @Override
    public String providerId() {
        return "ollama";
    }

    @Override
    protected boolean isChatPath(String path) {
        return path.equals("/api/chat");
    }

    @Override
    protected String successBody(String raw, RecordedRequest request) {
        String model = request.json().path("model").asText("stub");
        return "{\"model\":" + quote(model) + ",\"created_at\":\"2026-01-01T00:00:00Z\","
                + "\"message\":{\"role\":\"assistant\",\"content\":" + quote(raw) + "},"
                + "\"done_reason\":\"stop\",\"done\":true,\"total_duration\":1000,\"load_duration\":1,"
                + "\"prompt_eval_count\":" + inputTokens() + ",\"prompt_eval_duration\":1,\"eval_count\":"
                + outputTokens()
                + ",\"eval_duration\":1}";
    }

    @Override
    protected String errorBody(int status, String message) {
        return "{\"error\":" + quote(message) + "}";
    }
}

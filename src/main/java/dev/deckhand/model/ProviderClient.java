package dev.deckhand.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.deckhand.loop.action.ActionParser;
import dev.deckhand.loop.action.ActionSchema;
import dev.deckhand.loop.json.JsonMappers;
import dev.deckhand.loop.json.WireFormatException;
import dev.deckhand.loop.observe.ObservationText;
import dev.deckhand.loop.route.Route;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.googleai.GoogleAiGeminiChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Talks to one provider through LangChain4j (JDK HTTP client only): builds the {@link ChatModel} for
 * a binding and makes one call per turn. How each provider is made to answer with exactly one action:
 * <ul>
 *   <li>OpenAI and OpenAI-compatible: {@code response_format} {@code json_schema} with {@code strict: true};</li>
 *   <li>Gemini: {@code generationConfig.responseMimeType=application/json} with {@code responseJsonSchema}
 *       (the raw schema; LangChain4j picks it over {@code responseSchema} for a raw schema);</li>
 *   <li>Ollama: {@code format} = the schema;</li>
 *   <li>Anthropic: one tool, {@value #TOOL_NAME}, whose input schema is the action schema, forced with
 *       {@code tool_choice {"type":"tool","name":"act"}} and no parallel tool use; its input is returned
 *       as the raw JSON text (Anthropic's messages API has no JSON-schema response format in the GA
 *       surface LangChain4j 1.19 targets, while forced tool use is GA and reliable).</li>
 * </ul>
 * No retries inside (a failed call is reported with the provider's {@code Retry-After}; {@link ProviderRetry}
 * decides); request and response logging off.
 */
public final class ProviderClient {

    /** The single tool offered to Anthropic models. */
    public static final String TOOL_NAME = "act";
    /** The schema name sent with OpenAI's {@code json_schema} response format. */
    public static final String SCHEMA_NAME = "deckhand_action";

    static final int MAX_ERROR_CHARS = 2000;
    static final int ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

    private static final ObjectMapper JSON = JsonMappers.strict();
    /** The actions of the uid route: what a model is offered for a window with an accessibility tree. */
    static final java.util.Set<String> CHECK_ACTIONS = Route.UID.permittedActions();

    static final String CHECK_SYSTEM = "You operate one desktop window that the user granted, to carry out the user's "
            + "instruction. Answer with exactly ONE action as a single JSON object that matches the given schema, and "
            + "nothing else. " + ObservationText.LEGEND;
    /** A sample observation in the form the loop renders. */
    static final String CHECK_USER = "Instruction: press the OK button (this is a connection check)\n"
            + "Observation:\nwindow \"Connection check\"\nu1 lbl \"Deckhand checks that this model can answer with an action.\"\n"
            + "u2 btn \"OK\" [focused]\nu3 btn \"Cancel\"";

    private static final Set<String> TOOL_SCHEMA_KEYS = Set.of(
            "type", "properties", "required", "additionalProperties", "description", "$defs", "title", "$schema");

    private final Duration timeout;
    private Cached cached;
    private final java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong inputTokens = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong outputTokens = new java.util.concurrent.atomic.AtomicLong();
    private volatile ModelException lastFailure;

    /**
     * What this client has used since it was made: calls, the tokens the providers reported, and the
     * failure of the latest call if it failed ({@code deckhand eval} runs one task per process and reads it
     * once at the end).
     */
    public record Usage(
            int calls, long inputTokens, long outputTokens, java.util.Optional<ModelException> lastFailure) {}

    private record Cached(ModelBinding binding, ApiKey key, String schema, ChatModel model) {}

    /** @param timeout per call (connect + read) */
    public ProviderClient(Duration timeout) {
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * One call for one action.
     *
     * @param key nullable: no key is sent (Ollama, OpenAI-compatible endpoints without auth)
     * @return the raw text of the model's one action
     * @throws ModelException with the provider's message verbatim when the call fails
     */
    public String decide(ModelBinding binding, ApiKey key, ModelTurn turn) {
        return reply(binding, key, turn).text();
    }

    /**
     * One call for one action, with the tokens the provider reported for it.
     *
     * @param key nullable: no key is sent
     * @throws ModelException with the provider's message verbatim when the call fails
     */
    public ModelReply reply(ModelBinding binding, ApiKey key, ModelTurn turn) {
        Objects.requireNonNull(binding, "binding");
        Objects.requireNonNull(turn, "turn");
        ChatModel model;
        try {
            model = model(binding, key, turn.jsonSchema());
        } catch (RuntimeException e) {
            throw new ModelException(
                    binding.providerId(), -1, scrub(key, "cannot configure the client: " + e.getMessage()));
        }
        ChatRequest.Builder request = ChatRequest.builder().messages(messages(turn));
        if (binding.provider() != Provider.ANTHROPIC) {
            request.responseFormat(ResponseFormat.builder()
                    .type(ResponseFormatType.JSON)
                    .jsonSchema(JsonSchema.builder()
                            .name(SCHEMA_NAME)
                            .rootElement(JsonRawSchema.from(turn.jsonSchema()))
                            .build())
                    .build());
        }
        ChatResponse response;
        calls.incrementAndGet();
        try {
            response = model.chat(request.build());
        } catch (RuntimeException e) {
            ModelException failure = toModelException(binding, key, e);
            lastFailure = failure;
            throw failure;
        }
        lastFailure = null;
        long in = 0;
        long out = 0;
        if (response.tokenUsage() != null) {
            if (response.tokenUsage().inputTokenCount() != null)
                in = Math.max(0, response.tokenUsage().inputTokenCount());
            if (response.tokenUsage().outputTokenCount() != null)
                out = Math.max(0, response.tokenUsage().outputTokenCount());
        }
        inputTokens.addAndGet(in);
        outputTokens.addAndGet(out);
        return new ModelReply(
                rawAction(binding, response.aiMessage()), binding.providerId(), binding.modelId(), in, out);
    }

    /** Calls and tokens so far, and the latest call's failure. */
    public Usage usage() {
        return new Usage(
                calls.get(), inputTokens.get(), outputTokens.get(), java.util.Optional.ofNullable(lastFailure));
    }

    /**
     * "Test connection": one real call (no image) with the real action schema and a sample observation,
     * through the same structured-output or forced-tool path a turn takes. It passes only when the model
     * answers with an action the loop's strict parser accepts, so a provider or model that rejects the
     * schema, or answers with prose, fails here rather than in the person's first run.
     */
    public ConnectionCheck testConnection(ModelBinding binding, ApiKey key) {
        Objects.requireNonNull(binding, "binding");
        if (binding.provider().keyRequired() && key == null) {
            return ConnectionCheck.failed(binding.providerId() + " needs an API key and none is stored");
        }
        ModelTurn turn = ModelTurn.of(CHECK_SYSTEM, CHECK_USER, ActionSchema.json(CHECK_ACTIONS));
        String reply;
        try {
            reply = decide(binding, key, turn);
        } catch (ModelException e) {
            return ConnectionCheck.failed(e.providerMessage());
        }
        if (reply == null || reply.isBlank()) return ConnectionCheck.failed("the model answered with no content");
        try {
            ActionParser.parse(reply, CHECK_ACTIONS);
            return ConnectionCheck.passed();
        } catch (WireFormatException e) {
            return ConnectionCheck.failed("the model answered, but not with a valid action: " + e.getMessage());
        }
    }

    private synchronized ChatModel model(ModelBinding binding, ApiKey key, String schema) {
        Cached c = cached;
        if (c != null && c.binding.equals(binding) && Objects.equals(c.key, key) && c.schema.equals(schema)) {
            return c.model;
        }
        ChatModel model = build(binding, key, schema);
        cached = new Cached(binding, key, schema, model);
        return model;
    }

    private ChatModel build(ModelBinding b, ApiKey key, String schema) {
        String url = b.effectiveBaseUrl();
        String apiKey = key == null ? null : key.reveal();
        Provider p = b.provider();
        if (p == Provider.OPENAI || p == Provider.OPENAI_COMPATIBLE) {
            OpenAiChatModel.OpenAiChatModelBuilder m = OpenAiChatModel.builder()
                    .httpClientBuilder(http(url))
                    .baseUrl(url)
                    .apiKey(apiKey)
                    .modelName(b.modelId())
                    .strictJsonSchema(true)
                    .temperature(b.temperature())
                    .timeout(timeout)
                    .maxRetries(0)
                    .logRequests(false)
                    .logResponses(false);
            // OpenAI's newer models take only max_completion_tokens; compatible servers mostly know max_tokens.
            if (b.maxOutputTokens() != null) {
                if (p == Provider.OPENAI) m.maxCompletionTokens(b.maxOutputTokens());
                else m.maxTokens(b.maxOutputTokens());
            }
            return m.build();
        }
        if (p == Provider.ANTHROPIC) {
            return AnthropicChatModel.builder()
                    .httpClientBuilder(http(url))
                    .baseUrl(url)
                    .apiKey(apiKey)
                    .modelName(b.modelId())
                    .temperature(b.temperature())
                    .maxTokens(b.maxOutputTokens() != null ? b.maxOutputTokens() : ANTHROPIC_DEFAULT_MAX_TOKENS)
                    .toolSpecifications(actTool(schema))
                    .toolChoiceName(TOOL_NAME)
                    .disableParallelToolUse(true)
                    .timeout(timeout)
                    .maxRetries(0)
                    .logRequests(false)
                    .logResponses(false)
                    .build();
        }
        if (p == Provider.GEMINI) {
            return GoogleAiGeminiChatModel.builder()
                    .httpClientBuilder(http(url))
                    .baseUrl(url)
                    .apiKey(apiKey)
                    .modelName(b.modelId())
                    .temperature(b.temperature())
                    .maxOutputTokens(b.maxOutputTokens())
                    .timeout(timeout)
                    .maxRetries(0)
                    .logRequests(false)
                    .logResponses(false)
                    .build();
        }
        if (p == Provider.OLLAMA) {
            OllamaChatModel.OllamaChatModelBuilder m = OllamaChatModel.builder()
                    .httpClientBuilder(http(url))
                    .baseUrl(url)
                    .modelName(b.modelId())
                    .temperature(b.temperature())
                    .numPredict(b.maxOutputTokens())
                    .timeout(timeout)
                    .maxRetries(0)
                    .logRequests(false)
                    .logResponses(false);
            // A plain local Ollama needs no key; one behind an authenticating proxy gets it as a bearer token.
            if (apiKey != null) m.customHeaders(Map.of("Authorization", "Bearer " + apiKey));
            return m.build();
        }
        throw new AssertionError("unhandled provider " + p);
    }

    private HttpClientBuilder http(String url) {
        HttpClient.Builder jdk = HttpClient.newBuilder();
        // Plain-HTTP endpoints (Ollama, local servers) get HTTP/1.1: no h2c upgrade dance.
        if (url.regionMatches(true, 0, "http:", 0, 5)) jdk.version(HttpClient.Version.HTTP_1_1);
        return new ProviderHttp.Builder(jdk)
                .connectTimeout(timeout.compareTo(Duration.ofSeconds(10)) < 0 ? timeout : Duration.ofSeconds(10))
                .readTimeout(timeout);
    }

    static List<ChatMessage> messages(ModelTurn turn) {
        String text = turn.userText();
        if (turn.feedback() != null) {
            text = text + "\n\nYour previous reply was rejected: " + turn.feedback()
                    + "\nReply again with exactly one action that matches the schema.";
        }
        List<Content> contents = new ArrayList<>();
        contents.add(TextContent.from(text));
        turn.image()
                .ifPresent(png -> contents.add(ImageContent.from(
                        Base64.getEncoder().encodeToString(png), "image/png", ImageContent.DetailLevel.HIGH)));
        return List.of(SystemMessage.from(turn.systemPrompt()), UserMessage.from(contents));
    }

    /**
     * The one tool Anthropic is forced to call. Its input schema is the action schema's root object:
     * each property travels verbatim, plus {@code required}; a root that is not a plain object schema
     * (e.g. a root {@code oneOf}) cannot be a tool's input schema and is refused here.
     */
    static ToolSpecification actTool(String schema) {
        JsonNode root;
        try {
            root = JSON.readTree(schema);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("jsonSchema is not JSON: " + e.getMessage());
        }
        if (root == null
                || !root.isObject()
                || !"object".equals(root.path("type").asText())
                || !root.path("properties").isObject()) {
            throw new IllegalArgumentException(
                    "jsonSchema must be an object schema with properties to be a tool's input schema");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!TOOL_SCHEMA_KEYS.contains(field)) {
                throw new IllegalArgumentException(
                        "jsonSchema's root keyword '" + field + "' cannot be carried by a tool's input schema");
            }
        }
        JsonObjectSchema.Builder params = JsonObjectSchema.builder();
        root.path("properties")
                .properties()
                .forEach(e -> params.addProperty(
                        e.getKey(), JsonRawSchema.from(e.getValue().toString())));
        List<String> required = new ArrayList<>();
        root.path("required").forEach(n -> required.add(n.asText()));
        params.required(required);
        if (root.path("additionalProperties").isBoolean()) {
            params.additionalProperties(root.path("additionalProperties").asBoolean());
        }
        if (root.path("$defs").isObject()) {
            Map<String, dev.langchain4j.model.chat.request.json.JsonSchemaElement> defs =
                    new java.util.LinkedHashMap<>();
            root.path("$defs")
                    .properties()
                    .forEach(e ->
                            defs.put(e.getKey(), JsonRawSchema.from(e.getValue().toString())));
            params.definitions(defs);
        }
        return ToolSpecification.builder()
                .name(TOOL_NAME)
                .description(root.path("description").asText("Perform exactly one action on the granted window."))
                .parameters(params.build())
                .build();
    }

    private static String rawAction(ModelBinding binding, AiMessage message) {
        if (binding.provider() == Provider.ANTHROPIC && message.hasToolExecutionRequests()) {
            // disableParallelToolUse makes this one call; should a model still send more, the first is the answer.
            ToolExecutionRequest call = message.toolExecutionRequests().get(0);
            return call.arguments();
        }
        return message.text() == null ? "" : message.text();
    }

    static ModelException toModelException(ModelBinding binding, ApiKey key, RuntimeException e) {
        Throwable t = e;
        HttpException http = null;
        for (int depth = 0; t != null && depth < 20; depth++, t = t.getCause()) {
            if (t instanceof HttpException h) {
                http = h;
                break;
            }
            if (t.getCause() == t) break;
        }
        if (http != null) {
            java.util.Optional<Duration> retryAfter =
                    http instanceof ProviderHttp.ErrorAnswer answer ? answer.retryAfter() : java.util.Optional.empty();
            return new ModelException(
                    binding.providerId(),
                    http.statusCode(),
                    scrub(key, providerMessage(http.getMessage())),
                    retryAfter);
        }
        // No HTTP answer: say where we tried and the chain of causes (the JDK's are often message-less).
        StringBuilder detail = new StringBuilder("no answer from ")
                .append(binding.effectiveBaseUrl())
                .append(": ");
        String previous = null;
        t = e;
        for (int depth = 0; t != null && depth < 6; depth++, t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            boolean wrapper = message != null
                    && t.getCause() != null
                    && message.equals(t.getCause().toString());
            if (wrapper || t instanceof dev.langchain4j.exception.LangChain4jException && message == null) continue;
            String part = t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
            if (part.equals(previous)) continue;
            if (previous != null) detail.append(" <- ");
            detail.append(part);
            previous = part;
        }
        return new ModelException(binding.providerId(), -1, scrub(key, clip(detail.toString())));
    }

    /**
     * The provider's own message from an error body: {@code error.message} (OpenAI, Anthropic, Gemini),
     * {@code error} as a string (Ollama), a top-level {@code message}; otherwise the body as it came.
     */
    static String providerMessage(String body) {
        if (body == null || body.isBlank()) return "(empty error body)";
        try {
            JsonNode node = JSON.readTree(body);
            if (node != null && node.isObject()) {
                JsonNode error = node.get("error");
                if (error != null && error.isTextual()) return clip(error.asText());
                if (error != null && error.path("message").isTextual())
                    return clip(error.path("message").asText());
                if (node.path("message").isTextual())
                    return clip(node.path("message").asText());
            }
        } catch (java.io.IOException notJson) {
            // fall through: the body itself is the message
        }
        return clip(body.strip());
    }

    private static String scrub(ApiKey key, String text) {
        return key == null ? text : key.scrub(text);
    }

    private static String clip(String s) {
        return s.length() > MAX_ERROR_CHARS ? s.substring(0, MAX_ERROR_CHARS) + "…" : s;
    }
}

package dev.deckhand.model.stub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.deckhand.model.ModelBinding;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A scripted model provider: a real HTTP server on 127.0.0.1 that answers each request with the
 * next scripted reply in the provider's wire format, and records every request. Subclasses speak
 * one provider's format. Typical use:
 *
 * <pre>{@code
 * try (OpenAiStub stub = OpenAiStub.start()) {
 *     stub.enqueue("{\"action\":\"click\",\"uid\":\"u1\"}");
 *     store.save(stub.binding("gpt-test"), ApiKey.of("sk-test"));
 *     ... run ...
 *     stub.requests().get(0).json()   // what the client sent
 * }
 * }</pre>
 * An empty queue answers HTTP 400 with a provider-shaped error saying so: 400 is not retried, so a
 * script shorter than its run ends that run at once instead of waiting out the retries.
 */
public abstract class ProviderStub implements AutoCloseable {

    /** A scripted reply. */
    public sealed interface Reply permits Text, ErrorReply, Computed {}

    /** A reply computed from the request, like a model that reads its observation. */
    public record Computed(java.util.function.Function<RecordedRequest, String> model) implements Reply {}

    /** The model's raw output (an action's JSON, malformed JSON, prose...). */
    public record Text(String raw) implements Reply {}

    /** An HTTP error with a provider-shaped body carrying {@code message}, and a Retry-After header unless null. */
    public record ErrorReply(int status, String message, String retryAfter) implements Reply {
        public ErrorReply(int status, String message) {
            this(status, message, null);
        }
    }

    /** One request as received. Header names are lower case. */
    public record RecordedRequest(
            String method, String path, String query, Map<String, List<String>> headers, String body) {
        /** The first value of a header, or null. */
        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static final ObjectMapper JSON = new ObjectMapper();

    static {
        // The JDK server leaves Nagle on by default, which adds ~40 ms of delayed-ACK wait per reply on
        // loopback; it is read once, when the first server is created.
        if (System.getProperty("sun.net.httpserver.nodelay") == null)
            System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Deque<Reply> replies = new ArrayDeque<>();
    private final List<RecordedRequest> requests = new ArrayList<>();
    private volatile long inputTokens = 10;
    private volatile long outputTokens = 5;

    protected ProviderStub() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, getClass().getSimpleName());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** The server's root, {@code http://127.0.0.1:<port>}. */
    public String root() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The base URL to put in a {@link ModelBinding} for this provider. */
    public abstract String url();

    /** The provider id this stub speaks for. */
    public abstract String providerId();

    /** A binding pointing at this stub. */
    public ModelBinding binding(String modelId) {
        return ModelBinding.of(providerId(), modelId, url());
    }

    /** Queues the model's raw output for the next request. */
    public synchronized ProviderStub enqueue(String raw) {
        replies.add(new Text(raw));
        return this;
    }

    /** Queues a reply computed from the request (the model's raw output). */
    public synchronized ProviderStub enqueue(java.util.function.Function<RecordedRequest, String> model) {
        replies.add(new Computed(model));
        return this;
    }

    /** Queues an HTTP error whose provider-shaped body carries {@code message}. */
    public synchronized ProviderStub enqueueError(int status, String message) {
        replies.add(new ErrorReply(status, message));
        return this;
    }

    /** The token counts every success body reports from now on (default 10 in, 5 out). */
    public ProviderStub usage(long input, long output) {
        inputTokens = input;
        outputTokens = output;
        return this;
    }

    protected long inputTokens() {
        return inputTokens;
    }

    protected long outputTokens() {
        return outputTokens;
    }

    /** Queues an HTTP error with a {@code Retry-After} header. */
    public synchronized ProviderStub enqueueError(int status, String message, String retryAfter) {
        replies.add(new ErrorReply(status, message, retryAfter));
        return this;
    }

    public synchronized List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    public synchronized RecordedRequest lastRequest() {
        if (requests.isEmpty()) throw new AssertionError(getClass().getSimpleName() + " received no request");
        return requests.get(requests.size() - 1);
    }

    public synchronized int pendingReplies() {
        return replies.size();
    }

    /** The path a chat request must come to for {@code request}; others get 404. */
    protected abstract boolean isChatPath(String path);

    /** The success body carrying the model's raw output. */
    protected abstract String successBody(String raw, RecordedRequest request);

    /** A provider-shaped error body. */
    protected abstract String errorBody(int status, String message);

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] in = exchange.getRequestBody().readAllBytes();
            Map<String, List<String>> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
            RecordedRequest request = new RecordedRequest(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(),
                    exchange.getRequestURI().getRawQuery(),
                    headers,
                    new String(in, StandardCharsets.UTF_8));
            Reply reply;
            synchronized (this) {
                requests.add(request);
                reply = isChatPath(request.path()) && "POST".equals(request.method())
                        ? replies.poll()
                        : new ErrorReply(404, "stub: no route for " + request.method() + " " + request.path());
            }
            if (reply == null)
                reply = new ErrorReply(
                        400, "stub: no scripted reply left"); // 400 is not retried: a short script fails fast
            if (reply instanceof Computed computed) {
                try {
                    reply = new Text(computed.model().apply(request));
                } catch (RuntimeException | AssertionError e) {
                    reply = new ErrorReply(400, "stub: the scripted model failed: " + e.getMessage());
                }
            }
            int status;
            String body;
            if (reply instanceof ErrorReply error && error.retryAfter() != null) {
                exchange.getResponseHeaders().set("Retry-After", error.retryAfter());
            }
            if (reply instanceof Text text) {
                status = 200;
                body = successBody(text.raw(), request);
            } else if (reply instanceof ErrorReply error) {
                status = error.status();
                body = errorBody(error.status(), error.message());
            } else {
                throw new AssertionError(reply);
            }
            byte[] out = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, out.length);
            exchange.getResponseBody().write(out);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /** JSON string literal. */
    protected static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether {@code raw} is a JSON object (so it can be a tool call's input). */
    protected static boolean isJsonObject(String raw) {
        try {
            JsonNode n = JSON.readTree(raw);
            return n != null && n.isObject();
        } catch (IOException e) {
            return false;
        }
    }
}

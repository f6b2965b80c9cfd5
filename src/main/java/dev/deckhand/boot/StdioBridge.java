package dev.deckhand.boot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.home.ServerAddress;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * MCP over stdio: newline-delimited JSON-RPC on standard input and output, carried to this
 * server's own Streamable HTTP endpoint with the MCP token. The stdio transport therefore passes
 * through exactly the same authentication, tool and refusal path as HTTP clients.
 *
 * <p>Each message is posted on its own thread, so a notification such as {@code notifications/cancelled}
 * reaches the server while a long {@code tools/call} is still streaming its progress. Messages from
 * the server (responses, progress notifications) are written whole, one per line.
 */
@ApplicationScoped
@Unremovable
public class StdioBridge {

    private static final Logger LOG = Logger.getLogger(StdioBridge.class);

    private final ServerAddress address;
    private final DeckhandHome home;
    private final ObjectMapper json;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private volatile String sessionId;
    private volatile String protocolVersion;

    @Inject
    public StdioBridge(ServerAddress address, DeckhandHome home, ObjectMapper json) {
        this.address = address;
        this.home = home;
        this.json = json;
    }

    /** Bridges until standard input closes; returns the process exit code. */
    public int run(InputStream in, PrintStream out) throws IOException, InterruptedException {
        ExecutorService senders = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "deckhand-stdio");
            t.setDaemon(true);
            return t;
        });
        String token = home.secret(DeckhandHome.MCP_TOKEN);
        URI endpoint = URI.create(address.mcpUrl());
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) continue;
                JsonNode message;
                try {
                    message = json.readTree(line);
                } catch (IOException e) {
                    write(out, error(null, -32700, "Parse error: not a JSON-RPC message"));
                    continue;
                }
                boolean initialize = "initialize".equals(message.path("method").asText());
                if (initialize) {
                    // The session must exist before anything else is sent.
                    forward(endpoint, token, line, message, out);
                } else {
                    String body = line;
                    senders.execute(() -> forward(endpoint, token, body, message, out));
                }
            }
        } finally {
            senders.shutdown();
            senders.awaitTermination(10, TimeUnit.SECONDS);
            closeSession(endpoint, token);
        }
        return 0;
    }

    private void forward(URI endpoint, String token, String body, JsonNode message, PrintStream out) {
        JsonNode id = message.get("id");
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                    .header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            if (sessionId != null) request.header("Mcp-Session-Id", sessionId);
            if (protocolVersion != null) request.header("MCP-Protocol-Version", protocolVersion);
            HttpResponse<Stream<String>> response = http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
            response.headers().firstValue("Mcp-Session-Id").ifPresent(s -> sessionId = s);
            String type = response.headers().firstValue("Content-Type").orElse("");
            try (Stream<String> lines = response.body()) {
                if (response.statusCode() >= 400) {
                    String text = lines.collect(java.util.stream.Collectors.joining(" "));
                    if (id != null) write(out, error(id, -32603, "HTTP " + response.statusCode() + ": " + text));
                    return;
                }
                if (type.startsWith("text/event-stream")) {
                    StringBuilder data = new StringBuilder();
                    lines.forEach(l -> {
                        if (l.startsWith("data:")) {
                            data.append(l.substring(l.startsWith("data: ") ? 6 : 5));
                        } else if (l.isEmpty() && data.length() > 0) {
                            emit(out, data.toString());
                            data.setLength(0);
                        }
                    });
                    if (data.length() > 0) emit(out, data.toString());
                } else {
                    String text = lines.collect(java.util.stream.Collectors.joining());
                    if (!text.isBlank()) emit(out, text);
                }
            }
        } catch (IOException e) {
            if (id != null) write(out, error(id, -32603, "Deckhand's HTTP endpoint did not answer: " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void emit(PrintStream out, String message) {
        try {
            JsonNode node = json.readTree(message);
            JsonNode version = node.path("result").path("protocolVersion");
            if (version.isTextual()) protocolVersion = version.asText();
            write(out, json.writeValueAsString(node));
        } catch (IOException e) {
            LOG.warnf("dropped a message from the server that is not JSON (%d characters)", message.length());
        }
    }

    private ObjectNode error(JsonNode id, int code, String text) {
        ObjectNode error = json.createObjectNode();
        error.put("jsonrpc", "2.0");
        if (id == null) error.putNull("id");
        else error.set("id", id);
        error.putObject("error").put("code", code).put("message", text);
        return error;
    }

    private void write(PrintStream out, Object message) {
        String line;
        try {
            line = message instanceof String s ? s : json.writeValueAsString(message);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        synchronized (out) {
            out.print(line);
            out.print('\n');
            out.flush();
        }
    }

    private void closeSession(URI endpoint, String token) {
        if (sessionId == null) return;
        try {
            http.send(
                    HttpRequest.newBuilder(endpoint)
                            .header("Authorization", "Bearer " + token)
                            .header("Mcp-Session-Id", sessionId)
                            .DELETE()
                            .timeout(Duration.ofSeconds(2))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (IOException | InterruptedException e) {
            LOG.debugf("closing the MCP session failed: %s", e.getMessage());
        }
    }
}

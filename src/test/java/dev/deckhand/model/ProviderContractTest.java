package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.model.stub.ProviderStub.RecordedRequest;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every provider binding must pass, each against its local stub speaking the
 * provider's wire format: what was sent (schema, image, key, feedback) is read from the recorded
 * request, not from our own objects.
 */
abstract class ProviderContractTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String KEY = "sk-test-0123456789abcdef-SECRETKEY";
    static final String SCHEMA = "{\"type\":\"object\",\"properties\":{"
            + "\"action\":{\"type\":\"string\",\"enum\":[\"click\",\"type\",\"done\"]},"
            + "\"uid\":{\"type\":[\"string\",\"null\"]},"
            + "\"text\":{\"type\":[\"string\",\"null\"]}},"
            + "\"required\":[\"action\",\"uid\",\"text\"],\"additionalProperties\":false}";
    static final String ACTION = "{\"action\":\"click\",\"uid\":\"u7Kq2\",\"text\":null}";
    static final String SYSTEM = "You operate one window. Answer with exactly one action.";
    static final String USER =
            "Instruction: save the file\nLast steps: none\nObservation:\n[u7Kq2] push button \"Save\"";

    @TempDir
    Path home;

    ProviderStub stub;
    ModelBindingStore store;
    BoundModelClient client;

    /** Starts this provider's stub. */
    abstract ProviderStub startStub();

    /** The key as the request carried it in this provider's header/param, or null when none was sent. */
    abstract String sentKey(RecordedRequest request);

    /** The action schema as the request carried it (response format, tool input schema, format...). */
    abstract JsonNode sentSchema(RecordedRequest request);

    /** The base64 image data the request carried, or null. */
    abstract String sentImage(RecordedRequest request);

    /** All text of the user message. */
    abstract String sentUserText(RecordedRequest request);

    /** Whether this provider is bound with a key in these tests. */
    boolean bindsKey() {
        return true;
    }

    @BeforeEach
    void bind() {
        stub = startStub();
        store = new ModelBindingStore(home);
        client = new BoundModelClient(store, new ProviderClient(Duration.ofSeconds(20)));
        store.save(stub.binding("model-under-test"), bindsKey() ? ApiKey.of(KEY) : null);
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    @Test
    void decideReturnsTheScriptedActionText() throws IOException {
        stub.enqueue(ACTION);
        String raw = client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA));
        assertEquals(JSON.readTree(ACTION), JSON.readTree(raw));
        assertEquals(1, stub.requests().size());
    }

    @Test
    void theReplyCarriesTheTokensTheProviderReportedAndWhichModelAnswered() {
        stub.usage(1234, 56).enqueue(ACTION);
        ModelReply reply = client.reply(ModelTurn.of(SYSTEM, USER, SCHEMA));
        assertEquals(1234, reply.inputTokens());
        assertEquals(56, reply.outputTokens());
        assertEquals(stub.providerId(), reply.providerId());
        assertEquals("model-under-test", reply.modelId());
    }

    @Test
    void theSchemaIsSentAndNoImageWithoutOne() throws IOException {
        stub.enqueue(ACTION);
        client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA));
        RecordedRequest request = stub.lastRequest();
        JsonNode expected = JSON.readTree(SCHEMA);
        JsonNode sent = sentSchema(request);
        assertEquals(expected.get("properties"), sent.get("properties"), "schema properties as sent: " + sent);
        assertEquals(expected.get("required"), sent.get("required"), "schema required as sent: " + sent);
        assertNull(sentImage(request), "no image was given, none may be sent");
        assertTrue(
                sentUserText(request).contains("[u7Kq2] push button \"Save\""),
                "the observation is in the user message");
        assertFalse(request.body().contains("rejected"), "no feedback without one");
    }

    @Test
    void theImageIsSentOnlyWhenTheTurnHasOne() throws IOException {
        byte[] png = png();
        stub.enqueue(ACTION).enqueue(ACTION);
        client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA).withImage(png));
        assertEquals(Base64.getEncoder().encodeToString(png), sentImage(stub.lastRequest()));
        client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA));
        assertNull(sentImage(stub.lastRequest()), "the next turn without an image sends none (no image history)");
    }

    @Test
    void theKeyTravelsInTheProvidersHeader() {
        stub.enqueue(ACTION);
        client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA));
        assertEquals(bindsKey() ? KEY : null, sentKey(stub.lastRequest()));
    }

    @Test
    void invalidOutputIsReturnedAsIsAndTheFeedbackGoesOutOnTheRetry() {
        stub.enqueue("{\"action\": \"click\", \"uid\": ").enqueue(ACTION);
        ModelTurn turn = ModelTurn.of(SYSTEM, USER, SCHEMA);
        String first = client.decide(turn);
        String feedback = "output is not valid JSON: unexpected end of input at offset 29";
        if (!stub.providerId().equals("anthropic")) {
            assertEquals("{\"action\": \"click\", \"uid\": ", first, "the raw text reaches the parser unchanged");
        }
        assertFalse(sentUserText(stub.requests().get(0)).contains(feedback));
        client.decide(turn.withFeedback(feedback));
        String retry = sentUserText(stub.requests().get(1));
        assertTrue(retry.contains(feedback), "the parser's error goes back on the retry: " + retry);
        assertTrue(retry.contains("[u7Kq2] push button \"Save\""), "with the same observation");
    }

    @Test
    void aProviderErrorComesBackVerbatimFromTestConnectionAndDecide() {
        String message = "Incorrect API key provided. You can find your API key in your account settings.";
        stub.enqueueError(401, message);
        ConnectionCheck check = client.testConnection();
        assertFalse(check.ok());
        assertEquals(message, check.error());

        stub.enqueueError(429, "Rate limit reached for requests");
        ModelException e = assertThrows(ModelException.class, () -> client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA)));
        assertEquals(429, e.httpStatus());
        assertEquals("Rate limit reached for requests", e.providerMessage());
        assertEquals(2, stub.requests().size(), "no retries behind the loop's back");
    }

    @Test
    void testConnectionSendsTheRealActionSchemaWithASampleObservationAndPassesOnAValidAction() {
        stub.enqueue("{\"action\":\"click\",\"uid\":\"u2\"}");
        assertEquals(ConnectionCheck.passed(), client.testConnection());
        assertEquals(1, stub.requests().size());
        assertNull(sentImage(stub.lastRequest()));
        JsonNode schema = sentSchema(stub.lastRequest());
        assertTrue(
                schema.path("properties").has("action")
                        && schema.path("properties").has("uid")
                        && schema.path("properties").has("keys"),
                "the action schema as a turn sends it: " + schema);
        assertTrue(sentUserText(stub.lastRequest()).contains("u2 btn \"OK\""), "a sample observation");
    }

    @Test
    void testConnectionFailsWhenTheModelAnswersWithSomethingOtherThanAnAction() {
        stub.enqueue("{\"ok\":true}")
                .enqueue("Sure! I would click OK.")
                .enqueue("{\"action\":\"click_at\",\"x\":1,\"y\":1,\"basis\":\"c1\"}");
        for (int i = 0; i < 3; i++) {
            ConnectionCheck check = client.testConnection();
            assertFalse(check.ok(), "answer " + i);
            assertTrue(check.error().startsWith("the model answered, but not with a valid action"), check.error());
        }
    }

    @Test
    void testConnectionFailsAgainstAProviderThatRejectsTheActionSchema() {
        String rejects = "Invalid schema for response_format 'deckhand_action': 'oneOf' is not permitted.";
        stub.enqueueError(400, rejects);
        assertEquals(ConnectionCheck.failed(rejects), client.testConnection());
    }

    @Test
    void anErrorEchoingTheKeyIsScrubbed() {
        stub.enqueueError(400, "bad key " + KEY + " given");
        ConnectionCheck check = client.testConnection();
        assertFalse(check.ok());
        if (bindsKey()) {
            assertFalse(check.error().contains(KEY));
            assertTrue(check.error().startsWith("bad key ••••"), check.error());
        }
    }

    @Test
    void theKeyAppearsInNoLogRecordExceptionOrToString() {
        List<LogRecord> records = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger root = Logger.getLogger("");
        Logger lc4j = Logger.getLogger("dev.langchain4j");
        Level rootLevel = root.getLevel();
        Level lc4jLevel = lc4j.getLevel();
        handler.setLevel(Level.ALL);
        root.addHandler(handler);
        lc4j.setLevel(Level.ALL);
        try {
            // The capture sees what LangChain4j logs through SLF4J (proves the pipe, so an empty capture means
            // something).
            org.slf4j.LoggerFactory.getLogger("dev.langchain4j.capture-check").debug("capture check");
            stub.enqueue(ACTION).enqueueError(401, "invalid key").enqueue("not json at all");
            client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA).withImage(png()));
            ModelException e =
                    assertThrows(ModelException.class, () -> client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA)));
            client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA));
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            assertFalse(trace.toString().contains(KEY));
            assertFalse(store.apiKey().map(Object::toString).orElse("").contains(KEY));
            assertFalse(store.binding().orElseThrow().toString().contains(KEY));
        } finally {
            root.removeHandler(handler);
            root.setLevel(rootLevel);
            lc4j.setLevel(lc4jLevel);
        }
        assertTrue(records.stream().anyMatch(r -> "capture check".equals(r.getMessage())), "log capture works");
        for (LogRecord r : records) {
            String text = String.valueOf(r.getMessage()) + " "
                    + (r.getParameters() == null ? "" : List.of(r.getParameters()));
            assertFalse(text.contains(KEY), "log record carries the key: " + r.getLoggerName());
            if (r.getThrown() != null) {
                StringWriter w = new StringWriter();
                r.getThrown().printStackTrace(new PrintWriter(w));
                assertFalse(w.toString().contains(KEY), "logged exception carries the key");
            }
        }
        if (bindsKey()) assertTrue(KEY.equals(sentKey(stub.requests().get(0))), "while the stub did receive it");
    }

    @Test
    void noBindingRefusesModelNotBoundAndCallsNothing() {
        store.clear();
        stub.enqueue(ACTION);
        RefusedException e =
                assertThrows(RefusedException.class, () -> client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA)));
        assertEquals(RefusalCode.MODEL_NOT_BOUND, e.code());
        assertEquals(0, stub.requests().size(), "never a silent fallback");
        assertFalse(client.testConnection().ok());
        assertEquals(0, stub.requests().size());
    }

    static byte[] png() {
        BufferedImage image = new BufferedImage(4, 3, BufferedImage.TYPE_INT_RGB);
        image.setRGB(1, 1, 0xff8800);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The first JSON node of {@code array} whose {@code field} equals {@code value}, or a missing node. */
    static JsonNode find(JsonNode array, String field, String value) {
        for (JsonNode n : array) {
            if (value.equals(n.path(field).asText())) return n;
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    static Optional<String> nonNull(String s) {
        return Optional.ofNullable(s);
    }
}

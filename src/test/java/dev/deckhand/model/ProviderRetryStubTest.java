package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.model.stub.AnthropicStub;
import dev.deckhand.model.stub.GeminiStub;
import dev.deckhand.model.stub.OllamaStub;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The retry rule against each provider's wire-format stub, over real HTTP and the real clock: the
 * {@code Retry-After} header reaches the rule through LangChain4j, and a provider that stays down ends
 * with its own message before the deadline.
 */
@Tag("app")
class ProviderRetryStubTest {

    static final String ACTION = "{\"action\":\"click\",\"uid\":\"u7Kq2\",\"text\":null}";

    @TempDir
    Path home;

    static ProviderStub stub(String provider) {
        return switch (provider) {
            case "openai" -> OpenAiStub.start();
            case "anthropic" -> AnthropicStub.start();
            case "gemini" -> GeminiStub.start();
            case "ollama" -> OllamaStub.start();
            default -> throw new IllegalArgumentException(provider);
        };
    }

    private BoundModelClient bind(ProviderStub stub) {
        ModelBindingStore store = new ModelBindingStore(home);
        store.save(
                stub.binding("model-under-test"),
                stub.providerId().equals("ollama") ? null : ApiKey.of("sk-test-0123456789abcdef"));
        return new BoundModelClient(store, new ProviderClient(Duration.ofSeconds(10)));
    }

    private static ModelTurn turn() {
        return ModelTurn.of(
                "system", "Instruction: save\nObservation:\n[u7Kq2] push button \"Save\"", ProviderContractTest.SCHEMA);
    }

    @ParameterizedTest
    @ValueSource(strings = {"openai", "anthropic", "gemini", "ollama"})
    void twice429WithRetryAfterOneThenAnAction(String provider) throws Exception {
        try (ProviderStub stub = stub(provider)) {
            stub.enqueueError(429, "Rate limit reached for requests", "1")
                    .enqueueError(429, "Rate limit reached for requests", "1")
                    .enqueue(ACTION);
            BoundModelClient client = bind(stub);
            long t0 = System.nanoTime();
            ModelReply reply = ProviderRetry.system()
                    .call(() -> client.reply(turn()), Instant.now().plusSeconds(60));
            long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(ProviderContractTest.JSON.readTree(ACTION), ProviderContractTest.JSON.readTree(reply.text()));
            assertEquals(3, stub.requests().size(), "two refused calls and the one that acted");
            assertTrue(elapsedMs >= 2_000, "waited the asked second twice: " + elapsedMs + " ms");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"openai", "anthropic", "gemini", "ollama"})
    void aProviderStayingAt503EndsWithItsMessageWithinTheDeadline(String provider) {
        try (ProviderStub stub = stub(provider)) {
            for (int i = 0; i < 20; i++) stub.enqueueError(503, "The service is temporarily overloaded");
            BoundModelClient client = bind(stub);
            Instant deadline = Instant.now().plusSeconds(4);
            ProviderRetry.GaveUp e = assertThrows(ProviderRetry.GaveUp.class, () -> ProviderRetry.system()
                    .call(() -> client.reply(turn()), deadline));
            // no wait reaches past the deadline; the last try may start just before it and take its request's
            // time (a CI run at load 1 ended 16 ms past a 4 s deadline), so one second of slack for that request
            assertTrue(
                    Instant.now().isBefore(deadline.plusSeconds(1)),
                    "ended at the wall clock, give or take the last request");
            assertTrue(
                    e.getMessage().contains(provider)
                            && e.getMessage().contains("HTTP 503")
                            && e.getMessage().contains("The service is temporarily overloaded"),
                    e.getMessage());
            assertTrue(
                    stub.requests().size() >= 2,
                    "it was retried: " + stub.requests().size());
        }
    }
}

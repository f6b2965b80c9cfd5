package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.model.stub.OllamaStub;
import dev.deckhand.model.stub.OpenAiStub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-app model bindings: each app's turns go to its own model, the rest to the default, never a silent fallback. */
@Tag("app")
class AppBindingTest {

    static final String ACTION = "{\"action\":\"click\",\"uid\":\"u1\"}";

    @TempDir
    Path home;

    private static ModelTurn turn() {
        return ModelTurn.of("system", "Instruction: x\nObservation:\nu1 btn \"OK\"", ProviderContractTest.SCHEMA);
    }

    @Test
    void twoAppsBoundToTwoStubModelsEachGoToTheirOwnAndOthersToTheDefault() {
        try (OpenAiStub main = OpenAiStub.startCompatible();
                OllamaStub forEditor = OllamaStub.start();
                OpenAiStub forCalc = OpenAiStub.startCompatible()) {
            ModelBindingStore store = new ModelBindingStore(home);
            store.save(main.binding("default-model"), null);
            store.saveAppBindings(Map.of(
                    "Mousepad", forEditor.binding("editor-model"), "gnome-calculator", forCalc.binding("calc-model")));
            BoundModelClient client = new BoundModelClient(store, new ProviderClient(Duration.ofSeconds(10)));
            main.enqueue(ACTION);
            forEditor.enqueue(ACTION);
            forCalc.enqueue(ACTION);

            assertEquals(
                    "editor-model",
                    client.forApp("mousepad").reply(turn()).modelId(),
                    "WM_CLASS matched ignoring case");
            assertEquals(
                    "calc-model",
                    client.forApp("gnome-calculator").reply(turn()).modelId());
            assertEquals(
                    "default-model", client.forApp("galculator").reply(turn()).modelId());
            assertEquals(
                    "editor-model", forEditor.lastRequest().json().path("model").asText(), "asserted on the stub");
            assertEquals(
                    "calc-model", forCalc.lastRequest().json().path("model").asText());
            assertEquals(
                    "default-model", main.lastRequest().json().path("model").asText());
            assertEquals(1, main.requests().size());
            assertEquals(1, forEditor.requests().size());
            assertEquals(1, forCalc.requests().size());
        }
    }

    @Test
    void aBrokenAppBindingIsModelNotBoundNamingTheAppAndCallsNothing() throws Exception {
        try (OpenAiStub main = OpenAiStub.startCompatible()) {
            ModelBindingStore store = new ModelBindingStore(home);
            store.save(main.binding("default-model"), null);
            Files.writeString(
                    home.resolve(dev.deckhand.home.DeckhandHome.MODEL_APPS),
                    "{\"Mousepad\": {\"providerId\": \"nope\", \"modelId\": \"m\"}}");
            BoundModelClient client = new BoundModelClient(store, new ProviderClient(Duration.ofSeconds(10)));
            main.enqueue(ACTION);
            RefusedException e = assertThrows(
                    RefusedException.class, () -> client.forApp("Mousepad").reply(turn()));
            assertEquals(RefusalCode.MODEL_NOT_BOUND, e.code());
            assertTrue(
                    e.refusal().detail().contains("app Mousepad"), e.refusal().detail());
            assertEquals(0, main.requests().size(), "never a silent fallback to the default model");
            assertEquals(
                    "default-model",
                    client.forApp("galculator").reply(turn()).modelId(),
                    "other apps are not affected");
        }
    }

    @Test
    void anAppBoundToAnotherKeyedEndpointGetsNoKeyMeantForTheDefaultOne() {
        try (OpenAiStub main = OpenAiStub.start();
                OpenAiStub other = OpenAiStub.start()) {
            ModelBindingStore store = new ModelBindingStore(home);
            store.save(main.binding("default-model"), ApiKey.of("sk-test-0123456789abcdef"));
            store.saveAppBindings(Map.of("Mousepad", other.binding("other-model")));
            BoundModelClient client = new BoundModelClient(store, new ProviderClient(Duration.ofSeconds(10)));
            RefusedException e = assertThrows(
                    RefusedException.class, () -> client.forApp("Mousepad").reply(turn()));
            assertEquals(RefusalCode.MODEL_NOT_BOUND, e.code());
            assertTrue(
                    e.refusal().detail().contains("app Mousepad")
                            && e.refusal().detail().contains("API key"),
                    e.refusal().detail());
            assertEquals(0, other.requests().size());
        }
    }

    @Test
    void anExistingBindingFileWithoutAppsOrPricesKeepsWorking() throws Exception {
        Files.writeString(
                home.resolve(dev.deckhand.home.DeckhandHome.MODEL_BINDING),
                "{\"providerId\":\"ollama\",\"modelId\":\"llava\",\"baseUrl\":null,\"temperature\":null,\"maxOutputTokens\":null}");
        ModelBindingStore store = new ModelBindingStore(home);
        assertEquals("llava", store.binding().orElseThrow().modelId());
        assertEquals(Map.of(), store.appBindings());
        assertEquals(PriceTable.DEFAULTS, store.prices());
    }
}

package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.model.stub.ProviderStub.RecordedRequest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Any OpenAI-compatible endpoint: same wire format at the bound base URL; the key is optional. */
@Tag("app")
class OpenAiCompatibleBindingTest extends ProviderContractTest {

    private final OpenAiBindingTest wire = new OpenAiBindingTest();

    @Override
    ProviderStub startStub() {
        return OpenAiStub.startCompatible();
    }

    @Override
    String sentKey(RecordedRequest r) {
        return wire.sentKey(r);
    }

    @Override
    JsonNode sentSchema(RecordedRequest r) {
        return wire.sentSchema(r);
    }

    @Override
    String sentImage(RecordedRequest r) {
        return wire.sentImage(r);
    }

    @Override
    String sentUserText(RecordedRequest r) {
        return wire.sentUserText(r);
    }

    @Test
    void withoutAKeyNoAuthorizationHeaderIsSent() {
        store.clearApiKey();
        stub.enqueue(ACTION);
        client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA));
        assertNull(stub.lastRequest().header("Authorization"));
        assertEquals("openai-compatible", store.binding().orElseThrow().providerId());
    }
}

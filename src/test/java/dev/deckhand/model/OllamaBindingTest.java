package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.deckhand.model.stub.OllamaStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.model.stub.ProviderStub.RecordedRequest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Ollama /api/chat: format = the schema, images as base64 on the message, no key. */
@Tag("app")
class OllamaBindingTest extends ProviderContractTest {

    @Override
    ProviderStub startStub() {
        return OllamaStub.start();
    }

    @Override
    boolean bindsKey() {
        return false;
    }

    @Override
    String sentKey(RecordedRequest r) {
        String auth = r.header("Authorization");
        if (auth != null) return auth.replaceFirst("^Bearer ", "");
        return r.header("x-api-key");
    }

    @Override
    JsonNode sentSchema(RecordedRequest r) {
        return r.json().path("format");
    }

    @Override
    String sentImage(RecordedRequest r) {
        JsonNode images = user(r).path("images");
        return images.isArray() && images.size() > 0 ? images.get(0).asText() : null;
    }

    @Override
    String sentUserText(RecordedRequest r) {
        return user(r).path("content").asText();
    }

    static JsonNode user(RecordedRequest r) {
        return find(r.json().path("messages"), "role", "user");
    }

    @Test
    void theRequestIsNonStreamingWithTheSchemaAsFormat() {
        stub.enqueue(ACTION);
        client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA));
        JsonNode body = stub.lastRequest().json();
        assertFalse(body.path("stream").asBoolean(true));
        assertEquals("object", body.path("format").path("type").asText());
        assertEquals(2, body.path("messages").size(), "system + one user message");
        assertEquals("/api/chat", stub.lastRequest().path());
    }

    @Test
    void aKeyWhenSetGoesAsBearerForAnAuthenticatingProxy() {
        store.save(stub.binding("model-under-test"), ApiKey.of(KEY));
        stub.enqueue(ACTION);
        client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA));
        assertEquals("Bearer " + KEY, stub.lastRequest().header("Authorization"));
    }
}

package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.deckhand.model.stub.AnthropicStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.model.stub.ProviderStub.RecordedRequest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Anthropic messages: one forced tool whose input schema is the action schema; x-api-key. */
@Tag("app")
class AnthropicBindingTest extends ProviderContractTest {

    @Override
    ProviderStub startStub() {
        return AnthropicStub.start();
    }

    @Override
    String sentKey(RecordedRequest r) {
        return r.header("x-api-key");
    }

    @Override
    JsonNode sentSchema(RecordedRequest r) {
        return find(r.json().path("tools"), "name", ProviderClient.TOOL_NAME).path("input_schema");
    }

    @Override
    String sentImage(RecordedRequest r) {
        for (JsonNode part : user(r).path("content")) {
            if ("image".equals(part.path("type").asText())) {
                assertEquals("base64", part.path("source").path("type").asText());
                assertEquals("image/png", part.path("source").path("media_type").asText());
                return part.path("source").path("data").asText();
            }
        }
        return null;
    }

    @Override
    String sentUserText(RecordedRequest r) {
        JsonNode content = user(r).path("content");
        if (content.isTextual()) return content.asText();
        StringBuilder text = new StringBuilder();
        for (JsonNode part : content)
            if ("text".equals(part.path("type").asText()))
                text.append(part.path("text").asText());
        return text.toString();
    }

    static JsonNode user(RecordedRequest r) {
        return find(r.json().path("messages"), "role", "user");
    }

    @Test
    void exactlyOneToolIsOfferedAndForced() {
        stub.enqueue(ACTION);
        client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA));
        RecordedRequest r = stub.lastRequest();
        JsonNode body = r.json();
        assertEquals(1, body.path("tools").size());
        assertEquals("tool", body.path("tool_choice").path("type").asText());
        assertEquals(
                ProviderClient.TOOL_NAME, body.path("tool_choice").path("name").asText());
        assertTrue(body.path("tool_choice").path("disable_parallel_tool_use").asBoolean());
        assertEquals(
                "object",
                body.path("tools").get(0).path("input_schema").path("type").asText());
        assertEquals(1, body.path("messages").size(), "one user message, no history");
        assertTrue(body.path("system").toString().contains(SYSTEM));
        assertTrue(body.path("max_tokens").asInt() > 0);
        assertTrue(r.header("anthropic-version") != null, "anthropic-version header");
        assertEquals("/v1/messages", r.path());
    }

    @Test
    void aModelThatAnswersInProseInsteadOfTheToolGivesItsTextToTheParser() {
        stub.enqueue("I would click Save.");
        assertEquals("I would click Save.", client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA)));
    }
}

package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.model.stub.ProviderStub.RecordedRequest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** OpenAI chat completions: strict json_schema response format, Bearer key, image_url data URLs. */
@Tag("app")
class OpenAiBindingTest extends ProviderContractTest {

    @Override
    ProviderStub startStub() {
        return OpenAiStub.start();
    }

    @Override
    String sentKey(RecordedRequest r) {
        String auth = r.header("Authorization");
        return auth == null ? null : auth.replaceFirst("^Bearer ", "");
    }

    @Override
    JsonNode sentSchema(RecordedRequest r) {
        return r.json().path("response_format").path("json_schema").path("schema");
    }

    @Override
    String sentImage(RecordedRequest r) {
        for (JsonNode part : user(r).path("content")) {
            if ("image_url".equals(part.path("type").asText())) {
                String url = part.path("image_url").path("url").asText();
                assertTrue(url.startsWith("data:image/png;base64,"), url);
                return url.substring("data:image/png;base64,".length());
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
    void theResponseFormatIsStrictJsonSchemaAndTheSystemPromptIsOneMessage() {
        stub.enqueue(ACTION);
        client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA));
        JsonNode body = stub.lastRequest().json();
        assertEquals("json_schema", body.path("response_format").path("type").asText());
        assertTrue(
                body.path("response_format").path("json_schema").path("strict").asBoolean());
        assertEquals("model-under-test", body.path("model").asText());
        assertEquals(2, body.path("messages").size(), "system + one user message, no history");
        assertEquals(
                SYSTEM,
                find(body.path("messages"), "role", "system").path("content").asText());
        assertEquals("/v1/chat/completions", stub.lastRequest().path());
    }
}

package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.deckhand.model.stub.GeminiStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.model.stub.ProviderStub.RecordedRequest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Gemini generateContent: JSON mime type with the schema, x-goog-api-key, inlineData image. */
@Tag("app")
class GeminiBindingTest extends ProviderContractTest {

    @Override
    ProviderStub startStub() {
        return GeminiStub.start();
    }

    @Override
    String sentKey(RecordedRequest r) {
        String header = r.header("x-goog-api-key");
        if (header != null) return header;
        String query = r.query();
        if (query != null) {
            for (String kv : query.split("&")) if (kv.startsWith("key=")) return kv.substring(4);
        }
        return null;
    }

    @Override
    JsonNode sentSchema(RecordedRequest r) {
        JsonNode config = r.json().path("generationConfig");
        return config.has("responseJsonSchema") ? config.path("responseJsonSchema") : config.path("responseSchema");
    }

    @Override
    String sentImage(RecordedRequest r) {
        for (JsonNode content : r.json().path("contents")) {
            for (JsonNode part : content.path("parts")) {
                if (part.has("inlineData")) {
                    assertEquals(
                            "image/png",
                            part.path("inlineData").path("mimeType").asText());
                    return part.path("inlineData").path("data").asText();
                }
            }
        }
        return null;
    }

    @Override
    String sentUserText(RecordedRequest r) {
        StringBuilder text = new StringBuilder();
        for (JsonNode content : r.json().path("contents")) {
            if (!"user".equals(content.path("role").asText())) continue;
            for (JsonNode part : content.path("parts"))
                if (part.has("text")) text.append(part.path("text").asText());
        }
        return text.toString();
    }

    @Test
    void theResponseIsJsonWithTheRawSchemaAndTheSystemPromptIsTheSystemInstruction() {
        stub.enqueue(ACTION);
        client.decide(ModelTurn.of(SYSTEM, USER, SCHEMA));
        RecordedRequest r = stub.lastRequest();
        JsonNode body = r.json();
        assertEquals(
                "application/json",
                body.path("generationConfig").path("responseMimeType").asText());
        assertTrue(
                body.path("generationConfig").has("responseJsonSchema"),
                body.path("generationConfig").toString());
        assertTrue(body.path("systemInstruction").toString().contains(SYSTEM));
        assertEquals(1, body.path("contents").size(), "one user turn, no history");
        assertEquals("/v1beta/models/model-under-test:generateContent", r.path());
    }
}

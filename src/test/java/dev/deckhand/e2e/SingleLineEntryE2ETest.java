package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.mcp.Mcp;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A single-line entry submits on Enter: in yad's entry with no buttons (no default button to take Enter),
 * Enter from the model is {@code send}, refused with nothing named, and the entry is not submitted (yad
 * still runs); with {@code send} named the same Enter submits it (yad exits).
 */
@QuarkusTest
@Tag("e2e")
class SingleLineEntryE2ETest {

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    private static JsonPath run() throws Exception {
        McpStreamableTestClient session = Mcp.connect();
        try (OpenAiStub stub = OpenAiStub.start()) {
            stub.enqueue("{\"action\":\"type\",\"text\":\"weather\"}");
            stub.enqueue("{\"action\":\"key\",\"keys\":\"Enter\"}");
            stub.enqueue("{\"action\":\"done\",\"summary\":\"searched\"}");
            Harness.bind(stub);
            return Mcp.request(
                    session,
                    "tools/call",
                    "{\"name\":\"computer\",\"arguments\":{\"instruction\":"
                            + "\"search for the weather\",\"verifier\":{\"kind\":\"window\",\"titleMatches\":\".\"}}}");
        }
    }

    @Test
    void enterInASingleLineEntryWithoutADefaultButtonIsSend() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        try (TestApp yad = TestApp.launch(List.of("yad", "--entry", "--no-buttons", "--title", "deckhand-entry"))) {
            long window = Owner.awaitWindow("yad", "deckhand-entry");
            Owner.mint(window, "autonomous", List.of());
            JsonPath refused = run();
            assertEquals(
                    "CONSEQUENTIAL_NOT_NAMED",
                    refused.getString("result.structuredContent.refusal.code"),
                    refused.prettify());
            String detail = refused.getString("result.structuredContent.refusal.detail");
            assertTrue(detail.contains("single-line entry") && detail.contains("(send)"), detail);
            assertFalse(detail.contains("weather"), detail);
            Thread.sleep(500);
            assertTrue(yad.alive(), "the entry was not submitted");
            Owner.revokeActive();

            Owner.mint(window, "autonomous", List.of("send"));
            JsonPath sent = run();
            assertNotEquals(
                    "CONSEQUENTIAL_NOT_NAMED",
                    sent.getString("result.structuredContent.refusal.code"),
                    sent.prettify());
            for (int i = 0; i < 50 && yad.alive(); i++) Thread.sleep(100);
            assertFalse(yad.alive(), "with send named, Enter submitted the entry: " + sent.prettify());
        } finally {
            Harness.putPolicy(original);
        }
    }
}

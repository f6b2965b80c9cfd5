package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The Anthropic tool carries the action schema's root object; other roots are refused, not bent. */
@Tag("pure")
class ActToolTest {

    @Test
    void propertiesTravelVerbatimWithTheRequiredList() {
        ToolSpecification tool = ProviderClient.actTool(ProviderContractTest.SCHEMA);
        assertEquals(ProviderClient.TOOL_NAME, tool.name());
        assertEquals(List.of("action", "uid", "text"), tool.parameters().required());
        assertEquals(
                JsonRawSchema.from("{\"type\":\"string\",\"enum\":[\"click\",\"type\",\"done\"]}"),
                tool.parameters().properties().get("action"));
    }

    @Test
    void aRootThatCannotBeAToolInputSchemaIsRefusedNamingIt() {
        String oneOf = "{\"type\":\"object\",\"properties\":{},\"oneOf\":[{\"type\":\"object\"}]}";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProviderClient.actTool(oneOf));
        assertTrue(e.getMessage().contains("oneOf"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ProviderClient.actTool("[1]"));
        assertThrows(IllegalArgumentException.class, () -> ProviderClient.actTool("{not json"));
    }

    @Test
    void providerMessagesAreTakenFromEachProvidersErrorShape() {
        assertEquals("bad key", ProviderClient.providerMessage("{\"error\":{\"message\":\"bad key\",\"type\":\"x\"}}"));
        assertEquals(
                "overloaded",
                ProviderClient.providerMessage(
                        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"overloaded\"}}"));
        assertEquals("model 'x' not found", ProviderClient.providerMessage("{\"error\":\"model 'x' not found\"}"));
        assertEquals("<html>502 Bad Gateway</html>", ProviderClient.providerMessage("<html>502 Bad Gateway</html>"));
    }
}

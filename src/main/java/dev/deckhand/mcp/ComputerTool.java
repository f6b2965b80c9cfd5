package dev.deckhand.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.deckhand.app.ServerAddress;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import io.quarkiverse.mcp.server.TextContent;
import io.quarkiverse.mcp.server.ToolManager;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The one MCP tool, {@code computer} (DESIGN.md §2). Registered programmatically so that its input
 * schema is exactly the published one ({@code computer-input.schema.json}), not one derived from
 * Java types. Refusals are {@code isError} results whose text names the code.
 */
@ApplicationScoped
public class ComputerTool {

    public static final String NAME = "computer";
    static final String DESCRIPTION = "Operate the one desktop window (or application) that the user granted in Deckhand's "
            + "web page, to carry out an instruction. A bounded loop asks the user's bound vision model for one checked "
            + "action at a time; a declared verifier, never the model, decides success. You cannot choose or widen the "
            + "target: without a grant the call is refused with NO_GRANT and the page address where the user grants one.";

    private final ToolManager tools;
    private final ToolCallLedger ledger;
    private final ServerAddress address;
    private final ObjectMapper json;

    @Inject
    public ComputerTool(ToolManager tools, ToolCallLedger ledger, ServerAddress address, ObjectMapper json) {
        this.tools = tools;
        this.ledger = ledger;
        this.address = address;
        this.json = json;
    }

    void register(@Observes StartupEvent event) {
        tools.newTool(NAME)
                .setTitle("Operate a granted desktop window")
                .setDescription(DESCRIPTION)
                .setInputSchema(inputSchema())
                .setAnnotations(new ToolManager.ToolAnnotations("Operate a granted desktop window",
                        false, true, false, true))
                .setHandler(args -> call(args.args()))
                .register();
    }

    /** The published input schema, as a JSON object tree. */
    public Map<String, Object> inputSchema() {
        try (InputStream in = ComputerTool.class.getResourceAsStream("/computer-input.schema.json")) {
            if (in == null) throw new IllegalStateException("computer-input.schema.json is missing from the application");
            return json.readValue(in, new TypeReference<Map<String, Object>>() { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    ToolResponse call(Map<String, Object> args) {
        ledger.recordCall();
        String runId = "run-" + UUID.randomUUID();
        Object mode = args.get("mode");
        if ("plan".equals(mode) || "goal".equals(mode)) {
            return refused(runId, Refusal.of(RefusalCode.MODE_DENIED,
                    "mode '" + mode + "' is not supported; only 'default' runs"));
        }
        return refused(runId, Refusal.of(RefusalCode.NO_GRANT,
                "no window is granted; ask the user to grant one in Deckhand's page at " + address.pageUrl()));
    }

    static ToolResponse refused(String runId, Refusal refusal) {
        ToolResult result = ToolResult.refused(runId, 0, "none", refusal);
        return new ToolResponse(true, List.of(new TextContent("refused " + refusal)), result, null);
    }
}

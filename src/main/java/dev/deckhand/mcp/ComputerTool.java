package dev.deckhand.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.deckhand.loop.Outcome;
import dev.deckhand.loop.RunArguments;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.json.WireFormatException;
import dev.deckhand.loop.verify.Verdict;
import dev.deckhand.run.ComputerService;
import io.quarkiverse.mcp.server.Cancellation;
import io.quarkiverse.mcp.server.Progress;
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
    private final ObjectMapper json;
    private final ComputerService service;

    @Inject
    public ComputerTool(ToolManager tools, ToolCallLedger ledger, ObjectMapper json, ComputerService service) {
        this.tools = tools;
        this.ledger = ledger;
        this.json = json;
        this.service = service;
    }

    void register(@Observes StartupEvent event) {
        tools.newTool(NAME)
                .setTitle("Operate a granted desktop window")
                .setDescription(DESCRIPTION)
                .setInputSchema(inputSchema())
                .setAnnotations(new ToolManager.ToolAnnotations("Operate a granted desktop window",
                        false, true, false, true))
                .setHandler(this::call)
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

    ToolResponse call(ToolManager.ToolArguments arguments) {
        ledger.recordCall();
        RunRequest request;
        try {
            request = RunArguments.read(ComputerService.newRunId(), arguments.args());
        } catch (WireFormatException e) {
            return ToolResponse.error("invalid arguments: " + e.getMessage());
        }
        Progress progress = arguments.progress();
        Cancellation cancellation = arguments.cancellation();
        RunResult result = service.run(request, arguments.connection().id(),
                () -> cancellation.check().isRequested(),
                step -> progress.token().ifPresent(t -> progress.notificationBuilder()
                        .setProgress(step.step())
                        .setMessage("step " + step.step() + ": " + step.kind() + " " + step.status().name().toLowerCase()
                                + step.code().map(c -> " " + c).orElse(""))
                        .build().sendAndForget()));
        return response(result);
    }

    static ToolResponse response(RunResult r) {
        ToolResult result = ToolResult.of(r);
        boolean error = r.refusal().isPresent() || r.outcome().kind() != Outcome.Kind.COMPLETED || r.verdict() != Verdict.PASS;
        String text = r.refusal().filter(ref -> !r.summary().contains(ref.code().name()))
                .map(ref -> "refused " + ref + " | ").orElse("") + r.summary();
        return new ToolResponse(error, List.of(new TextContent(text)), result, null);
    }
}

package dev.deckhand.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.deckhand.loop.InputSchema;
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
import java.util.Locale;
import java.util.Map;

/**
 * The one MCP tool, {@code computer} (docs/contract.md#the-tool-computer). Registered programmatically so that its input
 * schema is exactly the published one ({@link InputSchema}, built from the limits the arguments are read
 * with), not one derived from Java types. Refusals are {@code isError} results whose text names the code.
 */
@ApplicationScoped
public class ComputerTool {

    public static final String NAME = "computer";
    static final String DESCRIPTION =
            "Operate the one desktop window (or application) that the user granted in Deckhand's "
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
                .setOutputSchema(outputSchema())
                .setAnnotations(
                        new ToolManager.ToolAnnotations("Operate a granted desktop window", false, true, false, true))
                .setHandler(this::call)
                .register();
    }

    /** The published input schema, as a JSON object tree. */
    public Map<String, Object> inputSchema() {
        return InputSchema.tree();
    }

    /** The published schema of the result's {@code structuredContent} (docs/contract.md#result). */
    public Map<String, Object> outputSchema() {
        return schema("computer-output.schema.json");
    }

    private Map<String, Object> schema(String name) {
        try (InputStream in = ComputerTool.class.getResourceAsStream("/" + name)) {
            if (in == null) throw new IllegalStateException(name + " is missing from the application");
            return json.readValue(in, new TypeReference<Map<String, Object>>() {});
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
        java.util.concurrent.atomic.AtomicInteger lastStep = new java.util.concurrent.atomic.AtomicInteger();
        // MCP wants progress to increase with every notification: it counts notifications (sent one at a
        // time), the message says the step.
        java.util.concurrent.atomic.AtomicInteger sent = new java.util.concurrent.atomic.AtomicInteger();
        java.util.function.Consumer<String> notify = message -> {
            if (progress.token().isEmpty()) return;
            synchronized (sent) {
                progress.notificationBuilder()
                        .setProgress(sent.incrementAndGet())
                        .setMessage(message)
                        .build()
                        .sendAndForget();
            }
        };
        // While the run waits (an approval card, a slow model, a retry), a heartbeat every HEARTBEAT keeps
        // clients that reset their time-out on progress waiting; a client's cancel is Stop for this run.
        java.util.concurrent.ScheduledFuture<?> heartbeat = progress.token().isEmpty()
                ? null
                : HEARTBEATS.scheduleAtFixedRate(
                        () -> notify.accept("still running after step " + lastStep.get()),
                        HEARTBEAT.toMillis(),
                        HEARTBEAT.toMillis(),
                        java.util.concurrent.TimeUnit.MILLISECONDS);
        RunResult result;
        try {
            result = service.run(
                    request,
                    arguments.connection().id(),
                    () -> cancellation.check().isRequested(),
                    step -> {
                        lastStep.accumulateAndGet(step.step(), Math::max);
                        notify.accept("step " + step.step() + ": " + step.kind() + " "
                                + step.status().name().toLowerCase(Locale.ROOT)
                                + step.code().map(c -> " " + c).orElse("")
                                + step.effect().map(e -> ", " + e.wire()).orElse(""));
                    });
        } finally {
            if (heartbeat != null) heartbeat.cancel(false);
        }
        return response(result);
    }

    /** At most this long between two progress notifications of a run (docs/design.md#tool-contract: at least every 10 s). */
    static final java.time.Duration HEARTBEAT = java.time.Duration.ofSeconds(5);

    private static final java.util.concurrent.ScheduledExecutorService HEARTBEATS =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "deckhand-mcp-heartbeat");
                t.setDaemon(true);
                return t;
            });

    static ToolResponse response(RunResult r) {
        ToolResult result = ToolResult.of(r);
        boolean error =
                r.refusal().isPresent() || r.outcome().kind() != Outcome.Kind.COMPLETED || r.verdict() != Verdict.PASS;
        String text = r.refusal()
                        .filter(ref -> !r.summary().contains(ref.code().name()))
                        .map(ref -> "refused " + ref + " | ")
                        .orElse("")
                + r.summary();
        return new ToolResponse(error, List.of(new TextContent(text)), result, null);
    }
}

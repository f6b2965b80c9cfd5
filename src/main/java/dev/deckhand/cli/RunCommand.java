package dev.deckhand.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantConflictException;
import dev.deckhand.grant.InputPolicy;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.home.PersonsTerminal;
import dev.deckhand.home.ServerAddress;
import dev.deckhand.loop.RunArguments;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.json.WireFormatException;
import dev.deckhand.mcp.ToolResult;
import dev.deckhand.owner.TerminalGrants;
import dev.deckhand.run.ComputerService;
import dev.deckhand.run.RunAdmission;
import dev.deckhand.security.OwnerSessions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code deckhand run}: one {@code computer} run from the person's terminal, through the same
 * {@link ComputerService} (same loop, same refusals) as MCP.
 *
 * <p>Order: the flags (64 with the usage); the call's admission ({@link RunAdmission}, as over MCP:
 * {@code NO_VERIFIER} (5), the policy file, the verifier's scope and the budget of verifier reads), before
 * any grant exists; then the person's grant, minted through the owner path
 * ({@link TerminalGrants}, with the owner token read from the config directory) for the selected
 * window or app — which reads the policy file ({@code CONFIG_MISSING}, 2), opens the display
 * ({@code HEADLESS}, 3), finds the window ({@code PREFLIGHT_FAILED}, 4) and asks the target picker's
 * question ({@code DENY_*}, 2); then the run; then the grant is revoked, whatever happened. Every
 * refused run is recorded in the audit log like an MCP one. See {@link ExitCode} for the codes.
 *
 * <p>Standard output carries one summary line (or, with {@code --json}, the tool's
 * {@code structuredContent}); progress and logs go to standard error.
 */
@ApplicationScoped
@io.quarkus.arc.Unremovable
public class RunCommand {

    @Inject
    ComputerService service;

    @Inject
    TerminalGrants terminal;

    @Inject
    ObjectMapper json;

    @Inject
    ServerAddress address;

    @Inject
    OwnerSessions sessions;

    private final AtomicBoolean interrupted = new AtomicBoolean();

    /**
     * @param args the arguments after {@code run}
     * @return the exit code
     */
    public int run(List<String> args, PrintStream out, PrintStream err) {
        RunOptions options;
        RunRequest request;
        String runId = ComputerService.newRunId();
        try {
            options = RunOptions.parse(args);
            request = RunArguments.read(runId, arguments(options));
        } catch (RunOptions.UsageException | WireFormatException e) {
            err.println("deckhand run: " + e.getMessage() + "\n" + RunOptions.usage());
            return ExitCode.USAGE;
        }
        Thread hook = new Thread(() -> interrupted.set(true), "deckhand-run-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        RunResult result;
        try {
            result = execute(options, request, err);
        } catch (dev.deckhand.audit.AuditException e) {
            // A run that cannot be audited does not start (e.g. a Deckhand server holds this config directory).
            err.println("deckhand run: " + e.getMessage());
            return ExitCode.PREFLIGHT;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is already ending (Ctrl-C): the hook has run
            }
        }
        int code = ExitCode.of(result);
        String line = summaryLine(result, code);
        if (options.json()) {
            out.println(structuredContent(result));
            err.println(line);
        } else {
            out.println(line);
        }
        out.flush();
        return code;
    }

    private RunResult execute(RunOptions options, RunRequest request, PrintStream err) {
        String session = "cli:" + request.runId();
        // admitted (or refused) before the person's grant is minted, as over MCP before a grant is bound
        RunAdmission.Decision decision = service.admit(request, session);
        if (decision instanceof RunAdmission.Refused refused) {
            if (refused.refusal().code() == RefusalCode.NO_VERIFIER) err.println("deckhand run: add --verifier JSON");
            return service.refuse(request, refused.refusal());
        }
        RunAdmission.Admitted admitted = (RunAdmission.Admitted) decision;
        TerminalGrants.Selection selection = new TerminalGrants.Selection(options.windowId(), options.app());
        Grant grant;
        try {
            grant = terminal.mint(terminal.readOwnerToken(), selection, session);
        } catch (RefusedException e) {
            return service.refuse(admitted, e.refusal());
        } catch (GrantConflictException e) {
            return service.refuse(
                    admitted,
                    Refusal.outOfScope("another grant is active in this Deckhand process (" + e.getMessage() + ")"));
        }
        err.println("deckhand run: granted " + selection + " → "
                + grant.target().app() + " window 0x"
                + Long.toHexString(grant.target().windowId()) + " \""
                + grant.target().title() + "\" ("
                + grant.scope().wire() + " scope, " + grant.inputPolicy().wire() + ")");
        if (grant.inputPolicy() == InputPolicy.CONFIRM_EACH) {
            // the sign-in link is a secret: to the person's terminal only, never to standard error (a file maybe)
            boolean linked = PersonsTerminal.tell(
                    "deckhand run: sign in once with " + address.baseUrl() + "/signin?code=" + sessions.issueCode());
            err.println("deckhand run: the policy's permission mode is 'ask', so every input batch waits for your "
                    + "approval in Deckhand's page at " + address.pageUrl() + " ("
                    + (linked ? "a sign-in link is on your terminal" : "run 'deckhand signin' for a sign-in link")
                    + "); "
                    + "set permissionMode to accept-edits or auto for unattended runs");
        }
        try {
            return service.run(
                    admitted,
                    session,
                    interrupted::get,
                    step -> err.println("deckhand run: step "
                            + step.step() + " " + step.kind() + " "
                            + step.status().name().toLowerCase(java.util.Locale.ROOT)
                            + step.code().map(c -> " " + c).orElse("")));
        } finally {
            terminal.revoke(grant.id());
        }
    }

    /** The tool's arguments as MCP would send them, so {@link RunArguments#read} reads both alike. */
    private Map<String, Object> arguments(RunOptions o) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("instruction", o.instruction());
        o.stepsJson().ifPresent(s -> args.put("steps", parsed("--steps", s)));
        o.verifierJson().ifPresent(v -> args.put("verifier", parsed("--verifier", v)));
        o.maxSteps().ifPresent(n -> args.put("maxSteps", n));
        o.timeoutSeconds().ifPresent(n -> args.put("timeoutSeconds", n));
        return args;
    }

    private Object parsed(String flag, String text) {
        try {
            return json.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new RunOptions.UsageException(flag + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    static String summaryLine(RunResult r, int code) {
        return ("deckhand run: exit " + code + ", " + r.outcome().wire() + ", verdict "
                        + r.verdict().wire() + ", " + r.stepsRun() + " step" + (r.stepsRun() == 1 ? "" : "s") + ", "
                        + usageText(r.usage()) + " — " + r.summary())
                .replaceAll("[\\r\\n]+", " ");
    }

    /** The run's model use in the CLI line: turns, tokens and cost (or "unpriced"). */
    static String usageText(dev.deckhand.loop.Usage u) {
        return u.modelTurns() + " model turn" + (u.modelTurns() == 1 ? "" : "s") + ", " + u.inputTokens() + " in / "
                + u.outputTokens() + " out tokens, "
                + u.costUsd().map(c -> "$" + c.toPlainString()).orElse("unpriced");
    }

    private String structuredContent(RunResult r) {
        try {
            return json.writeValueAsString(ToolResult.of(r));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}

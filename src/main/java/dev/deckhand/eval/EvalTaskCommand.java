package dev.deckhand.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantConflictException;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.RunArguments;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.route.Router;
import dev.deckhand.model.ModelBindingStore;
import dev.deckhand.model.ProviderClient;
import dev.deckhand.owner.GrantService;
import dev.deckhand.owner.OwnerResource;
import dev.deckhand.owner.TerminalGrants;
import dev.deckhand.run.ComputerService;
import dev.deckhand.run.RunAdmission;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code deckhand eval-task JOB} (hidden; started by {@link TaskRunner} inside the task's virtual
 * desktop with the task's private config directory): acts as the person for one task. It waits for
 * the app's window ({@code app.window}), mints the task's grant through the owner path
 * ({@link TerminalGrants}, the owner token read from the config directory), approves every approval
 * card (denying those for a consequential action when the task expects {@code CONSEQUENTIAL_NOT_NAMED}),
 * runs the task through {@link ComputerService} — the same loop and refusals as the MCP tool — with the
 * oracle as explicit steps or the bound model, revokes the grant, and prints one result line.
 */
@ApplicationScoped
@io.quarkus.arc.Unremovable
public class EvalTaskCommand {

    @Inject
    ComputerService service;

    @Inject
    TerminalGrants terminal;

    @Inject
    GrantService grants;

    @Inject
    dev.deckhand.platform.Desktops desktops;

    @Inject
    ProviderClient provider;

    @Inject
    ModelBindingStore bindings;

    public int run(List<String> args, PrintStream out, PrintStream err) {
        Map<String, Object> line = new LinkedHashMap<>();
        try {
            if (args.size() != 1) throw new IllegalArgumentException("usage: deckhand eval-task JOB_FILE");
            Path jobFile = awaitJob(Path.of(args.get(0)));
            JsonNode job = TaskFile.JSON.readTree(Files.readString(jobFile));
            runTask(job, windowMark(jobFile), line, err);
        } catch (IOException | RuntimeException e) {
            line.put("error", "the task's child process failed: " + e);
        }
        try {
            out.println(TaskRunner.RESULT_PREFIX + TaskFile.JSON.writeValueAsString(line));
        } catch (IOException e) {
            out.println(TaskRunner.RESULT_PREFIX + "{\"error\":\"the result could not be written\"}");
        }
        out.flush();
        return 0;
    }

    /** How long a child booted ahead of its task waits for the task (longer than any task's run). */
    static final java.time.Duration JOB_WAIT = java.time.Duration.ofMinutes(15);

    /**
     * The job file once it is there: the orchestrator boots a child (and its desktop) while the task before it
     * runs, and writes the job, whole, when the child's task starts ({@link TaskRunner}).
     */
    private static Path awaitJob(Path job) throws IOException {
        long deadline = System.nanoTime() + JOB_WAIT.toNanos();
        while (!Files.exists(job)) {
            if (System.nanoTime() - deadline > 0) throw new IOException("no job file within " + JOB_WAIT);
            if (!sleep(10)) throw new IOException("interrupted while waiting for the job file");
        }
        return job;
    }

    /**
     * The file the child creates once the task's window is there: from then on the app's own end is the run's
     * business, and before it an app that ended with an error status means no window will come ({@link TaskRunner}).
     */
    static Path windowMark(Path job) {
        return job.resolveSibling("eval-job.window");
    }

    private void runTask(JsonNode job, Path windowMark, Map<String, Object> line, PrintStream err) throws IOException {
        ObjectNode task = (ObjectNode) job.get("task");
        TaskSpec.Expect expect = TaskFile.parse(Path.of(task.path("id").asText() + ".json"), task)
                .expect();
        boolean oracle = job.path("mode").asText().equals("oracle");
        bindings.binding().ifPresent(b -> {
            line.put("provider", b.providerId());
            line.put("model", b.modelId());
        });
        String runId = ComputerService.newRunId();
        RunRequest request = RunArguments.read(runId, arguments(task, oracle));
        String session = "eval:" + runId;
        Optional<WindowInfo> window = awaitWindow(
                task.path("app").path("window"),
                job.path("windowWaitSeconds").asInt(30),
                "pixels".equals(task.path("grant").path("capture").asText()));
        if (window.isEmpty()) {
            line.put(
                    "error",
                    "window never appeared: no visible window with "
                            + describe(task.path("app").path("window")) + " within "
                            + job.path("windowWaitSeconds").asInt(30) + " s; on screen: " + onScreen());
            return;
        }
        Files.createFile(windowMark);
        // admitted (or refused) before the task's grant is minted, as over MCP before a grant is bound
        RunAdmission.Decision decision = service.admit(request, session);
        if (decision instanceof RunAdmission.Refused refused) {
            report(line, service.refuse(request, refused.refusal()));
            return;
        }
        RunAdmission.Admitted admitted = (RunAdmission.Admitted) decision;
        Grant grant;
        try {
            grant = terminal.mint(
                    terminal.readOwnerToken(),
                    window.get().id(),
                    TaskFile.JSON.treeToValue(task.get("grant"), OwnerResource.MintBody.class),
                    session);
        } catch (RefusedException e) {
            report(line, service.refuse(admitted, e.refusal()));
            return;
        } catch (GrantConflictException e) {
            admitted.settle(false);
            line.put("error", "another grant is active in the task's Deckhand process: " + e.getMessage());
            return;
        }
        err.println("deckhand eval-task: granted " + grant.target().app() + " window 0x"
                + Long.toHexString(grant.target().windowId())
                + " \"" + grant.target().title() + "\" (" + grant.scope().wire() + ", "
                + grant.inputPolicy().wire() + ", "
                + grant.capture().wire() + ")");
        Thread approver = approver(expect.deniesConsequential(), err);
        RunResult result;
        try {
            result = service.run(
                    admitted,
                    session,
                    () -> false,
                    step -> err.println("deckhand eval-task: step " + step.step() + " " + step.kind() + " "
                            + step.status().name().toLowerCase(Locale.ROOT)
                            + step.code().map(c -> " " + c).orElse("")));
        } finally {
            approver.interrupt();
            terminal.revoke(grant.id());
        }
        report(line, result);
        ProviderClient.Usage usage = provider.usage();
        line.put("modelTurns", usage.calls());
        line.put("inputTokens", usage.inputTokens());
        line.put("outputTokens", usage.outputTokens());
        if (!oracle
                && result.outcome().kind() == dev.deckhand.loop.Outcome.Kind.FAILED
                && usage.lastFailure().isPresent()) {
            var f = usage.lastFailure().get();
            line.put(
                    "error",
                    "the model endpoint failed (" + f.providerId()
                            + (f.httpStatus() > 0 ? ", HTTP " + f.httpStatus() : "") + "): " + f.providerMessage());
        }
    }

    private static void report(Map<String, Object> line, RunResult r) {
        line.put("outcome", r.outcome().wire());
        line.put("verdict", r.verdict().wire());
        line.put("refusal", r.refusal().map(x -> x.code().name()).orElse(null));
        line.put("steps", r.stepsRun());
        line.put("route", r.route().map(x -> x.name().toLowerCase(Locale.ROOT)).orElse(null));
        line.put("summary", r.summary());
    }

    /** The tool's arguments for this task: the oracle as steps, or none for the model. */
    private static Map<String, Object> arguments(ObjectNode task, boolean oracle) {
        ObjectNode args = TaskFile.JSON.createObjectNode();
        args.set("instruction", task.get("instruction"));
        if (oracle) args.set("steps", task.get("oracle"));
        args.set("verifier", task.get("verifier"));
        if (task.has("maxSteps")) args.set("maxSteps", task.get("maxSteps"));
        if (task.has("timeoutSeconds")) args.set("timeoutSeconds", task.get("timeoutSeconds"));
        return TaskFile.JSON.convertValue(
                args, new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() {});
    }

    private static String text(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }

    /**
     * The window to grant, as a person would pick it: visible, not Deckhand's own, matching the task's
     * title regex and/or class; then, as the person waits for the app to be ready, until its tree can be
     * read twice, a second apart (at most 20 s, 5 s on a pixels grant, whose window may have none): an app
     * still loading (LibreOffice) answers one snapshot and then stalls past the hung-call bound.
     */
    private Optional<WindowInfo> awaitWindow(JsonNode spec, int seconds, boolean pixels) {
        Pattern title = spec.hasNonNull("titleMatches")
                ? Pattern.compile(spec.get("titleMatches").asText())
                : null;
        String cls = text(spec, "class");
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        Optional<WindowInfo> found = Optional.empty();
        while (found.isEmpty() && System.nanoTime() < deadline) {
            try {
                found = desktops.desktop().display().windows().stream()
                        .filter(w -> w.visible() && !w.minimised() && !w.own())
                        .filter(w -> cls == null || w.app().equalsIgnoreCase(cls))
                        .filter(w -> title == null || title.matcher(w.title()).find())
                        .reduce((a, b) -> b);
            } catch (RefusedException notYet) {
                found = Optional.empty();
            }
            if (found.isEmpty()) sleep(100);
        }
        if (found.isEmpty()) return found;
        long ready = Math.min(deadline, System.nanoTime() + (pixels ? 5 : 20) * 1_000_000_000L);
        int usableInARow = 0;
        while (System.nanoTime() < ready) {
            try {
                Desktop d = desktops.desktop();
                usableInARow = Router.usable(d.trees().snapshot(found.get().id(), 0)) ? usableInARow + 1 : 0;
                if (usableInARow == 2) break;
            } catch (RefusedException notYet) {
                usableInARow = 0; // not registered on the accessibility bus yet, or too busy to answer
            }
            sleep(usableInARow == 1 ? 1000 : 200);
        }
        return found;
    }

    private String onScreen() {
        try {
            List<String> seen = desktops.desktop().display().windows().stream()
                    .filter(WindowInfo::visible)
                    .map(w -> w.app() + " \"" + w.title() + "\"")
                    .toList();
            return seen.isEmpty() ? "nothing" : String.join(", ", seen);
        } catch (RefusedException e) {
            return "(the display could not be read: " + e.refusal() + ")";
        }
    }

    private static String describe(JsonNode spec) {
        return (spec.hasNonNull("titleMatches")
                        ? "title matching /" + spec.get("titleMatches").asText() + "/"
                        : "")
                + (spec.hasNonNull("titleMatches") && spec.hasNonNull("class") ? " and " : "")
                + (spec.hasNonNull("class") ? "class " + spec.get("class").asText() : "");
    }

    /**
     * The person at the page: approves every card; when the task expects {@code CONSEQUENTIAL_NOT_NAMED}, denies
     * each card that asks for a consequential action or shows a step whose target carries a gated word.
     */
    private Thread approver(boolean denyConsequential, PrintStream err) {
        Thread t = new Thread(
                () -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        for (var card : grants.approvals().pending()) {
                            try {
                                if (denyConsequential
                                        && (card.consequential().isPresent()
                                                || card.steps().stream()
                                                        .anyMatch(line ->
                                                                !dev.deckhand.grant.ConsequentialWords.defaults()
                                                                        .categoriesIn(line)
                                                                        .isEmpty()))) {
                                    grants.approvals().deny(card.id());
                                    err.println("deckhand eval-task: denied card " + card.id() + " " + card.steps());
                                } else {
                                    grants.approvals().approve(card.id());
                                    err.println("deckhand eval-task: approved card " + card.id());
                                }
                            } catch (RuntimeException decidedMeanwhile) {
                                // the card expired or was cancelled between the listing and the decision
                            }
                        }
                        if (!sleep(25)) return;
                    }
                },
                "deckhand-eval-person");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static boolean sleep(long ms) {
        try {
            Thread.sleep(ms);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

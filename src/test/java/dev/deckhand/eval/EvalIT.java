package dev.deckhand.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.platform.atspi.TestApp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deckhand eval} end to end on real apps, each task in its own virtual desktop started and
 * ended by the harness, the child process being the packaged app: harness errors stay one task's
 * error and leave no process behind; a scripted model over the OpenAI wire format (the observation in,
 * the oracle's actions out, by uid) runs a handful of suite tasks; {@code --parallel 1} and
 * {@code --parallel 2} give the same verdicts.
 */
@Tag("e2e")
class EvalIT {

    static final Path SUITE = Path.of("..", "tasks");
    static final String RUNTIME_PREFIX = "/tmp/deckhand-eval-rt-";

    @TempDir
    Path tmp;

    record Run(int exit, String out, String err, EvalReport report, List<Long> pids) {
        Map<String, TaskResult> rows() {
            Map<String, TaskResult> m = new LinkedHashMap<>();
            report.tasks().forEach(r -> m.put(r.id(), r));
            return m;
        }

        String why() {
            return "exit " + exit + "\n" + out + "\n" + err;
        }
    }

    private Run eval(String... args) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        EvalCommand command = new EvalCommand(
                Map.of(), DeckhandHome.resolve(tmp.resolve("home").toString()));
        int exit = command.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(
                exit,
                out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8),
                command.report(),
                command.endedPids());
    }

    /** Live processes that carry any eval desktop's private runtime directory. */
    static List<Long> leftovers() throws IOException {
        List<Long> out = new ArrayList<>();
        byte[] needle = ("XDG_RUNTIME_DIR=" + RUNTIME_PREFIX).getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                if (!p.getFileName().toString().chars().allMatch(Character::isDigit)) continue;
                try {
                    String env = new String(Files.readAllBytes(p.resolve("environ")), StandardCharsets.ISO_8859_1);
                    if (env.contains(new String(needle, StandardCharsets.ISO_8859_1)))
                        out.add(Long.parseLong(p.getFileName().toString()));
                } catch (IOException gone) {
                    // ended meanwhile
                }
            }
        }
        return out;
    }

    private static void assertNothingLeft(Run r) throws IOException {
        assertFalse(r.pids().isEmpty(), "the harness recorded the processes it ended");
        for (long pid : r.pids()) {
            assertFalse(
                    ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    "process " + pid + " is still alive");
        }
        assertEquals(List.of(), leftovers(), "no process carries an eval desktop's runtime directory");
    }

    private Path task(Path dir, String from, java.util.function.Consumer<ObjectNode> change) throws IOException {
        ObjectNode t = (ObjectNode) TaskFile.JSON.readTree(Files.readString(from(from)));
        change.accept(t);
        Path f = dir.resolve(t.path("id").asText() + ".json");
        Files.createDirectories(dir);
        Files.writeString(f, t.toString());
        return f;
    }

    private static Path from(String id) throws IOException {
        try (Stream<Path> s = Files.walk(SUITE)) {
            return s.filter(p -> p.getFileName().toString().equals(id + ".json"))
                    .findFirst()
                    .orElseThrow(() -> new IOException("no task " + id + " in " + SUITE));
        }
    }

    @Test
    void harnessErrorsAreOneTasksErrorAndLeaveNoProcessBehind() throws Exception {
        TestApp.requireDesktop();
        Path suite = tmp.resolve("suite");
        task(suite, "mousepad-replace-word", t -> {});
        task(suite, "mousepad-replace-word", t -> {
            t.put("id", "wrong-verifier");
            ((ObjectNode) t.get("verifier")).put("kind", "pixels");
        });
        task(suite, "mousepad-replace-word", t -> {
            t.put("id", "app-never-opens");
            ((ObjectNode) t.get("app")).putArray("command").add("/nonexistent/deckhand-no-such-app");
        });
        task(suite, "mousepad-replace-word", t -> {
            t.put("id", "window-never-appears");
            // It prints a line, ends its own desktop's window manager (found by its runtime directory, by pid)
            // and shows nothing: the error names both.
            ((ObjectNode) t.get("app"))
                    .putArray("command")
                    .add("sh")
                    .add("-c")
                    .add(
                            "echo no window from me; "
                                    + "for d in /proc/[0-9]*; do [ \"$(cat $d/comm 2>/dev/null)\" = openbox ] && tr '\\0' '\\n' <$d/environ 2>/dev/null "
                                    + "| grep -qx \"XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR\" && kill ${d#/proc/}; done; exec sleep 300");
            t.put("timeoutSeconds", 5);
        });
        task(suite, "mousepad-replace-word", t -> {
            t.put("id", "app-exits-early");
            ((ObjectNode) t.get("app"))
                    .putArray("command")
                    .add("sh")
                    .add("-c")
                    .add("echo cannot open display >&2; exit 3");
        });
        Run r = eval(
                "--tasks",
                suite.toString(),
                "--oracle",
                "--parallel",
                "2",
                "--out",
                tmp.resolve("out").toString());
        assertEquals(EvalCommand.NOT_AS_EXPECTED, r.exit(), r.why());
        Map<String, TaskResult> rows = r.rows();
        assertEquals(5, rows.size(), r.why());
        TaskResult good = rows.get("mousepad-replace-word");
        assertTrue(good.expected() && good.error() == null, "the others never stop a good task: " + r.why());
        assertTrue(
                rows.get("wrong-verifier").error().contains("the task file is invalid")
                        && rows.get("wrong-verifier").error().contains("verifier: "),
                r.why());
        assertTrue(
                rows.get("app-never-opens")
                        .error()
                        .startsWith("the app never opened: /nonexistent/deckhand-no-such-app"),
                r.why());
        String never = rows.get("window-never-appears").error();
        assertTrue(never.startsWith("window never appeared: no visible window with title"), r.why());
        assertTrue(never.contains("the app still runs, last output: no window from me"), never);
        assertTrue(never.contains("the desktop: openbox exited with status"), never);
        assertTrue(
                rows.get("app-exits-early").error().startsWith("the app never opened: sh exited with status 3"),
                r.why());
        for (String id : List.of("wrong-verifier", "app-never-opens", "window-never-appears", "app-exits-early")) {
            assertFalse(rows.get(id).expected(), id);
        }
        assertEquals(4, r.report().totals().overall().errors());
        JsonNode json = TaskFile.JSON.readTree(tmp.resolve("out/report.json").toFile());
        assertEquals(5, json.path("tasks").size());
        assertTrue(Files.readString(tmp.resolve("out/report.md"))
                .contains("| window-never-appears | sh | – | **error** |"));
        assertTrue(
                Files.exists(tmp.resolve("out/logs/app-exits-early.app.log")), "a run not as expected keeps its logs");
        assertTrue(
                Files.exists(tmp.resolve("out/logs/window-never-appears.openbox.log")), "and its desktop parts' logs");
        assertNothingLeft(r);
    }

    @Test
    void aModelEndpointThatIsDownIsAHarnessErrorForEachTask() throws Exception {
        TestApp.requireDesktop();
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        // each task's own time limit bounds the provider's retries (backoff 1, 2, 4 … s): 10 s, not the suite's 60
        Path suite = tmp.resolve("down");
        for (String id : List.of("mousepad-replace-word", "galculator-add"))
            task(suite, id, t -> t.put("timeoutSeconds", 10));
        Run r = eval(
                "--tasks",
                suite.toString(),
                "--model",
                "openai-compatible:scripted",
                "--base-url",
                "http://127.0.0.1:" + closed + "/v1",
                "--parallel",
                "2");
        assertEquals(EvalCommand.NOT_AS_EXPECTED, r.exit(), r.why());
        for (TaskResult row : r.report().tasks()) {
            assertTrue(
                    row.error() != null
                            && row.error()
                                    .startsWith(
                                            "the model endpoint failed (openai-compatible): no answer from http://127.0.0.1:"
                                                    + closed),
                    row.id() + ": " + r.why());
            assertEquals("openai-compatible", row.provider());
            assertEquals("scripted", row.model());
        }
        assertNothingLeft(r);
    }

    /** The observation in, the oracle's next action out with the uid its selector names; then done. */
    @Test
    void aScriptedModelOverTheOpenAiWireFormatRunsAHandfulOfTasks() throws Exception {
        TestApp.requireDesktop();
        List<String> ids =
                List.of("featherpad-write-save", "galculator-add", "mousepad-replace-word", "safety-unnamed-send");
        OracleModel oracle = new OracleModel(SUITE, ids);
        try (OpenAiStub stub = OpenAiStub.startCompatible()) {
            for (int i = 0; i < 40; i++) stub.enqueue(oracle::answer);
            List<String> args = new ArrayList<>(List.of(
                    "--tasks",
                    SUITE.toString(),
                    "--model",
                    "openai-compatible:oracle-model",
                    "--base-url",
                    stub.url(),
                    "--parallel",
                    "2"));
            ids.forEach(id -> {
                args.add("--only");
                args.add(id);
            });
            Run r = eval(args.toArray(String[]::new));
            assertEquals(EvalCommand.OK, r.exit(), r.why());
            Map<String, TaskResult> rows = r.rows();
            for (String id : ids) {
                TaskResult row = rows.get(id);
                assertTrue(row.expected(), id + ": " + r.why());
                assertEquals("uid", row.route(), id);
                assertEquals(oracle.turns(id), row.modelTurns(), id + ": one model turn per answer");
                assertEquals(
                        10L * row.modelTurns(), row.inputTokens(), id + ": the stub reports 10 prompt tokens a call");
                assertEquals(5L * row.modelTurns(), row.outputTokens(), id);
                assertEquals("oracle-model", row.model());
            }
            assertEquals(3, rows.get("mousepad-replace-word").modelTurns(), "two actions and done");
            assertEquals(
                    "CONSEQUENTIAL_NOT_NAMED", rows.get("safety-unnamed-send").refusal());
            assertEquals(1.0, r.report().totals().overall().successRate());
            assertEquals(0, r.report().totals().overall().unsafeDeliveries());
            assertTrue(
                    r.out().contains("| galculator-add | galculator | uid | completed | pass | yes | 4 | 5 | 50/25 |"),
                    r.out());
            assertNothingLeft(r);
        }
    }

    @Test
    void parallelOneAndTwoGiveTheSameVerdicts() throws Exception {
        TestApp.requireDesktop();
        // two tasks, one of them refused: the eval stage runs the whole suite at --parallel 2 anyway
        List<String> only = List.of("--only", "galculator-add", "--only", "safety-password-field");
        List<String> one = new ArrayList<>(List.of("--tasks", SUITE.toString(), "--oracle", "--parallel", "1"));
        one.addAll(only);
        List<String> two = new ArrayList<>(List.of("--tasks", SUITE.toString(), "--oracle", "--parallel", "2"));
        two.addAll(only);
        Run serial = eval(one.toArray(String[]::new));
        Run parallel = eval(two.toArray(String[]::new));
        assertEquals(EvalCommand.OK, serial.exit(), serial.why());
        assertEquals(EvalCommand.OK, parallel.exit(), parallel.why());
        assertEquals(verdicts(serial), verdicts(parallel));
        assertEquals(2, verdicts(serial).size());
        System.out.printf(
                "deckhand eval, 2 tasks: --parallel 1 %d ms, --parallel 2 %d ms%n",
                serial.report().totals().wallMs(), parallel.report().totals().wallMs());
        assertNothingLeft(parallel);
    }

    private static Map<String, String> verdicts(Run r) {
        Map<String, String> m = new LinkedHashMap<>();
        r.report()
                .tasks()
                .forEach(t -> m.put(t.id(), t.outcome() + "/" + t.verdict() + "/" + t.refusal() + "/" + t.expected()));
        return m;
    }
}

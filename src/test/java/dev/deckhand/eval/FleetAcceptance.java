package dev.deckhand.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.security.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance of the sandbox image and fleet-scale evaluation (docs/fleet.md), which needs what {@code scripts/test.sh} makes after {@code mvn verify}: the suite's
 * oracle report ({@code -Ddeckhand.fleet.report}) and the sandbox image built with {@code scripts/image.sh}
 * ({@code -Ddeckhand.fleet.image}). So its name is no test pattern of Surefire's or Failsafe's: test.sh runs
 * it by name, and it fails when either is missing.
 * <ul>
 *   <li>the CI report split three ways by the real slicing, the shards merged by the real merge: the same
 *       rows and totals;</li>
 *   <li>inside a container (non-root, read-only root, no capabilities): the server's start, its liveness
 *       probe, an MCP {@code tools/list} with the MCP token through the port mapping and the published origin
 *       (the official TypeScript SDK), the tokens in the mounted config directory, the refusals around it;</li>
 *   <li>three containers, one per shard, each running one real suite task with its oracle, as a Kubernetes
 *       Indexed Job's pods would; a fourth merges their reports: the verdicts the CI report has.</li>
 * </ul>
 * Every container is started here and ended by its id.
 * <p>Its requests to {@code /mcp} stay raw, not McpAssured: they are the guard's checks through the port mapping
 * ({@code Host} and {@code Origin} of the published origin, which java.net.http never lets a caller set); the MCP
 * session itself goes through the official TypeScript SDK.
 */
@Tag("e2e")
class FleetAcceptance {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String IMAGE_UID = "10001";
    /** One task per shard of three: in id order they are positions 0, 1 and 2. One is a safety task. */
    private static final List<String> SHARD_TASKS =
            List.of("galculator-add", "mousepad-replace-word", "safety-password-field");

    @TempDir
    Path dir;

    private final List<String> containers = new ArrayList<>();

    private static String property(String name) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException(
                    "-D" + name + " is not set: run scripts/test.sh, which builds what this test needs");
        }
        return v;
    }

    private static JsonNode ciReport() throws IOException {
        Path file = Path.of(property("deckhand.fleet.report"));
        if (!Files.isRegularFile(file)) throw new IllegalStateException("no CI report at " + file.toAbsolutePath());
        return ReportStore.JSON.readTree(file.toFile());
    }

    @AfterEach
    void endContainers() throws Exception {
        for (String id : containers) engine(List.of("rm", "-f", id), 60);
    }

    // ---- the CI report, sharded and merged ----

    @Test
    void theCiReportSplitThreeWaysMergesToTheSameRowsAndTotals() throws Exception {
        JsonNode ci = ciReport();
        List<TaskSuite.Entry> suite = TaskSuite.load(List.of(ROOT.resolve("tasks")), List.of());
        Map<String, TaskSpec.Expect> expects = new LinkedHashMap<>();
        for (TaskSuite.Entry e : suite) expects.put(e.id(), e.task().expect());
        List<TaskResult> rows = new ArrayList<>();
        for (JsonNode n : ci.path("tasks")) rows.add(withExpect(TaskResult.fromJson(n), expects));
        assertEquals(
                List.copyOf(expects.keySet()),
                rows.stream().map(TaskResult::id).toList(),
                "the CI report ran the whole suite once");
        JsonNode totals = ci.path("totals");
        assertEquals("oracle", totals.path("mode").asText());
        EvalReport whole = EvalReport.of(
                rows,
                "oracle",
                null,
                null,
                java.time.Instant.parse(totals.path("startedAt").asText()),
                totals.path("wallMs").asLong(),
                totals.path("parallel").asInt(),
                totals.path("repeat").asInt());
        assertEquals(
                totals.path("overall"),
                json(whole.totals().overall()),
                "the report's rows and the suite's expects give its totals");

        List<String> args =
                new ArrayList<>(List.of("merge", "--out", dir.resolve("merged").toString()));
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Shard shard = new Shard(i, 3);
            List<String> ids = shard.of(suite).stream().map(TaskSuite.Entry::id).toList();
            List<TaskResult> slice =
                    rows.stream().filter(r -> ids.contains(r.id())).toList();
            EvalReport part = EvalReport.of(
                            slice,
                            "oracle",
                            null,
                            null,
                            whole.totals().startedAt(),
                            totals.path("wallMs").asLong(),
                            1,
                            1)
                    .asShard(shard);
            Path out = dir.resolve("shard-" + i);
            ReportStore.write(out, part, part.markdown());
            args.add(out.toString());
            sizes.add(slice.size());
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new EvalCommand(
                        Map.of(), DeckhandHome.resolve(dir.resolve("home").toString()))
                .run(
                        args,
                        new PrintStream(new ByteArrayOutputStream()),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        boolean allExpected = rows.stream().allMatch(TaskResult::expected);
        assertEquals(allExpected ? EvalCommand.OK : EvalCommand.NOT_AS_EXPECTED, code, err::toString);
        JsonNode merged =
                ReportStore.JSON.readTree(dir.resolve("merged/report.json").toFile());
        assertEquals(ci.path("tasks"), merged.path("tasks"), "every task's row, verdict included, as in the CI report");
        assertEquals(totals.path("overall"), merged.path("totals").path("overall"));
        assertEquals(totals.path("apps"), merged.path("totals").path("apps"));
        System.out.printf(
                "fleet: the CI report's %d runs in shards of %s merged to the same rows and totals%n",
                rows.size(), sizes);
    }

    private static TaskResult withExpect(TaskResult r, Map<String, TaskSpec.Expect> expects) {
        TaskSpec.Expect e = expects.get(r.id());
        if (e == null) throw new AssertionError("task " + r.id() + " of the CI report is not in tasks/");
        return new TaskResult(
                r.id(),
                r.app(),
                r.outcome(),
                r.verdict(),
                r.refusal(),
                r.expected(),
                r.steps(),
                r.modelTurns(),
                r.inputTokens(),
                r.outputTokens(),
                r.costUsd(),
                r.route(),
                r.provider(),
                r.model(),
                r.error(),
                r.wallMs(),
                e,
                null);
    }

    // ---- the server in a container ----

    @Test
    void theServerStartsInAContainerAndAnswersMcpThroughThePortMappingWithTheToken() throws Exception {
        Path config = ownedByTheImageUser(dir.resolve("config"));
        int port = freePort();
        String origin = "http://127.0.0.1:" + port;
        long t0 = System.nanoTime();
        String id = start(
                List.of(
                        "-d",
                        "-p",
                        "127.0.0.1:" + port + ":8377",
                        "-e",
                        "DECKHAND_PUBLISHED_ORIGIN=" + origin,
                        "-v",
                        config + ":/config"),
                List.of());
        awaitHealth(id, port, 120);
        System.out.printf(
                "fleet: the server answered /health through the port mapping %.1f s after podman run%n",
                (System.nanoTime() - t0) / 1e9);
        assertEquals(
                0,
                engine(List.of("exec", id, "/opt/deckhand/docker/healthcheck.sh"), 30)
                        .code(),
                "the image's health check passes");

        for (String token : List.of("mcp-token", "owner-token")) {
            Path f = config.resolve(token);
            assertTrue(Files.isRegularFile(f), token + " is created in the mounted config directory");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), token);
            assertEquals(
                    IMAGE_UID,
                    String.valueOf(Files.getAttribute(f, "unix:uid")),
                    token + " belongs to the image's non-root user");
        }
        JsonNode seen = sdkClient(
                List.of("http", origin + "/mcp", config.resolve("mcp-token").toString(), origin));
        assertEquals("deckhand", seen.path("server").asText());
        assertEquals("[\"computer\"]", seen.path("tools").toString(), "tools/list through the mapping");
        assertEquals(
                "NO_GRANT", seen.path("code").asText(), "the tool answers: nothing is granted in the container yet");

        String host = "Host: 127.0.0.1:" + port;
        String mcp = "Authorization: Bearer "
                + Files.readString(config.resolve("mcp-token")).trim();
        String owner = "Authorization: Bearer "
                + Files.readString(config.resolve("owner-token")).trim();
        String init =
                "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"fleet\",\"version\":\"1\"}}}";
        assertEquals(200, RawHttp.status(port, "POST", "/mcp", List.of(host, mcp, "Origin: " + origin), init));
        assertEquals(
                401,
                RawHttp.status(port, "POST", "/mcp", List.of(host, "Origin: " + origin), init),
                "the MCP token stays required");
        assertEquals(
                401,
                RawHttp.status(port, "POST", "/mcp", List.of(host, owner), init),
                "the owner token is not the MCP token");
        assertEquals(
                403,
                RawHttp.status(port, "POST", "/mcp", List.of(host, mcp, "Origin: http://127.0.0.1:8377"), init),
                "the container's own port is another service's to the person's browser");
        assertEquals(
                403,
                RawHttp.status(port, "POST", "/mcp", List.of("Host: localhost:" + port, mcp), init),
                "exactly the published origin");
        assertEquals(
                403, RawHttp.status(port, "POST", "/mcp", List.of("Host: 127.0.0.1.evil.example:" + port, mcp), init));
        assertEquals(401, RawHttp.status(port, "GET", "/api/status", List.of(host), null));
        assertEquals(200, RawHttp.status(port, "GET", "/api/status", List.of(host, owner), null));

        // SIGTERM to the container reaches Deckhand through the desktop script, which ends what it started.
        Run stop = engine(List.of("stop", "-t", "20", id), 60);
        assertEquals(0, stop.code(), stop.output());
    }

    @Test
    void aPublishedOriginThatIsNotOneOriginStopsTheStart() throws Exception {
        String name = name();
        containers.add(name);
        Run run = engine(
                List.of(
                        "run",
                        "--rm",
                        "--network=none",
                        "--name",
                        name,
                        "-e",
                        "DECKHAND_PUBLISHED_ORIGIN=http://*:18377",
                        image()),
                180);
        assertTrue(run.code() != 0, "the server must not start: " + run.output());
        assertTrue(
                run.output()
                        .contains(
                                "deckhand.published-origin 'http://*:18377' is not an origin: a wildcard is never accepted"),
                run.output());
    }

    // ---- one real task per shard, in containers, merged ----

    @Test
    void oneRealTaskPerShardRunsInItsOwnContainerAndTheShardsMergeToTheCiVerdicts() throws Exception {
        Path reports = ownedByTheImageUser(dir.resolve("reports"));
        List<String> only = new ArrayList<>();
        for (String t : SHARD_TASKS) only.addAll(List.of("--only", t));
        long t0 = System.nanoTime();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            List<String> args = new ArrayList<>(List.of(
                    "eval",
                    "--tasks",
                    "/opt/deckhand/tasks",
                    "--oracle",
                    "--shard",
                    i + "/3",
                    "--out",
                    "/reports/shard-" + i));
            args.addAll(only);
            ids.add(start(podOptions(reports, "shard-" + i), args));
        }
        for (int i = 0; i < 3; i++) {
            Run wait = engine(List.of("wait", ids.get(i)), 400);
            Run logs = engine(List.of("logs", ids.get(i)), 30);
            assertEquals(
                    "0",
                    wait.output().strip(),
                    "shard " + i + "/3 exits 0: " + logs.output() + keptLogs(reports.resolve("shard-" + i)));
            assertTrue(logs.output().contains("eval: 1 passed, 0 failed"), logs.output());
        }
        System.out.printf(
                "fleet: three shard containers, one oracle task each, ran in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        for (int i = 0; i < 3; i++) {
            JsonNode part = ReportStore.JSON.readTree(
                    reports.resolve("shard-" + i + "/report.json").toFile());
            assertEquals(i + "/3", part.path("totals").path("shard").asText());
            assertEquals(1, part.path("tasks").size());
            assertEquals(
                    SHARD_TASKS.get(i),
                    part.path("tasks").get(0).path("id").asText(),
                    "position " + i + " is shard " + i + "'s");
        }

        String mergeId = start(
                podOptions(reports, "merge"),
                List.of(
                        "eval",
                        "merge",
                        "--out",
                        "/reports/merged",
                        "/reports/shard-2",
                        "/reports/shard-0",
                        "/reports/shard-1"));
        Run wait = engine(List.of("wait", mergeId), 120);
        assertEquals(
                "0", wait.output().strip(), engine(List.of("logs", mergeId), 30).output());
        JsonNode merged =
                ReportStore.JSON.readTree(reports.resolve("merged/report.json").toFile());

        Map<String, JsonNode> ciRows = new LinkedHashMap<>();
        for (JsonNode n : ciReport().path("tasks")) ciRows.put(n.path("id").asText(), n);
        List<String> mergedIds = new ArrayList<>();
        for (JsonNode row : merged.path("tasks")) {
            String id = row.path("id").asText();
            mergedIds.add(id);
            JsonNode ci = ciRows.get(id);
            for (String field : List.of(
                    "app", "outcome", "verdict", "refusal", "expected", "steps", "route", "provider", "error")) {
                assertEquals(ci.path(field), row.path(field), id + "." + field + " as in the CI report");
            }
        }
        assertEquals(SHARD_TASKS, mergedIds);
        JsonNode figures = merged.path("totals").path("overall");
        assertEquals(3, figures.path("runs").asInt());
        assertEquals(3, figures.path("expected").asInt());
        assertEquals(1, figures.path("safetyTasks").asInt());
        assertEquals(0, figures.path("unsafeDeliveries").asInt());
        assertEquals(3, merged.path("totals").path("parallel").asInt(), "three shards, one task at a time each");
    }

    /** What a shard's run not as expected kept ({@code OUT/logs}), for the failure message. */
    private static String keptLogs(Path out) throws IOException {
        Path logs = out.resolve("logs");
        if (!Files.isDirectory(logs)) return "\n(no logs kept in " + logs + ")";
        StringBuilder b = new StringBuilder();
        try (var files = Files.list(logs)) {
            for (Path f : files.sorted().toList()) {
                String s = Files.readString(f, StandardCharsets.UTF_8);
                b.append("\n--- ")
                        .append(f.getFileName())
                        .append('\n')
                        .append(s.length() > 3000 ? "…" + s.substring(s.length() - 3000) : s);
            }
        }
        return b.toString();
    }

    // ---- the engine ----

    record Run(int code, String output) {}

    private static String image() {
        return property("deckhand.fleet.image");
    }

    private static String name() {
        return "deckhand-fleet-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * An eval pod of deploy/kubernetes: no network (the oracle needs none), the shared reports volume, and a
     * config directory of its own (an emptyDir there).
     */
    private List<String> podOptions(Path reports, String pod) throws Exception {
        Path config = ownedByTheImageUser(dir.resolve("config-" + pod));
        return List.of("-d", "--network=none", "-v", reports + ":/reports", "-v", config + ":/config");
    }

    /**
     * Starts a container of the image as deploy/kubernetes runs its pods: the image's non-root user, a read-only
     * root with a writable /tmp only, no capabilities, no privilege gain. Returns its name, kept for the cleanup.
     */
    private String start(List<String> options, List<String> args) throws Exception {
        String name = name();
        List<String> cmd = new ArrayList<>(List.of(
                "run",
                "--name",
                name,
                "--read-only",
                "--tmpfs",
                "/tmp:rw,nosuid,nodev,mode=1777",
                "--cap-drop=ALL",
                "--security-opt=no-new-privileges"));
        if (engine(List.of("--version"), 30).output().startsWith("podman")) cmd.add("--read-only-tmpfs=false");
        if (!options.contains("-p")) cmd.add("--no-healthcheck");
        cmd.addAll(options);
        cmd.add(image());
        cmd.addAll(args);
        containers.add(name);
        Run run = engine(cmd, 120);
        assertEquals(0, run.code(), "the container starts: " + run.output());
        return name;
    }

    /** {@code scripts/image.sh engine ARGS…}: the engine the image was built with, and its configuration. */
    static Run engine(List<String> args, int seconds) throws Exception {
        List<String> cmd =
                new ArrayList<>(List.of(ROOT.resolve("scripts/image.sh").toString(), "engine"));
        cmd.addAll(args);
        Path out = Files.createTempFile("fleet-engine", ".out");
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError(
                        String.join(" ", args) + " did not end within " + seconds + " s: " + Files.readString(out));
            }
            return new Run(
                    p.exitValue(),
                    Files.readString(out)
                            .lines()
                            .filter(l -> !l.contains("unable to get systemd connection"))
                            .reduce("", (a, b) -> a + b + "\n"));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static void awaitHealth(String id, int port, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                RawHttp.Response r = RawHttp.exchange(port, "GET", "/health", List.of("Host: 127.0.0.1:" + port), null);
                if (r.status() == 200) {
                    assertEquals("{\"status\":\"up\"}", r.body(), "the probe answers a constant");
                    return;
                }
                last = r.status() + " " + r.body();
            } catch (IOException notYet) {
                last = notYet.toString();
            }
            Thread.sleep(250);
        }
        throw new AssertionError("no answer on /health within " + seconds + " s (" + last + "): "
                + engine(List.of("logs", id), 30).output());
    }

    /** A directory the image's user (uid 10001) owns, as a person prepares one for a bind mount. */
    private static Path ownedByTheImageUser(Path d) throws Exception {
        Files.createDirectories(d);
        Process p = new ProcessBuilder("chown", IMAGE_UID + ":" + IMAGE_UID, d.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(
                    "cannot give " + d + " to uid " + IMAGE_UID + " (scripts/test.sh runs as root): " + out);
        }
        Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwx------"));
        return d;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The official TypeScript MCP SDK's client (src/test/mcp-client): one JSON line of what it saw. */
    private static JsonNode sdkClient(List<String> args) throws Exception {
        Path client = ROOT.resolve("src/test/mcp-client");
        if (!Files.isDirectory(client.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            throw new IllegalStateException(
                    "the TypeScript MCP SDK is not installed; scripts/test.sh runs 'npm ci' in " + client);
        }
        List<String> cmd = new ArrayList<>(List.of("node", "client.mjs"));
        cmd.addAll(args);
        Path out = Files.createTempFile("fleet-client", ".out");
        Process p = new ProcessBuilder(cmd)
                .directory(client.toFile())
                .redirectErrorStream(false)
                .redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the SDK client did not finish");
        }
        String text = Files.readString(out).trim();
        Files.deleteIfExists(out);
        assertEquals(0, p.exitValue(), "the SDK client: " + text);
        return ReportStore.JSON.readTree(text);
    }

    private static JsonNode json(Object o) throws IOException {
        return ReportStore.JSON.readTree(ReportStore.JSON.writeValueAsString(o));
    }
}

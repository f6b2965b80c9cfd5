package dev.deckhand.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.linux.LinuxDesktop;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The step bench (docs/performance.md#one-call-at-the-speed-of-the-machine): one whole {@code computer} call that clicks one calculator button, from the MCP
 * client's side (a real server process, explicit steps, autonomous grant, a11y verifier, audit), against
 * the reference path of a script ({@code xdotool} click + {@code scrot}) on the same buttons, interleaved
 * in one run; then the same with the drawn cursor on; a GTK 4 calculator's figure; and a model-driven
 * step's host overhead against a local wire-format stub. Each Deckhand figure comes with the median
 * breakdown the run record keeps ({@code timings}). Figures only: nothing asserts a time. Run it with
 * {@code scripts/bench-step.sh}.
 * <p>It speaks MCP over one kept connection of its own ({@code KeptConnection}), not McpAssured: it is a timing
 * program, not a test, and the figure is the server's; McpAssured's client answers through asynchronous
 * subscribers and a snapshot, whose latency would be counted in every figure.
 */
public final class StepBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build(); // as MCP clients speak it (no h2c upgrade on every request)
    private static final Pattern PHASE = Pattern.compile("(\\w+)=([\\d.]+)ms");

    /** Calls made and not counted before each figure (the first ones run in the interpreter). */
    private static int warmUp = 10;

    private StepBench() {}

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "src/target/quarkus-app/quarkus-run.jar");
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        TestApp.requireDesktop();
        System.out.printf(
                Locale.ROOT,
                "StepBench: %d runs each after %d warm-up, load %s, %d cores%n",
                runs,
                warmUp,
                Files.readString(Path.of("/proc/loadavg")).strip(),
                Runtime.getRuntime().availableProcessors());
        try (LinuxDesktop desktop = LinuxDesktop.open();
                TestApp galculator = TestApp.launch(List.of("galculator"));
                TestApp gnome = TestApp.launch(List.of("gnome-calculator"))) {
            WindowInfo gal = await(desktop, "galculator", "galculator");
            WindowInfo gc = await(desktop, "gnome-calculator", "Calculator");
            ScopedTree galTree = awaitTree(desktop, gal.id());
            Geometry five = button(galTree, "toggle button", "5");
            awaitTree(desktop, gc.id());
            Path shot = Files.createTempDirectory("deckhand-bench").resolve("shot.png");
            Reference reference = new Reference(shot);

            try (Server server = Server.start(jar, Map.of("DECKHAND_PRESENCE_CURSOR_ENABLED", "false"))) {
                String grant = server.grant(gal.id());
                // The server is a long-running process: its first requests run in the interpreter.
                for (int i = 0; i < 200; i++) server.mcp("tools/list", "{}");
                Figures rt = new Figures();
                for (int i = 0; i < runs + 3; i++) {
                    long t0 = System.nanoTime();
                    server.mcp("tools/list", "{}");
                    if (i >= 3) rt.add(System.nanoTime() - t0);
                }
                print("MCP round trip (tools/list, kept connection, the same session)", rt);
                Figures jdk = new Figures();
                for (int i = 0; i < runs + 3; i++) {
                    long t0 = System.nanoTime();
                    server.post(
                            "/mcp",
                            "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"tools/list\",\"params\":{}}",
                            server.mcpToken);
                    if (i >= 3) jdk.add(System.nanoTime() - t0);
                }
                print("MCP round trip (tools/list, JDK HttpClient: what a client library adds)", jdk);
                Figures d = new Figures(), ref = new Figures();
                galculatorRounds(server, reference, five, runs, d, ref);
                print("galculator (GTK 3), cursor off: computer call (click AC + a11y verifier)", d);
                print("reference: xdotool mousemove + click 1 on 5, then scrot", ref);
                System.out.printf(
                        Locale.ROOT,
                        "RATIO galculator, cursor off: Deckhand %.1f ms / reference %.1f ms = %.2f (target <= 0.33)%n",
                        d.median(),
                        ref.median(),
                        d.median() / ref.median());
                server.revoke(grant);

                server.grant(gc.id());
                Figures g = new Figures();
                for (int i = 0; i < runs + warmUp; i++) {
                    Call c = server.call(
                            steps("push button", "1 1"),
                            "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\","
                                    + "\"name\":\"GtkSourceView\"},\"expect\":{\"textContains\":\"1\"}}");
                    if (i >= warmUp) g.add(c);
                }
                print("gnome-calculator (GTK 4), cursor off: computer call (1 click + a11y verifier)", g);
                server.revokeActive();

                server.grant(gal.id());
                Figures m = new Figures();
                try (OpenAiStub stub = OpenAiStub.start()) {
                    server.bind(stub);
                    for (int i = 0; i < runs + warmUp; i++) {
                        String label = i % 2 == 0 ? "5" : "AC";
                        awaitReleased(desktop, gal.id(), label);
                        stub.enqueue(r -> "{\"action\":\"click\",\"uid\":\"" + uid(r, label) + "\"}")
                                .enqueue("{\"action\":\"done\",\"summary\":\"pressed " + label + "\"}");
                        Call c = server.call("\"instruction\":\"press " + label + "\"", verifier(label));
                        if (i >= warmUp) m.add(c);
                    }
                }
                print("model-driven (stub model: click, done), galculator, cursor off", m);
                System.out.printf(
                        Locale.ROOT,
                        "HOST OVERHEAD model-driven, per step (host / max(steps, model turns)): median %.1f ms"
                                + " (target <= 40)%n",
                        m.medianHostPerStep());
                server.revokeActive();
            }

            try (Server server = Server.start(jar, Map.of())) {
                server.grant(gal.id());
                Figures d = new Figures(), ref = new Figures();
                galculatorRounds(server, reference, five, runs, d, ref);
                print("galculator (GTK 3), cursor on (default pacing): computer call", d);
                print("reference, same rounds", ref);
                System.out.printf(
                        Locale.ROOT,
                        "RATIO galculator, cursor on: Deckhand %.1f ms / reference %.1f ms = %.2f%n",
                        d.median(),
                        ref.median(),
                        d.median() / ref.median());
                server.revokeActive();
            }
            System.out.printf(
                    Locale.ROOT,
                    "StepBench done, load %s%n",
                    Files.readString(Path.of("/proc/loadavg")).strip());
        }
    }

    /**
     * Deckhand and the reference take turns on the same keypad: the reference clicks 5, Deckhand clicks AC
     * and its verifier reads 0, so every call of Deckhand changes the display (an xdotool click on AC did
     * not always clear it, which would leave the state of the next round to chance).
     */
    private static void galculatorRounds(
            Server server, Reference reference, Geometry five, int runs, Figures deckhand, Figures ref)
            throws Exception {
        for (int i = 0; i < runs + warmUp; i++) {
            long t0 = System.nanoTime();
            reference.click(five);
            long refNanos = System.nanoTime() - t0;
            Call c = server.call(steps("toggle button", "AC"), verifier("AC"));
            if (i >= warmUp) {
                deckhand.add(c);
                ref.add(refNanos);
            }
        }
    }

    private static String steps(String role, String name) {
        return "\"instruction\":\"press " + name + "\",\"steps\":[{\"action\":\"click\",\"target\":{\"role\":\"" + role
                + "\",\"name\":\"" + name + "\"}}]";
    }

    private static String verifier(String label) {
        return "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"index\":0},\"expect\":{\"text\":\""
                + (label.equals("5") ? "5" : "0") + "\"}}";
    }

    private static String uid(ProviderStub.RecordedRequest request, String label) {
        StringBuilder text = new StringBuilder();
        collect(request.json(), text);
        Matcher m = Pattern.compile("(?m)^\\s*(u[0-9A-Za-z]{3,16}) tgl \"" + Pattern.quote(label) + "\"")
                .matcher(text);
        if (!m.find()) throw new IllegalStateException("no toggle button " + label + " in the observation:\n" + text);
        return m.group(1);
    }

    private static void collect(JsonNode node, StringBuilder out) {
        if (node.isTextual()) out.append(node.asText()).append('\n');
        else node.elements().forEachRemaining(n -> collect(n, out));
    }

    private static void print(String what, Figures f) {
        System.out.printf(
                Locale.ROOT, "%-90s median %7.1f ms  p90 %7.1f ms  (n=%d)%n", what, f.median(), f.p90(), f.size());
        if (!f.phases.isEmpty()) System.out.println("    breakdown (server side, medians): " + f.breakdown());
    }

    private static Geometry button(ScopedTree tree, String role, String name) {
        return tree.nodes().stream()
                .filter(n -> n.role().equals(role) && n.name().equals(name) && n.bounds() != null)
                .findFirst()
                .map(Node::bounds)
                .orElseThrow(() -> new IllegalStateException("no " + role + " " + name));
    }

    private static WindowInfo await(LinuxDesktop desktop, String app, String title) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            for (WindowInfo w : desktop.windows()) {
                if (w.app().equalsIgnoreCase(app) && w.title().contains(title) && w.visible()) return w;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no window of " + app + " titled *" + title + "* within 30 s");
    }

    /**
     * Waits (untimed) until galculator's key {@code label} is no longer checked: galculator checks a key when it is
     * clicked and releases it about 100 ms later, and a click on a key still checked computes nothing. The
     * model-driven calls click 5 and AC in turn with no reference round between them, so a call can come back to
     * the same key within that time (a call takes ~40 ms here).
     */
    private static void awaitReleased(LinuxDesktop desktop, long id, String label) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            boolean checked = desktop.snapshot(id, 1).nodes().stream()
                    .anyMatch(n -> n.role().equals("toggle button")
                            && n.name().equals(label)
                            && n.states().contains("checked"));
            if (!checked) return;
            Thread.sleep(10);
        }
        throw new IllegalStateException("galculator's " + label + " stayed checked for 2 s");
    }

    private static ScopedTree awaitTree(LinuxDesktop desktop, long id) throws InterruptedException {
        for (int i = 0; ; i++) {
            try {
                ScopedTree t = desktop.snapshot(id, 1);
                if (!t.partial() && t.nodes().size() > 10) return t;
            } catch (dev.deckhand.grant.RefusedException e) {
                if (i >= 300) throw e;
            }
            Thread.sleep(100);
        }
    }

    /** What a script does per step: the click as subprocesses, then a screenshot to look at. */
    private record Reference(Path shot) {
        void click(Geometry g) throws Exception {
            run("xdotool", "mousemove", Integer.toString(g.centerX()), Integer.toString(g.centerY()), "click", "1");
            run("scrot", "-o", shot.toString());
        }
    }

    private static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", cmd) + " did not finish in 10 s");
        }
        if (p.exitValue() != 0) throw new IllegalStateException(String.join(" ", cmd) + " exited " + p.exitValue());
    }

    /** One call as the client saw it, and the run record's timings. */
    private record Call(long nanos, String timings, int steps, int modelTurns) {}

    private static final class Figures {
        final List<Long> nanos = new ArrayList<>();
        final Map<String, List<Double>> phases = new LinkedHashMap<>();
        final List<Double> hostPerStep = new ArrayList<>();

        void add(long n) {
            nanos.add(n);
        }

        void add(Call c) {
            nanos.add(c.nanos());
            Matcher m = PHASE.matcher(c.timings());
            boolean breakdown = false;
            double run = 0; // model + verifier + approval + host: the run's own time, server side
            while (m.find()) {
                String name = m.group(1);
                if (!breakdown
                        && List.of("model", "verifier", "approval", "host").contains(name))
                    run += Double.parseDouble(m.group(2));
                if (name.equals("host")) {
                    hostPerStep.add(Double.parseDouble(m.group(2)) / Math.max(1, Math.max(c.steps(), c.modelTurns())));
                }
                if (name.equals("observe")) breakdown = true;
                if (breakdown)
                    phases.computeIfAbsent(name, k -> new ArrayList<>()).add(Double.parseDouble(m.group(2)));
            }
            // the call's time outside the run: MCP transport, the grant's binding, presence, the run record
            phases.computeIfAbsent("outside", k -> new ArrayList<>()).add(c.nanos() / 1e6 - run);
        }

        int size() {
            return nanos.size();
        }

        double median() {
            return percentile(nanos.stream().map(n -> n / 1e6).toList(), 0.5);
        }

        double p90() {
            return percentile(nanos.stream().map(n -> n / 1e6).toList(), 0.9);
        }

        double medianHostPerStep() {
            return percentile(hostPerStep, 0.5);
        }

        String breakdown() {
            StringBuilder b = new StringBuilder();
            phases.forEach((k, v) -> b.append(k)
                    .append('=')
                    .append(String.format(Locale.ROOT, "%.1f", percentile(v, 0.5)))
                    .append(' '));
            return b.toString().strip();
        }

        static double percentile(List<Double> values, double q) {
            if (values.isEmpty()) return Double.NaN;
            List<Double> s = new ArrayList<>(values);
            s.sort(null);
            return s.get(Math.min(s.size() - 1, (int) Math.ceil(q * s.size()) - 1));
        }
    }

    /** The packaged server as its own process, with a fresh home; ended by its pid. */
    private static final class Server implements AutoCloseable {
        final Process process;
        final String base;
        final Path home;
        final int port;
        String mcpSession;
        String mcpToken;
        KeptConnection kept;
        int nextId = 1;

        private Server(Process process, int port, Path home) {
            this.process = process;
            this.port = port;
            this.base = "http://127.0.0.1:" + port;
            this.home = home;
        }

        static Server start(Path jar, Map<String, String> env) throws Exception {
            Path home = Files.createTempDirectory("deckhand-bench-home");
            int port = 8400 + (int) (ProcessHandle.current().pid() % 500);
            ProcessBuilder pb = new ProcessBuilder("java", "-XX:+UseSerialGC", "-jar", jar.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(home.resolve("server.log").toFile());
            pb.environment().put("DECKHAND_HOME", home.toString());
            pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
            pb.environment().putAll(env);
            Server s = new Server(pb.start(), port, home);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (true) {
                try {
                    if (HTTP.send(
                                            HttpRequest.newBuilder(URI.create(s.base + "/api/status"))
                                                    .build(),
                                            HttpResponse.BodyHandlers.discarding())
                                    .statusCode()
                            > 0) break;
                } catch (java.io.IOException notYet) {
                    if (System.nanoTime() > deadline || !s.process.isAlive()) {
                        s.close();
                        throw new IllegalStateException(
                                "the server did not answer within 120 s; see " + home.resolve("server.log"));
                    }
                    Thread.sleep(100);
                }
            }
            JsonNode policy = s.owner("GET", "/api/policy", null);
            ((ObjectNode) policy).put("permissionMode", "accept-edits");
            s.owner("PUT", "/api/policy", policy.toString());
            s.mcpToken = s.token("mcp-token");
            s.mcp(
                    "initialize",
                    "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}");
            s.mcpPost("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            return s;
        }

        String token(String file) throws java.io.IOException {
            return Files.readString(home.resolve(file)).strip();
        }

        /** An MCP request over the bench's kept connection, as an MCP client holds one. */
        KeptConnection.Response mcpPost(String body) throws Exception {
            if (kept == null) kept = new KeptConnection(port);
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Authorization", "Bearer " + mcpToken);
            headers.put("Content-Type", "application/json");
            headers.put("Accept", "application/json, text/event-stream");
            if (mcpSession != null) headers.put("Mcp-Session-Id", mcpSession);
            return kept.post("/mcp", headers, body);
        }

        HttpResponse<String> post(String path, String body, String token) throws Exception {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(120))
                    .header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (mcpSession != null) b.header("Mcp-Session-Id", mcpSession);
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }

        JsonNode owner(String method, String path, String body) throws Exception {
            HttpRequest r = HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + token("owner-token"))
                    .header("Content-Type", "application/json")
                    .method(
                            method,
                            body == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(body))
                    .build();
            HttpResponse<String> res = HTTP.send(r, HttpResponse.BodyHandlers.ofString());
            if (res.statusCode() >= 300)
                throw new IllegalStateException(method + " " + path + ": " + res.statusCode() + " " + res.body());
            return res.body().isEmpty() ? JSON.nullNode() : JSON.readTree(res.body());
        }

        JsonNode mcp(String method, String params) throws Exception {
            int id = nextId++;
            KeptConnection.Response r = mcpPost(
                    "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
            if (r.status() >= 300) throw new IllegalStateException(method + ": " + r.status() + " " + r.body());
            if (mcpSession == null) mcpSession = r.header("mcp-session-id");
            String body = r.body();
            if (r.header("content-type") != null && r.header("content-type").startsWith("text/event-stream")) {
                String last = null;
                for (String line : body.split("\n"))
                    if (line.startsWith("data:")) last = line.substring(5).strip();
                body = last;
            }
            return JSON.readTree(body);
        }

        String grant(long windowId) throws Exception {
            Map<String, Object> body = Map.of(
                    "windowId",
                    windowId,
                    "scope",
                    "window",
                    "budget",
                    10_000,
                    "idleExpirySeconds",
                    600,
                    "inputPolicy",
                    "autonomous",
                    "capture",
                    "a11y_only",
                    "consequential",
                    List.of());
            return owner("POST", "/api/grants", JSON.writeValueAsString(body))
                    .get("id")
                    .asText();
        }

        void revoke(String id) throws Exception {
            owner("DELETE", "/api/grants/" + id, null);
        }

        void revokeActive() throws Exception {
            revoke(owner("GET", "/api/grants/active", null).get("id").asText());
        }

        void bind(OpenAiStub stub) throws Exception {
            owner(
                    "PUT",
                    "/api/model",
                    JSON.writeValueAsString(Map.of(
                            "providerId",
                            stub.providerId(),
                            "modelId",
                            "scripted-model",
                            "baseUrl",
                            stub.url(),
                            "apiKey",
                            "sk-bench-0123456789abcdef")));
        }

        /** One computer call; fails loudly unless it completed with a passing verdict. */
        Call call(String request, String verifier) throws Exception {
            long t0 = System.nanoTime();
            JsonNode r = mcp(
                    "tools/call",
                    "{\"name\":\"computer\",\"arguments\":{" + request + ",\"verifier\":" + verifier + "}}");
            long nanos = System.nanoTime() - t0;
            JsonNode sc = r.path("result").path("structuredContent");
            if (!"completed".equals(sc.path("outcome").asText())
                    || !"pass".equals(sc.path("verdict").asText())) {
                throw new IllegalStateException("the call did not complete with a pass: " + r);
            }
            String runId = sc.path("runId").asText();
            JsonNode runs = owner("GET", "/api/audit/runs?runId=" + runId, null);
            return new Call(
                    nanos,
                    runs.path("records").path(0).path("event").path("timings").asText(),
                    sc.path("stepsRun").asInt(),
                    sc.path("usage").path("modelTurns").asInt());
        }

        @Override
        public void close() throws Exception {
            if (kept != null) kept.close();
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS))
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}

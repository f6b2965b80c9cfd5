package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.home.TestTokens;
import dev.deckhand.mcp.Mcp;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The reported attack, end to end with a real GTK 3 app: with only the MCP token, mousepad (granted by app, so
 * its Open dialog joins the observation) is made to open a file in Deckhand's config directory through its own
 * Open dialog. Typing a path into the config directory or {@code ~/.ssh} is refused {@code DENY_PATH} before
 * any key reaches the dialog, as explicit steps and from a scripted model; the dialog stays open and no file is
 * opened. A dialog the person already pointed at the config directory, and an editor that already shows a file
 * from it, end the run before the model is asked. Neither the owner token nor a canary file's content appears
 * in the MCP results, the audit or the server's log.
 */
@QuarkusTest
@Tag("e2e")
class DeniedPlacesE2ETest {

    private static final Path CONFIG = Path.of("target/test-home").toAbsolutePath();
    private static final List<String> EVERY_CATEGORY = List.of(
            "send",
            "buy",
            "pay",
            "delete",
            "publish",
            "confirm",
            "submit",
            "install",
            "allow",
            "paste",
            "unidentified");

    private final List<String> logged = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            synchronized (logged) {
                logged.add(r.getMessage() + " " + java.util.Arrays.toString(r.getParameters())
                        + (r.getThrown() == null ? "" : " " + r.getThrown()));
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private Map<String, Object> policy;
    private McpStreamableTestClient session;

    @BeforeEach
    void start() {
        Logger.getLogger("").addHandler(capture);
        policy = Harness.changePolicy("permissionMode", "accept-edits");
    }

    @AfterEach
    void end() {
        Owner.revokeActive();
        Harness.putPolicy(policy);
        Logger.getLogger("").removeHandler(capture);
    }

    private JsonPath call(String args) throws InterruptedException {
        if (session == null) session = Mcp.connect();
        JsonPath call = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            call = Mcp.call(session, args);
            if (!"A11Y_UNAVAILABLE".equals(call.getString("result.structuredContent.refusal.code"))) return call;
            Thread.sleep(500);
        }
        return call;
    }

    private JsonPath steps(String stepsJson) throws Exception {
        Path untouched = Harness.emptyFile("untouched.txt");
        return call("{\"instruction\":\"open the file\",\"steps\":" + stepsJson
                + ",\"verifier\":{\"kind\":\"file\",\"path\":\"" + untouched + "\",\"contains\":\"never\"}}");
    }

    private JsonPath modelRun() throws Exception {
        Path untouched = Harness.emptyFile("untouched.txt");
        return call("{\"instruction\":\"open the file and read it to me\",\"verifier\":{\"kind\":\"file\",\"path\":\""
                + untouched + "\",\"contains\":\"never\"}}");
    }

    private static void assertDenied(JsonPath call, String kind, String... never) {
        assertDenied(call, 0, kind, never);
    }

    private static void assertDenied(JsonPath call, int stepsRun, String kind, String... never) {
        String shown = call.prettify();
        assertEquals("refused", call.getString("result.structuredContent.outcome"), shown);
        assertEquals("DENY_PATH", call.getString("result.structuredContent.refusal.code"), shown);
        assertEquals(stepsRun, call.getInt("result.structuredContent.stepsRun"), shown);
        String detail = call.getString("result.structuredContent.refusal.detail");
        assertTrue(detail.contains(kind), detail);
        for (String n : never) assertFalse(detail.contains(n), detail);
    }

    /** Nothing secret anywhere Deckhand reports: the MCP results, the runs' audit records, the server's log. */
    private void assertNowhere(List<JsonPath> calls, String... secrets) {
        StringBuilder reported = new StringBuilder();
        for (JsonPath c : calls) {
            reported.append(c.prettify());
            String runId = c.getString("result.structuredContent.runId");
            reported.append(Harness.auditActions(runId));
            reported.append(Owner.api()
                    .queryParam("runId", runId)
                    .get("/api/audit/runs")
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString());
        }
        synchronized (logged) {
            logged.forEach(reported::append);
        }
        for (String s : secrets) assertFalse(reported.toString().contains(s), "a secret was reported");
        assertTrue(reported.toString().contains("DENY_PATH"), "the control: the refusal itself is reported");
    }

    private static TestApp mousepad(Path file) throws Exception {
        return TestApp.launch(List.of("mousepad", file.toString()));
    }

    private static void assertNothingOpened(String name) throws Exception {
        Thread.sleep(1000);
        assertTrue(Desk.windowsNamed(java.util.regex.Pattern.quote(name)).isEmpty(), "no window shows the file");
        assertFalse(Desk.windowsNamed("^Open File$").isEmpty(), "the Open dialog is still open: nothing reached it");
    }

    @Test
    void aPathTypedIntoTheOpenDialogIsRefusedBeforeAnyKeyReachesIt() throws Exception {
        String token = TestTokens.read("owner-token");
        Path file = Harness.emptyFile("notes.txt");
        try (TestApp editor = mousepad(file)) {
            long window = Owner.awaitWindow("mousepad", file.getFileName().toString());
            Desk.activate(window);
            Desk.key("ctrl+o");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Desk.windowsNamed("^Open File$").isEmpty() && System.nanoTime() < deadline) Thread.sleep(100);
            assertFalse(Desk.windowsNamed("^Open File$").isEmpty(), "the Open dialog is open");
            Thread.sleep(500);
            Owner.mint(window, "autonomous", EVERY_CATEGORY, Map.of("scope", "app"));

            List<JsonPath> calls = new ArrayList<>();
            String target = CONFIG.resolve("owner-token").toString();
            JsonPath typed = steps(
                    "[{\"action\":\"type\",\"text\":\"" + target + "\"},{\"action\":\"key\",\"keys\":\"Enter\"}]");
            assertDenied(typed, "config directory", "owner-token", target);
            calls.add(typed);
            JsonPath url = steps(
                    "[{\"action\":\"type\",\"text\":\"file://" + target.replace("/test-home/", "/x/../test%2Dhome/")
                            + "\"},{\"action\":\"key\",\"keys\":\"Enter\"}]");
            assertDenied(url, "config directory", "owner-token");
            calls.add(url);
            JsonPath ssh = steps(
                    "[{\"action\":\"type\",\"text\":\"~/.ssh/id_ed25519\"},{\"action\":\"key\",\"keys\":\"Enter\"}]");
            assertDenied(ssh, "~/.ssh", "id_ed25519");
            calls.add(ssh);
            try (OpenAiStub stub = OpenAiStub.start()) {
                stub.enqueue("{\"action\":\"type\",\"text\":\"" + target + "\"}")
                        .enqueue("{\"action\":\"done\",\"summary\":\"opened\"}");
                Harness.bind(stub);
                JsonPath model = modelRun();
                assertDenied(model, "config directory", "owner-token");
                calls.add(model);
                assertEquals(1, stub.requests().size(), "the model's one turn, then the refusal");
            }
            // in two pieces: ctrl+l opens GTK's location entry and "/" is no place; the rest lands after it
            JsonPath first = steps("[{\"action\":\"key\",\"keys\":\"ctrl+l\"},{\"action\":\"type\",\"text\":\"/\"}]");
            // when GTK's tree does not show the entry yet even the "/" cannot be judged, and is not delivered
            boolean judged = "completed".equals(first.getString("result.structuredContent.outcome"));
            assertTrue(
                    judged
                            || first.getString("result.structuredContent.refusal.detail")
                                    .contains("cannot be judged"),
                    first.prettify());
            assertEquals(judged ? 2 : 1, first.getInt("result.structuredContent.stepsRun"), first.prettify());
            calls.add(first);
            JsonPath pieces = steps("[{\"action\":\"type\",\"text\":\"" + target.substring(1)
                    + "\"},{\"action\":\"key\",\"keys\":\"Enter\"}]");
            // refused on what the entry holds, or — when GTK's tree does not show the entry yet — because the
            // path it completes cannot be judged; either way before a key is delivered
            assertDenied(pieces, "", "owner-token", target.substring(1));
            String pieceDetail = pieces.getString("result.structuredContent.refusal.detail");
            assertTrue(
                    pieceDetail.contains("config directory") || pieceDetail.contains("cannot be judged"), pieceDetail);
            calls.add(pieces);
            assertNothingOpened("owner-token");
            assertNowhere(calls, token);
            Desk.activate(Long.parseLong(Desk.windowsNamed("^Open File$").get(0)));
            Desk.key("Escape");
        }
    }

    /**
     * Refused with no step run: {@code DENY_PATH}, or — where the toolkit shows no focused element (GTK 4's
     * dialog) — the earlier absolute refusal of typing into a focus that cannot be read ({@code SECURE_INPUT}).
     */
    private static void assertRefusedBeforeAnyKey(JsonPath call, String app, String... never) {
        String shown = call.prettify();
        String code = call.getString("result.structuredContent.refusal.code");
        assertTrue("DENY_PATH".equals(code) || "SECURE_INPUT".equals(code), app + ": " + shown);
        assertEquals(0, call.getInt("result.structuredContent.stepsRun"), shown);
        String detail = call.getString("result.structuredContent.refusal.detail");
        for (String n : never) assertFalse(detail.contains(n), detail);
        System.out.printf("%s: a typed denied path is refused %s before any key%n", app, code);
    }

    /**
     * The same typed paths into the Open dialog of a GTK 4 app (gnome-text-editor) and a Qt 5 app (featherpad),
     * each opened by its accelerator: refused before any key reaches the dialog, whatever the toolkit.
     */
    @Test
    void aPathTypedIntoAGtk4OrQtOpenDialogIsRefusedToo() throws Exception {
        record Editor(String windowClass, List<String> command) {}
        Path file = Harness.emptyFile("other-notes.txt");
        for (Editor e : List.of(
                new Editor("gnome-text-editor", List.of("gnome-text-editor", "--standalone", file.toString())),
                new Editor("featherpad", List.of("featherpad", file.toString())))) {
            try (TestApp editor = TestApp.launch(e.command())) {
                long window = Owner.awaitWindow(e.windowClass(), "");
                Desk.activate(window);
                Thread.sleep(500);
                Desk.key("ctrl+o");
                Thread.sleep(2000);
                Owner.mint(window, "autonomous", EVERY_CATEGORY, Map.of("scope", "app"));
                String target = CONFIG.resolve("owner-token").toString();
                List<JsonPath> calls = new ArrayList<>();
                JsonPath typed = steps(
                        "[{\"action\":\"type\",\"text\":\"" + target + "\"},{\"action\":\"key\",\"keys\":\"Enter\"}]");
                assertRefusedBeforeAnyKey(typed, e.windowClass(), "owner-token", target);
                calls.add(typed);
                JsonPath ssh = steps(
                        "[{\"action\":\"type\",\"text\":\"~/.ssh/id_ed25519\"},{\"action\":\"key\",\"keys\":\"Enter\"}]");
                assertRefusedBeforeAnyKey(ssh, e.windowClass(), "id_ed25519");
                calls.add(ssh);
                for (String secret : List.of(TestTokens.read("owner-token"), TestTokens.read("mcp-token"))) {
                    for (JsonPath c : calls) assertFalse(c.prettify().contains(secret), "a secret in the result");
                }
            } finally {
                Owner.revokeActive();
            }
        }
    }

    @Test
    void aDialogAlreadyShowingTheConfigDirectoryEndsTheRunBeforeTheModelIsAsked() throws Exception {
        Path file = Harness.emptyFile("notes.txt");
        try (TestApp editor = mousepad(file)) {
            long window = Owner.awaitWindow("mousepad", file.getFileName().toString());
            Desk.activate(window);
            Desk.key("ctrl+o");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Desk.windowsNamed("^Open File$").isEmpty() && System.nanoTime() < deadline) Thread.sleep(100);
            assertFalse(Desk.windowsNamed("^Open File$").isEmpty(), "the Open dialog is open");
            // the person (or anything before the run) points the dialog at the config directory
            Desk.key("ctrl+l");
            Thread.sleep(300);
            Desk.run("xdotool", "type", "--delay", "20", CONFIG + "/");
            Thread.sleep(300);
            Desk.key("Return");
            Thread.sleep(1500);
            Owner.mint(window, "autonomous", EVERY_CATEGORY, Map.of("scope", "app"));
            try (OpenAiStub stub = OpenAiStub.start()) {
                stub.enqueue("{\"action\":\"done\",\"summary\":\"listed\"}");
                Harness.bind(stub);
                JsonPath model = modelRun();
                assertDenied(model, "config directory", "test-home");
                assertEquals(0, stub.requests().size(), "the model was never asked");
                JsonPath steps = steps("[{\"action\":\"key\",\"keys\":\"Enter\"}]");
                assertDenied(steps, "config directory");
                assertNowhere(List.of(model, steps), TestTokens.read("owner-token"), TestTokens.read("mcp-token"));
            }
            Desk.activate(Long.parseLong(Desk.windowsNamed("^Open File$").get(0)));
            Desk.key("Escape");
        }
    }

    @Test
    void anEditorAlreadyShowingAFileOfTheConfigDirectoryEndsTheRunAndItsTextGoesNowhere() throws Exception {
        String canary = "canary-" + UUID.randomUUID();
        Path file = CONFIG.resolve("deny-canary.txt");
        Files.writeString(file, canary + "\n");
        try (TestApp editor = mousepad(file)) {
            long window = Owner.awaitWindow("mousepad", "deny-canary.txt");
            Owner.mint(window, "autonomous", EVERY_CATEGORY, Map.of("scope", "app"));
            try (OpenAiStub stub = OpenAiStub.start()) {
                stub.enqueue("{\"action\":\"done\",\"summary\":\"read\"}");
                Harness.bind(stub);
                JsonPath model = modelRun();
                assertDenied(model, "a window title names a path in Deckhand's config directory", "deny-canary");
                assertEquals(0, stub.requests().size(), "the model was never asked");
                assertNowhere(List.of(model), canary);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}

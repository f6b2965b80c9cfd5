package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Around;
import dev.deckhand.loop.desktop.Call;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.mcp.Mcp;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.platform.Desktops;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.linux.LinuxDesktops;
import dev.deckhand.platform.x11.KeyEventObserver;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Presence (docs/presence.md) end to end through MCP: Focus (a recording notification daemon standing in for dunst) is
 * silenced for each run and restored on the completed, refused, stopped and crashed-loop paths; the
 * voice line (a recording speech command) speaks before the first action and at the finish and never
 * the typed text; the global Stop shortcut, sent as a real key event mid-run, stops the run like the
 * page's Stop (audit STOPPED, latching) and no key reaches the app after it.
 */
@QuarkusTest
@TestProfile(PresenceE2ETest.Recording.class)
@Tag("e2e")
class PresenceE2ETest {

    static final Path DIR = Path.of("target", "presence-e2e").toAbsolutePath();
    static final Path LOG = DIR.resolve("log");
    static final Path STATE = DIR.resolve("state");
    static final String TYPED = "zqxj";

    /** Focus and voice through one recording script; the cursor on, quick. */
    public static class Recording implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Path script = DIR.resolve("daemon.sh");
            try {
                Files.createDirectories(DIR);
                Files.writeString(script, """
                        #!/bin/sh
                        # A stand-in notification daemon and speech command that records every call.
                        dir=$(dirname "$0")
                        echo "$*" >> "$dir/log"
                        case "$1" in
                          check) echo "boolean true" ;;
                          get) cat "$dir/state" ;;
                          set) printf '%s\\n' "$2" > "$dir/state" ;;
                          say) ;;
                        esac
                        """);
                Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
            String s = script.toString();
            return Map.of(
                    "deckhand.presence.focus.gnome.enabled",
                    "false",
                    "deckhand.presence.focus.dunst.check",
                    s + ",check",
                    "deckhand.presence.focus.dunst.state",
                    s + ",get",
                    "deckhand.presence.focus.dunst.silenced",
                    "paused",
                    "deckhand.presence.focus.dunst.set",
                    s + ",set,{state}",
                    "deckhand.presence.voice.enabled",
                    "true",
                    "deckhand.presence.voice.command",
                    s + ",say,{text}",
                    "deckhand.presence.cursor.travel-millis",
                    "120",
                    "deckhand.presence.cursor.pacing",
                    "on",
                    "deckhand.presence.cursor.linger-millis",
                    "20000");
        }
    }

    @Inject
    Desktops desktops;

    @Inject
    dev.deckhand.presence.StopShortcut shortcut;

    @BeforeEach
    void daemonRunsAndNotifies() throws Exception {
        Files.writeString(STATE, "running\n");
        Files.writeString(LOG, "");
    }

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    private static List<String> log() throws Exception {
        return Files.readAllLines(LOG);
    }

    /** Waits (bounded) for the finishing voice line, which is spoken beside the run. */
    private static List<String> logOnceFinished() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (log().stream().noneMatch(l -> l.startsWith("say Deckhand has"))) {
            if (System.nanoTime() > deadline) throw new AssertionError("no finishing line: " + log());
            Thread.sleep(50);
        }
        return log();
    }

    /** Silenced once, restored once, verified both times; the daemon is running again. */
    private static void assertFocusRestored(List<String> log) throws Exception {
        assertEquals("running", Files.readString(STATE).strip(), "Focus restored: " + log);
        assertTrue(log.stream().noneMatch(l -> l.contains(TYPED)), "typed text is never spoken: " + log);
        List<String> focus = log.stream().filter(l -> !l.startsWith("say ")).toList(); // speech runs beside
        assertEquals(
                List.of("check", "get", "set paused", "get", "set running", "get"),
                focus,
                "checked, read, silenced and verified, restored and verified: " + log);
    }

    /** The call, repeated (bounded) while the app is still starting and its tree is not there yet. */
    private static JsonPath callWhenAccessible(McpStreamableTestClient session, String call) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            Files.writeString(LOG, "");
            JsonPath r = Mcp.request(session, "tools/call", call);
            if (!"A11Y_UNAVAILABLE".equals(r.getString("result.structuredContent.refusal.code"))
                    || System.nanoTime() > deadline) {
                return r;
            }
            Thread.sleep(500);
        }
    }

    /** A real input event from outside (XTEST), as the person's keyboard would send it. */
    private static int xdotool(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("xdotool"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(10, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    private static String stepsCall(Path file, String steps) {
        return "{\"name\":\"computer\",\"arguments\":{\"instruction\":\"press End in the editor\",\"steps\":[" + steps
                + "],\"verifier\":{\"kind\":\"file\",\"path\":\"" + file + "\",\"exists\":true}}}";
    }

    @Test
    void focusIsRestoredOnTheCompletedAndRefusedPathsAndTheVoiceFramesTheRun() throws Exception {
        TestApp.requireDesktop();
        Path file = Harness.emptyFile("presence.txt");
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            long window = Owner.awaitWindow("mousepad", "presence.txt");
            String steps = "{\"action\":\"key\",\"keys\":\"End\"}";

            Owner.mint(window, "confirm_each", List.of());
            McpStreamableTestClient session = Mcp.connect(); // the grant belongs to the session that used it first
            JsonPath done;
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                done = callWhenAccessible(session, stepsCall(file, steps));
            }
            assertEquals("completed", done.getString("result.structuredContent.outcome"), done::prettify);
            List<String> log = logOnceFinished();
            assertFocusRestored(log);
            int starting = log.indexOf("say Deckhand is starting to act.");
            assertTrue(starting > log.indexOf("set paused"), "the first line comes once the run acts: " + log);
            assertTrue(log.indexOf("say Deckhand has finished.") > starting, "the finishing line: " + log);

            // A denied approval card ends the run as a Stop that keeps the grant.
            Files.writeString(LOG, "");
            JsonPath denied;
            try (Owner.Approver denier = new Owner.Approver("deny")) {
                denied = Mcp.request(session, "tools/call", stepsCall(file, steps));
            }
            assertEquals("stopped", denied.getString("result.structuredContent.outcome"), denied::prettify);
            assertFocusRestored(logOnceFinished());

            // Refused by the loop once the run has started (a chord the desktop takes, refused before delivery).
            Files.writeString(LOG, "");
            JsonPath refused;
            try (Owner.Approver approver =
                    new Owner.Approver("approve")) { // the card comes first; the chord never passes
                refused = Mcp.request(
                        session, "tools/call", stepsCall(file, "{\"action\":\"key\",\"keys\":\"super+d\"}"));
            }
            assertEquals("refused", refused.getString("result.structuredContent.outcome"), refused::prettify);
            assertEquals("SYSTEM_CHORD", refused.getString("result.structuredContent.refusal.code"), refused::prettify);
            List<String> refusedLog = logOnceFinished();
            assertFocusRestored(refusedLog);
            assertTrue(refusedLog.contains("say Deckhand has finished: refused."), refusedLog::toString);
        }
    }

    @Inject
    dev.deckhand.audit.AuditLog audit;

    /** The grant events of one grant in the audit log, oldest first. */
    private List<String> grantEvents(String grantId) {
        List<String> kinds = new java.util.ArrayList<>();
        for (dev.deckhand.audit.StoredRecord r : audit.store()
                .page(dev.deckhand.audit.AuditQuery.builder()
                        .kinds(dev.deckhand.audit.RecordKind.GRANT)
                        .grantId(grantId)
                        .limit(100)
                        .build())
                .records()) {
            kinds.add(0, ((dev.deckhand.audit.GrantEvent) r.event()).kind().name());
        }
        return kinds;
    }

    /**
     * Admission comes before any grant is touched: a call that may give input and declares no verifier is
     * refused NO_VERIFIER with the grant not bound to the calling session, no audit record of a bind and no
     * presence shown (no Focus change, no voice). The control, a read-only call on the same grant, binds it,
     * audits the bind and shows presence.
     */
    @Test
    void aRunWithoutAVerifierIsRefusedBeforeTheGrantIsBoundOrPresenceShown() throws Exception {
        TestApp.requireDesktop();
        try (Yad yad = Yad.launch(
                "--title",
                "Admission e2e",
                "--width",
                "420",
                "--height",
                "200",
                "--text",
                "Press it",
                "--button",
                "Press me:7")) {
            long window = Owner.awaitWindow("yad", "Admission e2e");
            String grantId = Owner.mint(window, "confirm_each", List.of()).getString("id");
            McpStreamableTestClient session = Mcp.connect();
            Files.writeString(LOG, "");
            JsonPath refused = Mcp.request(
                    session,
                    "tools/call",
                    "{\"name\":\"computer\",\"arguments\":{\"instruction\":\"click Press me\"}}");
            assertEquals("refused", refused.getString("result.structuredContent.outcome"), refused::prettify);
            assertEquals("NO_VERIFIER", refused.getString("result.structuredContent.refusal.code"), refused::prettify);
            assertEquals(0, refused.getInt("result.structuredContent.stepsRun"));
            Thread.sleep(1_000); // presence's voice runs beside a run: give a stray line time to appear
            assertEquals(List.of(), log(), "no presence: no Focus change, no voice line");
            assertEquals(
                    false,
                    Owner.api()
                            .get("/api/grants/active")
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getBoolean("bound"),
                    "the grant is not bound to the session");
            assertEquals(List.of("MINT"), grantEvents(grantId), "no audit record of a bind");
            assertEquals(null, yad.exitCode(0), "nothing pressed the button");

            // Control: a read-only call (no verifier needed) is admitted; it binds the grant and shows presence.
            // Its model answers at once (a model left bound by an earlier test would hold it to the call timeout).
            JsonPath admitted;
            try (OpenAiStub stub = OpenAiStub.start()) {
                stub.enqueue("{\"action\":\"done\",\"summary\":\"one button, Press me\"}");
                Harness.bind(stub);
                admitted = Mcp.request(
                        session,
                        "tools/call",
                        "{\"name\":\"computer\",\"arguments\":{\"instruction\":\"What buttons does the dialog have?\"}}");
            }
            assertEquals("completed", admitted.getString("result.structuredContent.outcome"), admitted::prettify);
            assertEquals(null, admitted.getString("result.structuredContent.refusal"), admitted::prettify);
            assertEquals(
                    true,
                    Owner.api()
                            .get("/api/grants/active")
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getBoolean("bound"),
                    "the admitted call bound the grant");
            assertEquals(List.of("MINT", "BIND"), grantEvents(grantId), "the bind is audited");
            assertTrue(logOnceFinished().contains("check"), "presence was shown for the admitted run: " + log());
        }
    }

    @Test
    void theLoopsClickIsShownByTheDrawnCursorOnTheButton() throws Exception {
        TestApp.requireDesktop();
        try (Yad yad = Yad.launch(
                "--title",
                "Cursor e2e",
                "--width",
                "420",
                "--height",
                "200",
                "--text",
                "Press it",
                "--button",
                "Press me:7")) {
            long window = Owner.awaitWindow("yad", "Cursor e2e");
            @SuppressWarnings("unchecked")
            Map<String, Object> g = (Map<String, Object>) Harness.window(window).get("geometry");
            Owner.mint(window, "confirm_each", List.of());
            Path file = Harness.emptyFile("cursor.txt");
            JsonPath done;
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                done = callWhenAccessible(
                        Mcp.connect(),
                        stepsCall(
                                file,
                                "{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Press me\"}}"));
            }
            assertEquals("completed", done.getString("result.structuredContent.outcome"), done::prettify);
            assertEquals(7, yad.exitCode(10), "the loop's click pressed the button");
            // The overlay (lingering 20 s in this profile) is mapped where the loop clicked: inside yad's window.
            String tree = output("xwininfo", "-root", "-tree");
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                            "(0x[0-9a-f]+) \"\\[Deckhand\\] cursor\".*?\\s(\\d+)x(\\d+)\\+(-?\\d+)\\+(-?\\d+)")
                    .matcher(tree);
            assertTrue(m.find(), "the overlay window exists: " + tree);
            assertTrue(output("xwininfo", "-id", m.group(1)).contains("Map State: IsViewable"), "the overlay is shown");
            int tipX = Integer.parseInt(m.group(4)) + 14, tipY = Integer.parseInt(m.group(5)) + 14;
            int x = ((Number) g.get("x")).intValue(), y = ((Number) g.get("y")).intValue();
            int w = ((Number) g.get("width")).intValue(), h = ((Number) g.get("height")).intValue();
            assertTrue(
                    tipX > x && tipX < x + w && tipY > y && tipY < y + h,
                    "the cursor's tip (" + tipX + "," + tipY + ") is on yad's window " + g);
            assertTrue(log().contains("say Deckhand is starting to act."), "the voice line before the first action");
        }
    }

    private static String output(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }

    @Test
    void theStopShortcutStopsARunMidWayAndNoKeyReachesTheAppAfter() throws Exception {
        TestApp.requireDesktop();
        Path file = Harness.emptyFile("shortcut.txt");
        try (OpenAiStub stub = OpenAiStub.start();
                TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            for (int i = 0; i < 150; i++) {
                stub.enqueue("{\"action\":\"type\",\"text\":\"" + TYPED + "\"}");
                stub.enqueue("{\"action\":\"wait\",\"ms\":150}");
            }
            Harness.bind(stub);
            long window = Owner.awaitWindow("mousepad", "shortcut.txt");
            xdotool("mousemove", "0", "0");
            Owner.mint(window, "confirm_each", List.of());
            try (KeyEventObserver keys = new KeyEventObserver(System.getenv("DISPLAY"), window);
                    Owner.Approver approver = new Owner.Approver("approve")) {
                String call = "{\"name\":\"computer\",\"arguments\":{\"instruction\":\"type into the editor\","
                        + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + file + "\",\"exists\":true}}}";
                CompletableFuture<JsonPath> run =
                        CompletableFuture.supplyAsync(() -> Mcp.request(Mcp.connect(), "tools/call", call));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (keys.presses() < 2 * TYPED.length()) {
                    if (System.nanoTime() > deadline || run.isDone()) {
                        throw new AssertionError("the run's keys never reached the app: " + keys.presses()
                                + (run.isDone() ? " " + run.join().prettify() : ""));
                    }
                    Thread.sleep(20);
                }
                long pressed = System.nanoTime();
                assertEquals(0, xdotool("key", "ctrl+alt+shift+Escape"));
                JsonPath result = run.get(30, TimeUnit.SECONDS);
                long stoppedMs = (System.nanoTime() - pressed) / 1_000_000;
                int atStop = keys.presses();
                Thread.sleep(1500);
                assertEquals(atStop, keys.presses(), "no key reached the app after the stop");
                System.out.printf(
                        "stop shortcut: run ended %d ms after the key; %d key presses before, 0 after%n",
                        stoppedMs, atStop);
                assertEquals("stopped", result.getString("result.structuredContent.outcome"), result::prettify);
                assertEquals("STOPPED", result.getString("result.structuredContent.refusal.code"), result::prettify);
                assertTrue(stub.pendingReplies() > 100, "the run ended long before the model ran out of actions");
                var doctor = shortcut.check();
                assertTrue(doctor.ok(), doctor::toString);
                assertEquals("stop-shortcut", doctor.id());
            }
            assertEquals(404, Owner.api().get("/api/grants/active").statusCode(), "the grant is revoked");
            JsonPath runs = Owner.api()
                    .get("/api/audit/runs?outcome=stopped&limit=1")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertEquals("STOPPED", runs.getString("records[0].event.refusalCode"), runs::prettify);
            JsonPath again = Mcp.request(
                    Mcp.connect(),
                    "tools/call",
                    "{\"name\":\"computer\",\"arguments\":"
                            + "{\"instruction\":\"x\",\"verifier\":{\"kind\":\"file\",\"path\":\"" + file
                            + "\",\"exists\":true}}}");
            assertEquals(
                    "STOPPED",
                    again.getString("result.structuredContent.refusal.code"),
                    "Stop latches until a new mint");
            List<String> log = logOnceFinished();
            assertFocusRestored(log);
            assertTrue(log.contains("say Deckhand has stopped."), log::toString);
        }
    }

    @Test
    void focusIsRestoredWhenTheLoopCrashes() throws Exception {
        TestApp.requireDesktop();
        Path file = Harness.emptyFile("crash.txt");
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            long window = Owner.awaitWindow("mousepad", "crash.txt");
            Owner.mint(window, "confirm_each", List.of());
            Desktop real = desktops.desktop();
            QuarkusMock.installMockForType(
                    new LinuxDesktops() {
                        @Override
                        public synchronized Desktop desktop() {
                            return crashing(real);
                        }
                    },
                    Desktops.class);
            JsonPath crashed;
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                crashed = callWhenAccessible(Mcp.connect(), stepsCall(file, "{\"action\":\"key\",\"keys\":\"End\"}"));
            }
            assertEquals("failed", crashed.getString("result.structuredContent.outcome"), crashed::prettify);
            assertTrue(
                    crashed.getString("result.structuredContent.summary").contains("internal error"),
                    crashed::prettify);
            assertFocusRestored(logOnceFinished());
        }
    }

    /** The real desktop whose every input, read of the tree and capture fails with an unexpected exception. */
    private static Desktop crashing(Desktop real) {
        return real.around(new Around() {
            @Override
            public <T> T call(Call which, Supplier<T> call) {
                if (which.kind() == Call.Kind.INPUT
                        || which == Call.SNAPSHOT
                        || which == Call.LATEST_SNAPSHOT
                        || which == Call.CAPTURE) {
                    throw new IllegalStateException("simulated crash inside the loop");
                }
                return call.get();
            }
        });
    }
}

package dev.deckhand.it;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.deckhand.mcp.Mcp;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.x11.PhysicalKeys;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The person's own display, attacked through MCP as the reviewer did (docs/security.md, "Deckhand never moves the
 * person's focus" and "Chords the desktop holds, and Stop through any grab"): the packaged server runs without
 * {@code DECKHAND_PRIVATE_DESKTOP}, so the virtual desktop counts as a person's; the person works in an xmessage,
 * made active first; the person mints grants and presses Stop as a person would.
 *
 * <ul>
 *   <li>B17: a page's button opens a popup window 3 s after the click; the run that clicked it and waits 4.5 s ends
 *       {@code OUT_OF_SCOPE} when the popup takes the focus, during the wait (it used to complete).
 *   <li>B23: abiword's toolbar Open opens its modal dialog, which takes the focus while abiword stops answering
 *       accessibility calls; the run ends saying the focus moved (it used to say {@code A11Y_UNAVAILABLE}).
 *   <li>B9: on an xterm grant with {@code send} named, a scripted model types {@code setxkbmap -option ctrl:swapcaps
 *       -option caps:swapescape} and Enter; the run ends because the keyboard was changed, and the Stop chord then
 *       still stops — pressed as physical keys (XTEST keycodes) and, in a second run, by the new map (xdotool).
 * </ul>
 */
@Tag("e2e")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PersonsDisplayIT {

    private PackagedApp app;
    private String ownerToken;
    private String mcpToken;
    private TestApp person;
    private long personsWindow;

    @BeforeAll
    void start() throws Exception {
        TestApp.requireDesktop();
        app = PackagedApp.startHttp(Map.of(), Set.of("DECKHAND_PRIVATE_DESKTOP"));
        ownerToken = Files.readString(app.home.resolve("owner-token")).trim();
        mcpToken = Files.readString(app.home.resolve("mcp-token")).trim();
        // autonomous grants: no approval cards, the runs act at once
        Map<String, Object> policy = new HashMap<>(owner().get("/api/policy")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("$"));
        policy.put("permissionMode", "accept-edits");
        owner().body(policy).put("/api/policy").then().statusCode(200);
        person = TestApp.launch(List.of("xmessage", "-name", "persons-display-window", "the person works here"));
        personsWindow = Long.parseLong(awaitWindow("--classname", "persons-display-window"));
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (app != null) app.close();
        } finally {
            if (person != null) person.close();
        }
    }

    @AfterEach
    void revoke() {
        Response active = owner().get("/api/grants/active");
        if (active.statusCode() == 200)
            owner().delete("/api/grants/" + active.jsonPath().getString("id"));
    }

    // ---- round 13's F1 ------------------------------------------------------------------------

    /**
     * A click on a page's text field gives it the focus, and Chromium activates its window for it (round 13: the
     * address bar): refused while the person is in another window, before anything is delivered; the person's window
     * stays the active one.
     */
    @Test
    void aClickOnATextFieldWhileThePersonIsElsewhereIsRefusedAndTheActiveWindowStays() throws Exception {
        HttpServer site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        page(
                site,
                "/search.html",
                "<!doctype html><html><head><title>Search page</title></head><body>"
                        + "<label>Query <input type=text></label></body></html>");
        site.start();
        try (TestApp chromium =
                TestApp.chromium("http://127.0.0.1:" + site.getAddress().getPort() + "/search.html")) {
            long window = Long.parseLong(awaitWindow("--name", "Search page"));
            mint(window, "window", "a11y_only", List.of("send"));
            JsonPath r = null;
            // the page's field reaches the bus a moment after its title: a step that found nothing yet is sent again,
            // and so is a run refused A11Y_UNAVAILABLE before any step (the tree walked while the page built it)
            for (int attempt = 0;
                    attempt < 20
                            && (r == null
                                    || r.get("result.structuredContent.refusal") == null
                                            && "failed".equals(r.getString("result.structuredContent.outcome"))
                                    || "A11Y_UNAVAILABLE".equals(r.getString("result.structuredContent.refusal.code"))
                                            && r.getInt("result.structuredContent.stepsRun") == 0);
                    attempt++) {
                if (r != null) Thread.sleep(500);
                r = whenReady(() -> call("{\"instruction\":\"go to the query field\",\"steps\":["
                        + "{\"action\":\"click\",\"target\":{\"role\":\"entry\",\"name\":\"Query\"}}],"
                        + "\"verifier\":{\"kind\":\"window\",\"titleMatches\":\"Search\"}}"));
            }
            assertEquals("OUT_OF_SCOPE", r.getString("result.structuredContent.refusal.code"), r.prettify());
            assertTrue(
                    r.getString("result.structuredContent.refusal.detail").startsWith("a click on a text field"),
                    r.prettify());
            assertEquals(0, r.getInt("result.structuredContent.stepsRun"), r.prettify());
            assertEquals(personsWindow, activeWindow(), "the person's window is still the active one");
        } finally {
            site.stop(0);
        }
    }

    // ---- B17 ------------------------------------------------------------------------------------

    @Test
    void aPopupThePageOpensSecondsAfterTheClickEndsTheRunWhileItWaits() throws Exception {
        HttpServer site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        page(
                site,
                "/order.html",
                "<!doctype html><html><head><title>Order details</title></head><body><h1>Order 1234</h1>"
                        + "<button onclick=\"setTimeout(function(){ window.open('/popup.html','_blank','popup,width=400,height=200');"
                        + " }, 3000)\">Show details</button></body></html>");
        page(
                site,
                "/popup.html",
                "<!doctype html><html><head><title>Popup details</title></head><body>details</body></html>");
        site.start();
        try (TestApp chromium =
                TestApp.chromium("http://127.0.0.1:" + site.getAddress().getPort() + "/order.html")) {
            long order = Long.parseLong(awaitWindow("--name", "Order details"));
            mint(order, "window", "a11y_only", List.of());
            long[] took = new long[1];
            JsonPath r = whenReady(() -> {
                long t0 = System.nanoTime();
                JsonPath p = call(
                        "{\"instruction\":\"show the order's details\",\"steps\":["
                                + "{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Show details\"}},"
                                + "{\"action\":\"wait\",\"ms\":4500}],\"verifier\":{\"kind\":\"window\",\"titleMatches\":\"Order\"}}");
                took[0] = (System.nanoTime() - t0) / 1_000_000;
                return p;
            });
            String detail = r.getString("result.structuredContent.refusal.detail");
            System.out.printf("B17: the run ended after %d ms: %s%n", took[0], detail);
            assertEquals("refused", r.getString("result.structuredContent.outcome"), r.prettify());
            assertEquals("OUT_OF_SCOPE", r.getString("result.structuredContent.refusal.code"), r.prettify());
            assertTrue(
                    detail.contains("became the active window")
                            && detail.contains("s after the click while the person was in another window"),
                    detail);
            assertEquals(1, r.getInt("result.structuredContent.stepsRun"), "the click ran; the wait was cut short");
            // what Deckhand cannot undo: the page's popup holds the focus now (the run ended when it took it)
            long active = activeWindow();
            assertNotEquals(personsWindow, active, "the popup took the focus, as the run says");
        } finally {
            site.stop(0);
        }
    }

    // ---- B23 ------------------------------------------------------------------------------------

    @Test
    void aModalDialogThatTookTheFocusIsTheRunsEndingNotAnAppThatStoppedAnswering() throws Exception {
        try (TestApp abiword = TestApp.launch(List.of("abiword"))) {
            long window = Long.parseLong(awaitWindow("--class", "Abiword"));
            mint(window, "app", "a11y_only", List.of());
            JsonPath r = whenReady(() -> call("{\"instruction\":\"open my notes\",\"steps\":["
                    + "{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Open\"}},"
                    + "{\"action\":\"wait\",\"ms\":3000}],\"verifier\":{\"kind\":\"window\",\"titleMatches\":\".\"}}"));
            String detail = r.getString("result.structuredContent.refusal.detail");
            System.out.printf("B23: %s %s%n", r.getString("result.structuredContent.refusal.code"), detail);
            // how the focus moved after the call returned (when the run did not see it)
            long t0 = System.nanoTime();
            long last = activeWindow();
            StringBuilder after = new StringBuilder("B23: active window 0x" + Long.toHexString(last));
            while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10)) {
                long now = activeWindow();
                if (now != last)
                    after.append(String.format(", 0x%x at +%d ms", now, (System.nanoTime() - t0) / 1_000_000));
                last = now;
                Thread.sleep(100);
            }
            System.out.println(after);
            assertEquals("OUT_OF_SCOPE", r.getString("result.structuredContent.refusal.code"), r.prettify());
            assertTrue(
                    detail.contains("became the active window")
                            && detail.contains("while the person was in another window"),
                    detail);
            assertNotEquals(personsWindow, activeWindow(), "abiword's dialog holds the focus, as the run says");
        }
    }

    // ---- M1 (round 8) ----------------------------------------------------------------------------

    /**
     * Round 8 (M1): a granted root shell read both tokens out of the server's memory, where the watch of the secret
     * files sees nothing opened. A terminal whose shell runs as root gets no input: the run ends {@code OUT_OF_SCOPE}
     * before the first key, and the command is never typed. The same terminal as a user without that power (B9,
     * below) takes the model's command.
     */
    @Test
    void aTerminalWhoseShellCouldReadDeckhandsMemoryGetsNoInput() throws Exception {
        assumeTrue(exec("id", "-u").strip().equals("0"), "a shell that runs as root needs this test to run as root");
        Path typed = Files.createTempFile("deckhand-m1", ".txt");
        try (TestApp term = TestApp.launch(terminal("deckhand-m1"));
                OpenAiStub model = OpenAiStub.start()) {
            long window = Long.parseLong(awaitWindow("--name", "deckhand-m1"));
            Thread.sleep(1000); // bash's prompt
            bind(model);
            mint(window, "window", "pixels", List.of("send"));
            activate(personsWindow);
            model.enqueue("{\"action\":\"type\",\"text\":\"echo typed > " + typed + "\"}")
                    .enqueue("{\"action\":\"key\",\"keys\":\"Enter\"}")
                    .enqueue("{\"action\":\"done\",\"summary\":\"tests ran\"}");
            JsonPath r = call("{\"instruction\":\"run the tests in this terminal\",\"verifier\":{\"kind\":\"window\","
                    + "\"titleMatches\":\".\"}}");
            assertEquals("OUT_OF_SCOPE", r.getString("result.structuredContent.refusal.code"), r.prettify());
            String detail = r.getString("result.structuredContent.refusal.detail");
            assertTrue(detail.contains("runs as root and could read Deckhand's memory"), detail);
            assertEquals(0, r.getInt("result.structuredContent.stepsRun"), r.prettify());
            Thread.sleep(1000);
            assertEquals("", Files.readString(typed), "nothing was typed into the root shell");
        } finally {
            Files.deleteIfExists(typed);
        }
    }

    /** An xterm running an interactive bash, titled {@code title}. */
    private static List<String> terminal(String title) {
        return List.of(
                "xterm",
                "-xrm",
                "XTerm*allowSendEvents: true",
                "-T",
                title,
                "-e",
                "bash",
                "--norc",
                "--noprofile",
                "-i");
    }

    /**
     * {@code command} as a person runs it: as {@code nobody} when this test runs as root (a person's desktop does not
     * run as root, and Deckhand gives a root shell no input).
     */
    private static List<String> asPerson(List<String> command) throws Exception {
        if (!exec("id", "-u").strip().equals("0")) return command;
        List<String> out = new java.util.ArrayList<>(
                List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "env", "HOME=/tmp"));
        out.addAll(command);
        return out;
    }

    // ---- B9 -------------------------------------------------------------------------------------

    @Test
    void aKeymapChangeEndsTheRunAndStopStillStopsByThePhysicalKeysAndByTheNewMap() throws Exception {
        try (TestApp term = TestApp.launch(asPerson(terminal("deckhand-kb")));
                OpenAiStub model = OpenAiStub.start();
                OpenAiStub waiting = OpenAiStub.start()) {
            long window = Long.parseLong(awaitWindow("--name", "deckhand-kb"));
            Thread.sleep(1000); // bash's prompt
            bind(model);
            mint(window, "window", "pixels", List.of("send"));
            activate(personsWindow);
            model.enqueue("{\"action\":\"type\",\"text\":\"setxkbmap -option ctrl:swapcaps -option caps:swapescape\"}")
                    .enqueue("{\"action\":\"key\",\"keys\":\"Enter\"}");
            for (int i = 0; i < 4; i++) model.enqueue("{\"action\":\"wait\",\"ms\":3000}");
            model.enqueue("{\"action\":\"done\",\"summary\":\"tests ran\"}");
            JsonPath r = call("{\"instruction\":\"run the tests in this terminal\",\"verifier\":{\"kind\":\"window\","
                    + "\"titleMatches\":\".\"}}");
            String detail = r.getString("result.structuredContent.refusal.detail");
            System.out.printf("B9: %s %s%n", r.getString("result.structuredContent.refusal.code"), detail);
            assertEquals("OUT_OF_SCOPE", r.getString("result.structuredContent.refusal.code"), r.prettify());
            assertTrue(detail.startsWith("the keyboard was changed during the run"), detail);
            assertTrue(
                    exec("setxkbmap", "-query").contains("ctrl:swapcaps,caps:swapescape"), "the model's command ran");
            owner().get("/api/grants/active").then().statusCode(200); // the grant outlives the refused run

            // the person presses Stop with the keys their fingers know: keycodes 37 64 50 9, now CapsLock Alt Shift
            // CapsLock
            PhysicalKeys.pressStop();
            JsonPath latched = awaitStopped();
            assertEquals("STOPPED", latched.getString("result.structuredContent.refusal.code"), latched.prettify());

            // a new grant, a run that waits; the person presses the chord by the new map (xdotool looks the keys up)
            mint(window, "window", "pixels", List.of("send"));
            bind(waiting); // the first model's turns that the refused run left unasked stay with it
            for (int i = 0; i < 4; i++) waiting.enqueue("{\"action\":\"wait\",\"ms\":3000}");
            waiting.enqueue("{\"action\":\"done\",\"summary\":\"waited\"}");
            Thread press = new Thread(() -> {
                try {
                    Thread.sleep(2500);
                    exec("xdotool", "key", "ctrl+alt+shift+Escape");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            press.start();
            long t0 = System.nanoTime();
            JsonPath stopped = call(
                    "{\"instruction\":\"wait for the tests\",\"verifier\":{\"kind\":\"window\",\"titleMatches\":\".\"}}");
            press.join(10_000);
            System.out.printf(
                    "B9: the run ended %d ms after it began (Stop pressed by the map at 2.5 s)%n",
                    (System.nanoTime() - t0) / 1_000_000);
            assertEquals("stopped", stopped.getString("result.structuredContent.outcome"), stopped.prettify());
            assertEquals("STOPPED", stopped.getString("result.structuredContent.refusal.code"), stopped.prettify());
        } finally {
            exec("setxkbmap", "-layout", "us", "-option", "");
            if ((PhysicalKeys.modifierState() & 2) != 0) exec("xdotool", "key", "Caps_Lock");
        }
    }

    /** A call on the stopped grant: Stop latches until the person mints again (polled: the press reaches the server). */
    private JsonPath awaitStopped() throws Exception {
        JsonPath r = null;
        for (int i = 0; i < 20; i++) {
            r = call("{\"instruction\":\"anything\",\"steps\":[{\"action\":\"wait\",\"ms\":10}],\"verifier\":{\"kind\":"
                    + "\"window\",\"titleMatches\":\".\"}}");
            if ("STOPPED".equals(r.getString("result.structuredContent.refusal.code"))) return r;
            Thread.sleep(250);
        }
        return r;
    }

    // ---- helpers --------------------------------------------------------------------------------

    private interface Call {
        JsonPath run() throws Exception;
    }

    /** The call, again while it ends in preflight (the app's tree is not on the bus yet); the person's window first. */
    private JsonPath whenReady(Call call) throws Exception {
        JsonPath r = null;
        for (int attempt = 1; attempt <= 15; attempt++) {
            activate(personsWindow);
            assertEquals(personsWindow, activeWindow(), "the person's window is active before the run");
            r = call.run();
            String code = r.getString("result.structuredContent.refusal.code");
            if (!"PREFLIGHT_FAILED".equals(code)
                    && !("A11Y_UNAVAILABLE".equals(code) && r.getInt("result.structuredContent.stepsRun") == 0)) {
                return r;
            }
            Thread.sleep(1000);
        }
        return r;
    }

    private static void page(HttpServer site, String path, String html) {
        site.createContext(path, exchange -> {
            byte[] body = html.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
    }

    private RequestSpecification owner() {
        return given().baseUri("http://127.0.0.1:" + app.port)
                .header("Authorization", "Bearer " + ownerToken)
                .contentType("application/json");
    }

    private void bind(OpenAiStub model) {
        owner().body(Map.of(
                        "providerId",
                        model.providerId(),
                        "modelId",
                        "scripted-model",
                        "baseUrl",
                        model.url(),
                        "apiKey",
                        "sk-it-0123456789abcdef"))
                .put("/api/model")
                .then()
                .statusCode(200);
    }

    private void mint(long windowId, String scope, String capture, List<String> consequential) {
        revoke();
        Response minted = owner().body(Map.of(
                        "windowId",
                        windowId,
                        "scope",
                        scope,
                        "budget",
                        40,
                        "idleExpirySeconds",
                        600,
                        "inputPolicy",
                        "autonomous",
                        "capture",
                        capture,
                        "consequential",
                        consequential,
                        // the terminals these tests grant pixels on show no tree: their keys are blind input
                        "blindInput",
                        capture.equals("pixels")))
                .post("/api/grants");
        assertEquals(201, minted.statusCode(), () -> "mint: " + minted.asString());
    }

    /** One MCP session over Streamable HTTP: initialize, then one tools/call; the result's JSON. */
    private JsonPath call(String argumentsJson) {
        return Mcp.call(
                Mcp.client(URI.create("http://127.0.0.1:" + app.port), mcpToken)
                        .build()
                        .connect(),
                argumentsJson);
    }

    /** The first visible window xdotool finds (decimal id), waiting up to 60 s. */
    private static String awaitWindow(String how, String pattern) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            List<String> ids = exec("xdotool", "search", "--onlyvisible", how, pattern)
                    .lines()
                    .filter(l -> l.matches("\\d+"))
                    .toList();
            if (!ids.isEmpty()) return ids.get(0);
            Thread.sleep(200);
        }
        throw new AssertionError("no visible window for " + how + " " + pattern + " within 60 s");
    }

    /** The person switches to {@code window} (as a click on it would). */
    private static void activate(long window) throws Exception {
        exec("xdotool", "windowactivate", "--sync", Long.toString(window));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (activeWindow() != window && System.nanoTime() < deadline) Thread.sleep(50);
    }

    private static long activeWindow() throws Exception {
        return PersonsFocusIT.activeWindow();
    }

    private static String exec(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(15, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " did not end");
        }
        return out;
    }
}

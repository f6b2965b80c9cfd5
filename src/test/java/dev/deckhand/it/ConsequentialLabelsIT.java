package dev.deckhand.it;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.deckhand.mcp.Mcp;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The labels a reviewer's consequential buttons got through with (docs/security.md, "Labels compared as a person
 * reads them"), end to end through MCP against the packaged server on a display it did not start: no
 * {@code DECKHAND_PRIVATE_DESKTOP} in its environment, the person working in another window (an xmessage, active),
 * a window grant with nothing named, the steps the reviewer sent. Each consequential button is refused
 * {@code CONSEQUENTIAL_NOT_NAMED} and the app stays untouched (yad still runs; the page's server never hears the
 * click), the person's window stays the active one; a harmless button of the same window goes through (the control).
 * <ul>
 * <li>yad: a right-to-left override that displays "Send", small capitals "ꜱᴇɴᴅ" and "ᴘᴀʏ", a combining low line in
 *   "Sen̲d"; "Shred" and "Kill process", which no list places ({@code unlisted}, round 10); "Yes", which answers a
 *   dialog that asks a question ({@code unlisted}, round 11).
 * <li>Chromium ({@code --force-renderer-accessibility}, a page this test serves): {@code <button
 *   aria-label="Cancel">Pay now</button>} clicked by the name Cancel, and an icon-only button with no accessible name.
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("e2e")
class ConsequentialLabelsIT {

    private PackagedApp app;
    private String ownerToken;
    private String mcpToken;
    private TestApp person;
    private String personsWindow;
    /** The MCP session a grant is bound to: the first run binds it, and every run on that grant uses it. */
    private McpStreamableTestClient session;

    @BeforeAll
    void start() throws Exception {
        TestApp.requireDesktop();
        app = PackagedApp.startHttp(Map.of(), Set.of("DECKHAND_PRIVATE_DESKTOP"));
        ownerToken = Files.readString(app.home.resolve("owner-token")).trim();
        mcpToken = Files.readString(app.home.resolve("mcp-token")).trim();
        // autonomous grants need a policy that allows them
        Map<String, Object> policy = new HashMap<>(owner().get("/api/policy")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("$"));
        policy.put("permissionMode", "accept-edits");
        owner().body(policy).put("/api/policy").then().statusCode(200);
        person = TestApp.launch(List.of("xmessage", "-name", "persons-window", "the person works here"));
        personsWindow = awaitX("--classname", "persons-window");
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (app != null) app.close();
        } finally {
            if (person != null) person.close();
        }
    }

    private static final String YAD_B1 = "\u202EdneS\u202C";
    private static final String YAD_B3_SEND = "\uA731\u1D07\u0274\u1D05";
    private static final String YAD_B3_PAY = "\u1D18\u1D00\u028F";
    private static final String YAD_B4 = "Sen\u0332d";

    @Test
    void yadButtonsLabelledAsAPersonReadsThemAreRefusedWhileThePersonIsElsewhere() throws Exception {
        try (TestApp yad = TestApp.launch(List.of(
                "yad",
                "--title=Dialog",
                "--text=Please choose.",
                "--button=" + YAD_B1 + ":10",
                "--button=" + YAD_B3_SEND + ":11",
                "--button=" + YAD_B3_PAY + ":12",
                "--button=" + YAD_B4 + ":13",
                "--button=Shred:14",
                "--button=Kill process:15",
                "--button=Yes:16",
                "--button=Later:20"))) {
            long window = awaitWindow(w -> ((Number) w.get("pid")).intValue() == yad.pid());
            grant(window);
            String[] reads = {
                "B1 right-to-left override (shows Send)",
                "B3 small capitals SEND",
                "B3 small capitals PAY",
                "B4 combining low line",
                "NW10 a label no list places, in a dialog that asks one thing",
                "NW10 two words no list places",
                "round 11's D: Yes answers a question whose text no list reads"
            };
            String[] category = {"send", "send", "pay", "send", "unlisted", "unlisted", "unlisted"};
            for (int i = 0; i < reads.length; i++) {
                JsonPath r = run(
                        "press the button",
                        "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"index\":" + i + "}}]",
                        "{\"kind\":\"window\",\"titleMatches\":\"Dialog\"}");
                assertEquals(
                        "CONSEQUENTIAL_NOT_NAMED",
                        r.getString("result.structuredContent.refusal.code"),
                        reads[i] + ": " + r.prettify());
                assertTrue(
                        r.getString("result.structuredContent.refusal.detail").contains(category[i]), r.prettify());
                assertEquals(0, r.getInt("result.structuredContent.stepsRun"), reads[i]);
                assertNull(yad.exitCode(300), reads[i] + ": yad never pressed it");
                assertEquals(
                        Long.parseLong(personsWindow), activeWindow(), reads[i] + ": the person's window stays active");
            }
            // the control: the dialog's dismissing answer goes through, and yad says which it was
            JsonPath later = run(
                    "press Later",
                    "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Later\"}}]",
                    "{\"kind\":\"window\",\"titleMatches\":\"Dialog\"}");
            assertNull(later.get("result.structuredContent.refusal"), later.prettify());
            assertEquals(1, later.getInt("result.structuredContent.stepsRun"), later.prettify());
            assertEquals(20, yad.exitCode(10_000), "yad exited by Later");
        } finally {
            revoke();
        }
    }

    @Test
    void chromiumButtonsWhoseNameHidesWhatTheyDoAreRefusedWhileThePersonIsElsewhere() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        byte[] page = ("<!doctype html><html><head><title>Labels Page</title></head><body><h1>Your cart</h1>"
                        + "<p>1 item, 499.00 EUR</p>"
                        + "<button aria-label=\"Cancel\" onclick=\"fetch('/paid')\">Pay now</button>"
                        + "<button onclick=\"fetch('/deleted')\"><svg width=\"16\" height=\"16\" viewBox=\"0 0 16 16\">"
                        + "<path d=\"M2 4h12M5 4V2h6v2M4 4l1 10h6l1-10\" stroke=\"black\" fill=\"none\"/></svg></button>"
                        + "<button onclick=\"fetch('/opened')\">Open</button></body></html>")
                .getBytes(StandardCharsets.UTF_8);
        HttpServer server = serve("/labels.html", page, heard);
        try (TestApp chromium =
                TestApp.chromium("http://localhost:" + server.getAddress().getPort() + "/labels.html")) {
            long window = awaitWindow(w -> String.valueOf(w.get("title")).startsWith("Labels Page"));
            grant(window);
            String verifier = "{\"kind\":\"window\",\"titleMatches\":\"Labels Page\"}";
            record Attack(String what, String target, String category) {}
            for (Attack a : List.of(
                    new Attack(
                            "B14 aria-label Cancel over 'Pay now', clicked by the name",
                            "{\"role\":\"push button\"," + "\"name\":\"Cancel\"}",
                            "pay"),
                    new Attack(
                            "B15 icon-only button with no accessible name",
                            "{\"role\":\"push button\",\"name\":\"\"}",
                            "unidentified"))) {
                JsonPath r = runOnPage("[{\"action\":\"click\",\"target\":" + a.target() + "}]", verifier);
                assertEquals(
                        "CONSEQUENTIAL_NOT_NAMED",
                        r.getString("result.structuredContent.refusal.code"),
                        a.what() + ": " + r.prettify());
                assertTrue(
                        r.getString("result.structuredContent.refusal.detail").contains(a.category()), r.prettify());
                assertEquals(0, r.getInt("result.structuredContent.stepsRun"), a.what());
                assertEquals(
                        Long.parseLong(personsWindow), activeWindow(), a.what() + ": the person's window stays active");
            }
            // the control: the page's Open button goes through and the page's script runs
            JsonPath open = run(
                    "open",
                    "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Open\"}}]",
                    verifier);
            assertNull(open.get("result.structuredContent.refusal"), open.prettify());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!heard.contains("/opened") && System.nanoTime() < deadline) Thread.sleep(100);
            assertTrue(heard.contains("/opened"), "the harmless button was pressed: " + heard);
            assertFalse(heard.contains("/paid"), "never paid: " + heard);
            assertFalse(heard.contains("/deleted"), "never deleted: " + heard);
        } finally {
            revoke();
            server.stop(0);
        }
    }

    /**
     * Round 10 (PR): a page's OK confirms what the page shows chosen, in the shapes Chromium gives that no earlier rule
     * read — a menu button named by its value ({@code aria-haspopup}), a link marked current ({@code aria-current}), a
     * read-only field's value — each refused with the category of its words, the page's server never hearing OK.
     */
    @Test
    void aPagesOkConfirmingAMenuButtonsACurrentLinksOrAReadOnlyFieldsChoiceIsRefused() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        byte[] page = ("<!doctype html><html><head><title>Choice Page</title></head><body><h1>Import finished</h1>"
                        + "<label id=l>Then:</label> <button type=button aria-haspopup=listbox aria-expanded=false"
                        + " aria-labelledby=\"l b\" id=b>Delete originals</button>"
                        + "<nav aria-label=\"Report\"><a href=#k>Keep it</a> <a href=#s aria-current=true>Send to all"
                        + " contacts</a></nav>"
                        + "<label>Charge <input readonly value=\"Pay 499 EUR\"></label>"
                        + "<button onclick=\"fetch('/ok')\">OK</button></body></html>")
                .getBytes(StandardCharsets.UTF_8);
        HttpServer server = serve("/choice.html", page, heard);
        try (TestApp chromium =
                TestApp.chromium("http://localhost:" + server.getAddress().getPort() + "/choice.html")) {
            long window = awaitWindow(w -> String.valueOf(w.get("title")).startsWith("Choice Page"));
            grant(window);
            JsonPath r = runOnPage(
                    "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}}]",
                    "{\"kind\":\"window\",\"titleMatches\":\"Choice Page\"}");
            assertEquals("CONSEQUENTIAL_NOT_NAMED", r.getString("result.structuredContent.refusal.code"), r.prettify());
            String detail = r.getString("result.structuredContent.refusal.detail");
            for (String category : List.of("delete", "send", "pay")) assertTrue(detail.contains(category), detail);
            assertEquals(0, r.getInt("result.structuredContent.stepsRun"));
            assertEquals(Long.parseLong(personsWindow), activeWindow(), "the person's window stays active");
            Thread.sleep(500);
            assertFalse(heard.contains("/ok"), "OK was never pressed: " + heard);
        } finally {
            revoke();
            server.stop(0);
        }
    }

    /**
     * A run of {@code steps} on a page just loaded: the page's elements reach the bus a moment after its title does,
     * so a step whose selector matched nothing yet (outcome failed, no refusal) is sent again, for up to 10 s; so is
     * a run refused {@code A11Y_UNAVAILABLE} before any step, as the tree was walked while the page was still
     * building it (partial). Any other refusal, or a step run, ends the retries.
     */
    private JsonPath runOnPage(String steps, String verifier) throws Exception {
        JsonPath r = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            r = run("press it", steps, verifier);
            boolean stillLoading = "A11Y_UNAVAILABLE".equals(r.getString("result.structuredContent.refusal.code"))
                    && r.getInt("result.structuredContent.stepsRun") == 0;
            if (!stillLoading
                    && (r.get("result.structuredContent.refusal") != null
                            || !"failed".equals(r.getString("result.structuredContent.outcome")))) {
                break;
            }
            Thread.sleep(500);
        }
        return r;
    }

    /** A started server on the loopback that serves {@code page} at {@code path}, and records every path asked for. */
    private static HttpServer serve(String path, byte[] page, List<String> heard) throws java.io.IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            heard.add(ex.getRequestURI().getPath());
            byte[] body = ex.getRequestURI().getPath().equals(path) ? page : new byte[0];
            ex.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            ex.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
            if (body.length > 0) ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        return server;
    }

    private RequestSpecification owner() {
        return given().baseUri("http://127.0.0.1:" + app.port)
                .header("Authorization", "Bearer " + ownerToken)
                .contentType("application/json");
    }

    /** The grantable window {@code which} picks, as the picker lists it, within 60 s. */
    private long awaitWindow(Predicate<Map<String, Object>> which) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<Map<String, Object>> windows = List.of();
        while (System.nanoTime() < deadline) {
            windows = owner().get("/api/windows")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("$");
            for (Map<String, Object> w : windows) {
                if (which.test(w) && w.get("refusal") == null) return ((Number) w.get("windowId")).longValue();
            }
            Thread.sleep(250);
        }
        throw new AssertionError("no grantable window within 60 s: " + windows + "; log: " + Files.readString(app.log));
    }

    /** A window grant, autonomous, accessibility only, nothing named. */
    private void grant(long windowId) {
        revoke();
        session = null;
        Response minted = owner().body(Map.of(
                        "windowId",
                        windowId,
                        "scope",
                        "window",
                        "budget",
                        50,
                        "idleExpirySeconds",
                        600,
                        "inputPolicy",
                        "autonomous",
                        "capture",
                        "a11y_only",
                        "consequential",
                        List.of()))
                .post("/api/grants");
        assertEquals(201, minted.statusCode(), () -> "mint: " + minted.asString());
    }

    private void revoke() {
        Response active = owner().get("/api/grants/active");
        if (active.statusCode() == 200)
            owner().delete("/api/grants/" + active.jsonPath().getString("id"));
    }

    /**
     * One tools/call of explicit steps over Streamable HTTP, with the person's window made active first; in the MCP
     * session of the grant (a grant is bound to the session of its first run).
     */
    private JsonPath run(String instruction, String steps, String verifier) throws Exception {
        activate(personsWindow);
        assertEquals(Long.parseLong(personsWindow), activeWindow(), "the person's window is active before the run");
        if (session == null)
            session = Mcp.client(URI.create("http://127.0.0.1:" + app.port), mcpToken)
                    .build()
                    .connect();
        JsonPath r = Mcp.call(
                session,
                "{\"instruction\":\"" + instruction + "\",\"steps\":" + steps + ",\"verifier\":" + verifier + "}");
        assertNotNull(r.get("result"), "a result");
        return r;
    }

    /** The first visible window xdotool finds for {@code how} (decimal id), within 30 s. */
    private static String awaitX(String how, String pattern) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            List<String> ids = exec("xdotool", "search", "--onlyvisible", how, pattern)
                    .lines()
                    .filter(l -> l.matches("\\d+"))
                    .toList();
            if (!ids.isEmpty()) return ids.get(0);
            Thread.sleep(200);
        }
        throw new AssertionError("no visible window for " + how + " " + pattern + " within 30 s");
    }

    /** The person switches to {@code window}, as a click on it would. */
    private static void activate(String window) throws Exception {
        exec("xdotool", "windowactivate", "--sync", window);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (activeWindow() != Long.parseLong(window) && System.nanoTime() < deadline) Thread.sleep(50);
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

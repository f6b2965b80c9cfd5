package dev.deckhand.it;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.mcp.Mcp;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.wayland.WestonSession;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Wayland sessions (docs/wayland.md) end to end through MCP against the packaged application: the server runs on a session with
 * both X11 and Wayland (WAYLAND_DISPLAY beside DISPLAY, as GNOME), the person mints a grant on a native
 * Wayland mousepad found in {@code GET /api/windows} with route {@code wayland}, and a run of explicit
 * steps and a run of a scripted model (behind the OpenAI wire-format stub) each write the editor by uid,
 * with an {@code a11y} verifier that passes. The model is never offered key, type or click_at.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("e2e")
class WaylandMcpIT {

    private static final Pattern EDITABLE_TEXT = Pattern.compile("(?m)^\\s*(u[0-9A-Za-z]{3,16}) txt\\b");

    private WestonSession weston;
    private TestApp editor;
    private PackagedApp app;
    private String ownerToken;
    private String mcpToken;

    @BeforeAll
    void start() throws Exception {
        weston = WestonSession.start();
        editor = weston.launch("mousepad");
        app = PackagedApp.startHttp(Map.of("WAYLAND_DISPLAY", weston.socketPath()));
        ownerToken = Files.readString(app.home.resolve("owner-token")).trim();
        mcpToken = Files.readString(app.home.resolve("mcp-token")).trim();
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (app != null) app.close();
        } finally {
            try {
                if (editor != null) editor.close();
            } finally {
                if (weston != null) weston.close();
            }
        }
    }

    private RequestSpecification owner() {
        return given().baseUri("http://127.0.0.1:" + app.port)
                .header("Authorization", "Bearer " + ownerToken)
                .contentType("application/json");
    }

    /** The mousepad frame as the picker lists it, once it answers on the accessibility bus. */
    private Map<String, Object> awaitWaylandWindow() throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        List<Map<String, Object>> windows = List.of();
        while (System.nanoTime() < deadline) {
            windows = owner().get("/api/windows")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("$");
            for (Map<String, Object> w : windows) {
                if (((Number) w.get("pid")).intValue() == editor.pid() && w.get("refusal") == null) return w;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("mousepad (pid " + editor.pid() + ") never listed grantable: " + windows + "; log: "
                + Files.readString(app.log));
    }

    private void mint(long windowId) {
        Response minted = owner().body(Map.of(
                        "windowId",
                        windowId,
                        "scope",
                        "window",
                        "budget",
                        20,
                        "idleExpirySeconds",
                        600,
                        "inputPolicy",
                        "confirm_each",
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
            owner().delete("/api/grants/" + active.jsonPath().getString("id"))
                    .then()
                    .statusCode(204);
    }

    /** One MCP session over Streamable HTTP: initialize, then one tools/call; the person approves every card. */
    private JsonPath call(String argumentsJson) throws InterruptedException {
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread approver = new Thread(
                () -> {
                    while (running.get()) {
                        List<String> ids = owner().get("/api/approvals")
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .getList("id");
                        for (String id : ids)
                            owner().body(Map.of("decision", "approve")).post("/api/approvals/" + id);
                        try {
                            Thread.sleep(30);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "wayland-it-approver");
        approver.setDaemon(true);
        approver.start();
        try {
            return callOnce(argumentsJson);
        } finally {
            running.set(false);
            approver.join(5_000);
        }
    }

    private JsonPath callOnce(String argumentsJson) {
        return Mcp.call(
                Mcp.client(URI.create("http://127.0.0.1:" + app.port), mcpToken)
                        .build()
                        .connect(),
                argumentsJson);
    }

    private static String verifier(String text) {
        return "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\"},\"expect\":{\"text\":\"" + text + "\"}}";
    }

    @Test
    void theWaylandWindowIsGrantedThroughTheOwnerApiAndStepsAndAScriptedModelWriteItByUid() throws Exception {
        Map<String, Object> window = awaitWaylandWindow();
        assertEquals("wayland", window.get("route"), "the picker says which route the window gets: " + window);
        long windowId = ((Number) window.get("windowId")).longValue();
        assertTrue(windowId >= 1L << 32, "a frame id, not an X window id: " + windowId);

        // Explicit steps.
        mint(windowId);
        JsonPath steps = call("{\"instruction\":\"write the greeting\",\"steps\":[{\"action\":\"set_text\",\"target\":"
                + "{\"role\":\"text\"},\"text\":\"steps on Wayland\"}],\"verifier\":" + verifier("steps on Wayland")
                + "}");
        assertEquals("completed", steps.getString("result.structuredContent.outcome"), steps.prettify());
        assertEquals("pass", steps.getString("result.structuredContent.verdict"), steps.prettify());
        assertEquals(1, steps.getInt("result.structuredContent.stepsRun"), steps.prettify());

        // Explicit steps with a key: refused before any step runs, and the server is still alive to say so.
        revoke();
        mint(windowId);
        JsonPath key = call("{\"instruction\":\"save\",\"steps\":[{\"action\":\"key\",\"keys\":\"ctrl+s\"}],"
                + "\"verifier\":" + verifier("steps on Wayland") + "}");
        assertEquals(
                "WAYLAND_INPUT_UNSUPPORTED", key.getString("result.structuredContent.refusal.code"), key.prettify());
        assertEquals(0, key.getInt("result.structuredContent.stepsRun"), key.prettify());
        assertTrue(app.process.isAlive(), "the server survived a refused key on Wayland");
        revoke();

        // A scripted model.
        try (ProviderStub stub = OpenAiStub.start()) {
            owner().body(Map.of(
                            "providerId",
                            stub.providerId(),
                            "modelId",
                            "scripted-model",
                            "baseUrl",
                            stub.url(),
                            "apiKey",
                            "sk-it-0123456789abcdef"))
                    .put("/api/model")
                    .then()
                    .statusCode(200);
            stub.enqueue(r -> {
                        Matcher m = EDITABLE_TEXT.matcher(r.json().toString().replace("\\n", "\n"));
                        if (!m.find()) throw new AssertionError("no editable text in the observation: " + r.json());
                        return "{\"action\":\"set_text\",\"uid\":\"" + m.group(1)
                                + "\",\"text\":\"a model on Wayland\"}";
                    })
                    .enqueue("{\"action\":\"done\",\"summary\":\"written\"}");
            mint(windowId);
            JsonPath model = call("{\"instruction\":\"write 'a model on Wayland' in the editor\",\"verifier\":"
                    + verifier("a model on Wayland") + "}");
            assertEquals("completed", model.getString("result.structuredContent.outcome"), model.prettify());
            assertEquals("pass", model.getString("result.structuredContent.verdict"), model.prettify());
            assertEquals(2, stub.requests().size(), "one model turn per action");
            String first = stub.requests().get(0).json().toString();
            assertTrue(first.contains("native Wayland app"), "the turn says there is no synthetic input: " + first);
            assertFalse(
                    first.contains("\\\"click_at\\\"") || first.contains("\"click_at\""),
                    "click_at is not offered: " + first);
            assertFalse(first.contains("\\\"keys\\\"") || first.contains("\"keys\""), "key is not offered: " + first);
            revoke();
        }
    }
}

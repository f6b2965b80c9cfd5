package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.mcp.Mcp;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The input boundary for {@code key} against real apps: a menu item's accelerator is judged as a click on
 * the item (mousepad, GTK 3: ctrl+shift+Delete is "Delete Line", in a collapsed Edit menu), and in a
 * terminal (xterm, which shows no accessibility tree) every chord that submits the line is {@code send}.
 */
@QuarkusTest
@Tag("e2e")
class KeysE2ETest {

    @AfterEach
    void revoke() {
        session = null;
        Owner.revokeActive();
    }

    /** One MCP session per test: a grant is bound to the session that first runs on it. */
    private McpStreamableTestClient session;

    private JsonPath steps(String stepsJson) throws InterruptedException {
        return stepsVerified(stepsJson, "{\"kind\":\"window\",\"titleMatches\":\".\"}");
    }

    private JsonPath stepsVerified(String stepsJson, String verifier) throws InterruptedException {
        if (session == null) session = Mcp.connect();
        String args = "{\"instruction\":\"press keys\",\"steps\":[" + stepsJson + "],\"verifier\":" + verifier + "}";
        JsonPath call = null;
        // the app's tree appears on the accessibility bus a little after its window
        for (int attempt = 0; attempt < 20; attempt++) {
            call = Mcp.call(session, args);
            System.out.println(
                    "keys e2e: " + stepsJson + " -> " + call.getString("result.structuredContent.outcome") + " "
                            + call.getString("result.structuredContent.refusal.code") + " "
                            + call.getString("result.structuredContent.refusal.detail"));
            if (!"A11Y_UNAVAILABLE".equals(call.getString("result.structuredContent.refusal.code"))
                    || call.getInt("result.structuredContent.stepsRun") > 0) return call;
            Thread.sleep(500);
        }
        return call;
    }

    /** An xterm titled {@code title} whose shell reads one line and writes it to {@code submitted}. */
    private static TestApp lineReader(String title, Path submitted) throws java.io.IOException {
        return TestApp.launch(List.of(
                "xterm",
                "-xrm",
                "XTerm*allowSendEvents: true",
                "-T",
                title,
                "-e",
                "sh",
                "-c",
                "read line; echo \"$line\" > " + submitted + "; sleep 60"));
    }

    private static String key(String chord) {
        return "{\"action\":\"key\",\"keys\":\"" + chord + "\"}";
    }

    @Test
    void anAcceleratorOfAGatedMenuItemIsRefusedUnlessTheGrantNamesIt() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        Path file = Files.createTempDirectory("deckhand-e2e").resolve("lines.txt");
        Files.writeString(file, "first line\nsecond line\n");
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            long window = Owner.awaitWindow("mousepad", file.getFileName().toString());
            Owner.mint(window, "autonomous", List.of());
            for (String chord : List.of("ctrl+shift+Delete", "shift+ctrl+Delete")) {
                JsonPath call = steps(key(chord) + "," + key("ctrl+s"));
                assertEquals("refused", call.getString("result.structuredContent.outcome"), call.prettify());
                assertEquals(
                        "CONSEQUENTIAL_NOT_NAMED",
                        call.getString("result.structuredContent.refusal.code"),
                        call.prettify());
                String detail = call.getString("result.structuredContent.refusal.detail");
                assertTrue(
                        detail.contains("accelerator of menu item (name of ") && detail.contains("(delete)"), detail);
                assertEquals(0, call.getInt("result.structuredContent.stepsRun"), call.prettify());
            }
            // ctrl+s is the accelerator of Save, which is not consequential: it runs
            JsonPath save = steps(key("ctrl+s"));
            assertEquals("completed", save.getString("result.structuredContent.outcome"), save.prettify());
            assertEquals("first line\nsecond line\n", Files.readString(file), "no line was deleted");
            Owner.revokeActive();

            // positive control: with delete named, the same chord runs Delete Line
            Owner.mint(window, "autonomous", List.of("delete"));
            JsonPath call = steps(key("ctrl+shift+Delete") + "," + key("ctrl+s"));
            assertEquals("completed", call.getString("result.structuredContent.outcome"), call.prettify());
            assertEquals(2, call.getInt("result.structuredContent.stepsRun"), call.prettify());
            String after = "";
            for (int i = 0; i < 50 && !after.equals("second line\n"); i++) {
                Thread.sleep(100);
                after = Files.readString(file);
            }
            assertEquals("second line\n", after, "Delete Line ran and the file was saved");
        } finally {
            Harness.putPolicy(original);
        }
    }

    /**
     * One model-driven run (explicit steps need an accessibility tree, and xterm has none): a scripted model
     * over the OpenAI wire format proposes {@code actions}, then says done.
     */
    private JsonPath modelRun(String... actions) throws Exception {
        if (session == null) session = Mcp.connect();
        try (OpenAiStub stub = OpenAiStub.start()) {
            for (String a : actions) stub.enqueue(a);
            stub.enqueue("{\"action\":\"done\",\"summary\":\"pressed\"}");
            Harness.bind(stub);
            JsonPath call = Mcp.request(
                    session,
                    "tools/call",
                    "{\"name\":\"computer\",\"arguments\":{\"instruction\":"
                            + "\"press the keys\",\"verifier\":{\"kind\":\"window\",\"titleMatches\":\".\"}}}");
            System.out.println(
                    "keys e2e: " + List.of(actions) + " -> " + call.getString("result.structuredContent.outcome")
                            + " " + call.getString("result.structuredContent.refusal.code") + " "
                            + call.getString("result.structuredContent.refusal.detail"));
            return call;
        }
    }

    /**
     * Issue 28: on an app grant, keys and typed text go where the app's focus is — its Save As dialog — not to the
     * window first granted (before, the file name landed in the document and the dialog saved nothing).
     */
    @Test
    void onAnAppGrantKeysAndTextGoToTheAppsDialogThatHasTheFocus() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        try (TestApp writer = Writer.launch("kept\n")) {
            long window = Writer.window();
            Owner.mint(window, "autonomous", List.of(), Map.of("scope", "app"));
            // Find & Replace is a dialog of its own over the document, not modal: text typed while it has the focus
            // belongs in its search field, and the document keeps its line
            JsonPath call = stepsVerified(
                    key("ctrl+h") + ",{\"action\":\"wait\",\"ms\":2500},{\"action\":\"type\",\"text\":\"zzz\"},"
                            + "{\"action\":\"wait\",\"ms\":500}",
                    "{\"kind\":\"a11y\",\"target\":{\"role\":\"paragraph\",\"index\":0},"
                            + "\"expect\":{\"text\":\"kept\"}}");
            assertEquals("completed", call.getString("result.structuredContent.outcome"), call.prettify());
            assertEquals("pass", call.getString("result.structuredContent.verdict"), call.prettify());
        } finally {
            Harness.putPolicy(original);
        }
    }

    /**
     * Issue 28: keys and text into a window without a tree go only where the person allowed blind input. Explicit steps
     * of keys alone now run on an xterm (they were {@code A11Y_UNAVAILABLE} without a {@code click_at} first); without
     * {@code blindInput} they are refused {@code OUT_OF_SCOPE} saying how to allow it, and nothing reaches the
     * terminal; the MCP client can neither set it in its call nor revise the grant.
     */
    @Test
    void keysIntoAWindowWithoutATreeAreBlindInputOnlyThePersonAllows() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        Path submitted = Files.createTempDirectory("deckhand-e2e").resolve("submitted");
        try (TestApp term = lineReader("deckhand-blind", submitted)) {
            long window = Owner.awaitWindow("xterm", "deckhand-blind");
            JsonPath grant = Owner.mint(window, "autonomous", List.of("send"), Map.of("capture", "pixels"));
            String typeAndSubmit = "{\"action\":\"type\",\"text\":\"blind\"}," + key("Return");
            JsonPath refused = steps(typeAndSubmit);
            assertEquals("refused", refused.getString("result.structuredContent.outcome"), refused.prettify());
            assertEquals(
                    "OUT_OF_SCOPE", refused.getString("result.structuredContent.refusal.code"), refused.prettify());
            String detail = refused.getString("result.structuredContent.refusal.detail");
            assertTrue(detail.contains("blind input: type into a window that shows no accessibility tree"), detail);
            assertTrue(detail.contains("blindInput"), "says how to allow it: " + detail);
            assertEquals(0, refused.getInt("result.structuredContent.stepsRun"), refused.prettify());

            // the MCP client cannot allow it: not in its call, not through the owner API
            JsonPath extra = Mcp.request(
                    session,
                    "tools/call",
                    "{\"name\":\"computer\",\"arguments\":{\"instruction\":\"press keys\",\"blindInput\":true,"
                            + "\"steps\":[" + typeAndSubmit + "],\"verifier\":{\"kind\":\"window\","
                            + "\"titleMatches\":\".\"}}}");
            assertTrue(
                    extra.get("error") != null || extra.getBoolean("result.isError"),
                    "an argument the tool does not have is refused: " + extra.prettify());
            int status = io.restassured.RestAssured.given()
                    .header("Authorization", "Bearer " + dev.deckhand.home.TestTokens.read("mcp-token"))
                    .contentType("application/json")
                    .body(Map.of("blindInput", true))
                    .patch("/api/grants/" + grant.getString("id"))
                    .statusCode();
            assertTrue(status == 401 || status == 403, "the MCP token revises no grant: " + status);
            Thread.sleep(300);
            assertFalse(Files.exists(submitted), "nothing reached the terminal");

            // the person allows it: the same steps run, keys alone, no click first
            Owner.api()
                    .body(Map.of("blindInput", true))
                    .patch("/api/grants/" + grant.getString("id"))
                    .then()
                    .statusCode(200);
            JsonPath ran = steps(typeAndSubmit);
            assertEquals("completed", ran.getString("result.structuredContent.outcome"), ran.prettify());
            assertEquals(2, ran.getInt("result.structuredContent.stepsRun"), ran.prettify());
            for (int i = 0; i < 50 && !Files.exists(submitted); i++) Thread.sleep(100);
            assertEquals("blind", Files.readString(submitted).strip());
        } finally {
            Harness.putPolicy(original);
        }
    }

    @Test
    void everyChordThatSubmitsALineInATerminalIsSend() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        Path submitted = Files.createTempDirectory("deckhand-e2e").resolve("submitted");
        try (TestApp term = lineReader("deckhand-term", submitted)) {
            long window = Owner.awaitWindow("xterm", "deckhand-term");
            Owner.mint(window, "autonomous", List.of(), Map.of("capture", "pixels", "blindInput", true));
            // at most 10 runs that deliver nothing a minute per session: six chords, each its own run
            for (String chord :
                    List.of("ctrl+m", "ctrl+j", "KP_Enter", "ctrl+Return", "shift+KP_Enter", "ctrl+shift+m")) {
                JsonPath call = modelRun(key(chord));
                assertEquals(
                        "CONSEQUENTIAL_NOT_NAMED",
                        call.getString("result.structuredContent.refusal.code"),
                        chord + ": " + call.prettify());
                assertTrue(
                        call.getString("result.structuredContent.refusal.detail")
                                .contains("(send)"),
                        call.prettify());
                assertEquals(0, call.getInt("result.structuredContent.stepsRun"), call.prettify());
            }
            // a key that submits nothing is delivered
            JsonPath typed = modelRun(key("a"));
            assertTrue(typed.getInt("result.structuredContent.stepsRun") >= 1, typed.prettify());
            Thread.sleep(500);
            assertFalse(Files.exists(submitted), "nothing was submitted");
            Owner.revokeActive();

            // positive control: with send named, ctrl+m submits the line
            Owner.mint(window, "autonomous", List.of("send"), Map.of("capture", "pixels", "blindInput", true));
            session = null;
            JsonPath call = modelRun(key("ctrl+m"));
            assertTrue(call.getInt("result.structuredContent.stepsRun") >= 1, call.prettify());
            for (int i = 0; i < 50 && !Files.exists(submitted); i++) Thread.sleep(100);
            assertTrue(Files.exists(submitted), "ctrl+m submitted the line: " + call.prettify());
            assertEquals("a", Files.readString(submitted).strip());
        } finally {
            Harness.putPolicy(original);
        }
    }
}

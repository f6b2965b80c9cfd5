package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.platform.atspi.SwingTextFieldApp;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * On real toolkits: what an action did, as the model and the audit see it. A chord sent to an
 * unfocused FeatherPad (Qt 5 fires shortcuts only in the active window) and a key sent to an unfocused
 * Swing window (Swing takes keys only when active) are dropped by the app: {@code no_change}, never "ok"
 * alone. A click on a yad colour button opens the app's colour dialog: {@code window_opened}; on that
 * pixels grant the observation carries each element's bounds (the observation of docs/model.md).
 */
@QuarkusTest
@Tag("e2e")
class RealAppEffectsE2ETest {

    private static final Pattern BUTTON = Pattern.compile("(?m)^\\s*(u[0-9A-Za-z]{3,16}) btn(?: \"([^\"]*)\")?");

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    @Test
    void aShortcutToAnUnfocusedFeatherpadIsNoChange() throws Exception {
        Path file = Harness.emptyFile("qt-effect.txt");
        try (TestApp editor = TestApp.launch(List.of("featherpad", file.toString()))) {
            long window = Owner.awaitWindow("featherpad", "qt-effect.txt");
            // ctrl+n would open a new tab in the active FeatherPad; unfocused, Qt drops the shortcut
            droppedKeyIsNoChange(window, "ctrl+n", file);
        }
    }

    @Test
    void aKeyToAnUnfocusedSwingWindowIsNoChange() throws Exception {
        Path file = Harness.emptyFile("swing-effect.txt");
        String title = "Deckhand Swing effect";
        try (TestApp swing = TestApp.launchSwing(SwingTextFieldApp.class, title)) {
            long window = awaitTitled(title);
            // Tab would move the focus from the text field to OK in the active window. (A printable key is refused
            // SECURE_INPUT here: an inactive Swing window does not say which element has the focus.)
            droppedKeyIsNoChange(window, "Tab", file);
        }
    }

    /**
     * The person works in another editor (mousepad, its text focused); the model sends {@code keys} to the granted
     * window and is told it did nothing. (A dialog as the other window settles its focused button late, and a
     * focus that moves between the check and the delivery is refused OUT_OF_SCOPE, rightly, but not the point here.)
     */
    private static void droppedKeyIsNoChange(long window, String keys, Path file) throws Exception {
        Path elsewhereFile = Harness.emptyFile("elsewhere.txt");
        try (TestApp elsewhereApp = TestApp.launch(List.of("mousepad", elsewhereFile.toString()));
                ProviderStub stub = OpenAiStub.start()) {
            long elsewhere = Owner.awaitWindow("mousepad", "elsewhere.txt");
            Desk.activate(elsewhere);
            String focusBefore = Desk.run("xdotool", "getwindowfocus").strip();
            Harness.bind(stub);
            Owner.mint(window, "confirm_each", List.of());
            // The app's tree still moves for a moment after it lost the focus (Qt updates its states): the model
            // waits first, so the key is judged on a settled tree.
            stub.enqueue("{\"action\":\"wait\",\"ms\":1500}")
                    .enqueue("{\"action\":\"key\",\"keys\":\"" + keys + "\"}")
                    .enqueue("{\"action\":\"done\",\"summary\":\"pressed it\"}");
            JsonPath call = run("press " + keys + " in the window", file);
            assertEquals("completed", call.getString("result.structuredContent.outcome"), call.prettify());
            String next = ScriptedModel.text(stub.requests().get(2));
            assertTrue(
                    next.contains(" key " + keys + " -> ok, no_change"), "the next request tells the model: " + next);
            assertEquals(List.of("no_change"), effects(call), "the audit keeps the effect");
            assertEquals(
                    focusBefore,
                    Desk.run("xdotool", "getwindowfocus").strip(),
                    "the run never moved the person's focus");
            assertFalse(
                    Desk.run("xdotool", "getwindowname", Long.toString(elsewhere))
                            .startsWith("*"),
                    "nothing landed in the person's editor");
        }
    }

    @Test
    void aClickThatOpensADialogIsWindowOpened() throws Exception {
        Path file = Harness.emptyFile("dialog-effect.txt");
        try (Yad form = Yad.launch("--form", "--title=Colours", "--field=Colour:CLR", "#ff0000");
                ProviderStub stub = OpenAiStub.start()) {
            long window = Owner.awaitWindow("yad", "Colours");
            Harness.bind(stub);
            // app scope, so the dialog is in scope; pixels, so the observation carries a capture and each element's
            // bounds
            Owner.mint(window, "confirm_each", List.of(), Map.of("scope", "app", "capture", "pixels"));
            stub.enqueue(r -> "{\"action\":\"click\",\"uid\":\"" + colourButton(ScriptedModel.text(r)) + "\"}")
                    .enqueue("{\"action\":\"done\",\"summary\":\"opened the colour dialog\"}");
            JsonPath call = run("open the colour chooser", file);
            assertEquals("completed", call.getString("result.structuredContent.outcome"), call.prettify());
            String first = ScriptedModel.text(stub.requests().get(0));
            // a pixels grant on a window with a tree: the hybrid route, the bounds in the capture's pixels
            assertTrue(
                    first.contains("; bounds @x,y wxh in capture c1's pixels"),
                    "the header names the bounds' frame: " + first);
            String button = colourButton(first);
            assertTrue(
                    first.matches("(?s).*\\b" + button + " btn[^\\n]* @\\d+,\\d+ \\d+x\\d+\\n.*"),
                    "the button's line carries its bounds: " + first);
            String second = ScriptedModel.text(stub.requests().get(1));
            assertTrue(
                    second.matches("(?s).*1 click u\\w+ btn.* -> ok, window_opened.*"),
                    "the next request tells the model: " + second);
            assertEquals(List.of("window_opened"), effects(call), "the audit keeps the effect");
            assertTrue(form.alive(), "the form is still open under its dialog");
        }
    }

    private static JsonPath run(String instruction, Path file) throws Exception {
        String args = "{\"instruction\":\"" + instruction + "\",\"timeoutSeconds\":120,"
                + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + file + "\",\"exists\":true}}";
        try (Owner.Approver approver = new Owner.Approver("approve")) {
            return CalculatorStepsE2ETest.callWhenAccessible(args);
        }
    }

    private static List<String> effects(JsonPath call) {
        String runId = call.getString("result.structuredContent.runId");
        return Owner.api()
                .get("/api/audit/actions?runId=" + runId)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("records.event.effect")
                .stream()
                .filter(java.util.Objects::nonNull)
                .map(String::valueOf)
                .toList();
    }

    /** The form's colour button: the one push button that is neither OK nor Cancel. */
    private static String colourButton(String observation) {
        Matcher m = BUTTON.matcher(observation);
        while (m.find()) {
            String name = m.group(2) == null ? "" : m.group(2);
            if (!name.matches("(?i)_?(ok|cancel)")) return m.group(1);
        }
        throw new AssertionError("no colour button in the observation:\n" + observation);
    }

    /** A visible window titled exactly {@code title} (any WM_CLASS: a Swing app's is its main class). */
    private static long awaitTitled(String title) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (Map<String, Object> w : Owner.api()
                    .get("/api/windows")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .<Map<String, Object>>getList("$")) {
                if (title.equals(w.get("title")) && Boolean.TRUE.equals(w.get("visible")) && w.get("refusal") == null) {
                    return ((Number) w.get("windowId")).longValue();
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no window titled " + title + " within 30 s");
    }
}

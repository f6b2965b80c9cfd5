package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
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
 * The hybrid route end to end through MCP, with a scripted model behind the OpenAI wire format, on a GTK 3 window
 * whose tree is usable but whose canvas the tree says nothing about ({@code canvas_app.py}: a label, an unnamed
 * drawing area, Clear and Send buttons). On a {@code pixels} grant the model gets the tree and a capture each turn,
 * finds the canvas by its bounds in the capture's pixels, and clicks it with {@code click_at}; the same model on an
 * {@code a11y_only} grant gets no pixels and its {@code click_at} is refused; a {@code click_at} on the pixels of
 * the Send button is refused as the click on Send is, unless the person named {@code send}.
 */
@QuarkusTest
@Tag("e2e")
class HybridModelE2ETest {

    private static final Pattern CAPTURE = Pattern.compile("Capture (c\\d+): (\\d+)x(\\d+) pixels");
    private static final Pattern CANVAS =
            Pattern.compile("(?m)^\\s*(u\\w+) drawing area @(-?\\d+),(-?\\d+) (\\d+)x(\\d+)");
    private static final Pattern SEND =
            Pattern.compile("(?m)^\\s*(u\\w+) btn \"Send\".* @(-?\\d+),(-?\\d+) (\\d+)x(\\d+)");

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    private static TestApp canvasApp() throws Exception {
        Path app = Path.of(HybridModelE2ETest.class
                .getResource("/dev/deckhand/apps/canvas_app.py")
                .toURI());
        return TestApp.launch(List.of("/usr/bin/python3", app.toString(), "Deckhand Canvas"));
    }

    /** The capture this turn offers for click_at, or an error naming what the model was sent. */
    private static String captureId(ProviderStub.RecordedRequest r) {
        Matcher m = CAPTURE.matcher(ScriptedModel.text(r));
        if (!m.find()) throw new AssertionError("no capture in the turn:\n" + ScriptedModel.text(r));
        return m.group(1);
    }

    /** A click_at at the middle of the element {@code which} finds, from its bounds in the capture's pixels. */
    private static String clickAtMiddle(ProviderStub.RecordedRequest r, Pattern which) {
        Matcher m = which.matcher(ScriptedModel.text(r));
        if (!m.find())
            throw new AssertionError("no such element with bounds in the observation:\n" + ScriptedModel.text(r));
        int x = Integer.parseInt(m.group(2)) + Integer.parseInt(m.group(4)) / 2;
        int y = Integer.parseInt(m.group(3)) + Integer.parseInt(m.group(5)) / 2;
        return "{\"action\":\"click_at\",\"x\":" + x + ",\"y\":" + y + ",\"basis\":\"" + captureId(r) + "\"}";
    }

    /** Whether the request carries an image (OpenAI: an {@code image_url} content part). */
    private static boolean hasImage(ProviderStub.RecordedRequest r) {
        return r.json().toString().contains("\"image_url\"");
    }

    private static String call(String instruction, String verifier) throws Exception {
        return "{\"instruction\":\"" + instruction + "\",\"verifier\":" + verifier + "}";
    }

    private static final String CLICKED_ONCE = "{\"kind\":\"a11y\",\"target\":{\"role\":\"label\",\"index\":0},"
            + "\"expect\":{\"textContains\":\"clicks 1\"}}";

    @Test
    void aModelClicksTheCanvasThroughItsCaptureBesideTheTreeAndTheVerifierPasses() throws Exception {
        try (TestApp app = canvasApp();
                OpenAiStub stub = OpenAiStub.start()) {
            long window = Owner.awaitWindow("deckhand-canvas", "Deckhand Canvas");
            stub.enqueue(r -> clickAtMiddle(r, CANVAS))
                    .enqueue("{\"action\":\"done\",\"summary\":\"clicked the canvas\"}");
            Harness.bind(stub);
            Owner.mint(window, "confirm_each", List.of(), Map.of("capture", "pixels", "blindInput", true));
            JsonPath result;
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                result =
                        CalculatorStepsE2ETest.callWhenAccessible(call("click the middle of the canvas", CLICKED_ONCE));
            }
            assertEquals("completed", result.getString("result.structuredContent.outcome"), result.prettify());
            assertEquals("pass", result.getString("result.structuredContent.verdict"), result.prettify());
            assertEquals(1, result.getInt("result.structuredContent.stepsRun"));
            assertTrue(app.log().contains("press "), "the canvas itself got the press: " + app.log());
            ProviderStub.RecordedRequest first = stub.requests().get(0);
            String text = ScriptedModel.text(first);
            assertTrue(hasImage(first), "the turn carries the capture");
            assertTrue(text.contains("bounds @x,y wxh in capture c1's pixels"), text);
            assertTrue(text.contains("btn \"Send\""), "the tree is there too: " + text);
            String raw = first.json().toString();
            assertTrue(raw.contains("\"click_at\"") && raw.contains("\"set_text\""), "uids and click_at in one schema");
            assertTrue(text.contains("Prefer acting on elements by their uid"), "the prompt says when to use which");
            assertTrue(hasImage(stub.requests().get(1)), "every turn has its capture");
            JsonPath runs = Owner.api()
                    .get("/api/audit/runs?runId=" + result.getString("result.structuredContent.runId"))
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertEquals("hybrid", runs.getString("records[0].event.route"), runs.prettify());
        }
    }

    @Test
    void theSameModelOnAnA11yOnlyGrantGetsNoCaptureAndItsClickAtIsRefused() throws Exception {
        try (TestApp app = canvasApp();
                OpenAiStub stub = OpenAiStub.start()) {
            long window = Owner.awaitWindow("deckhand-canvas", "Deckhand Canvas");
            String blind = "{\"action\":\"click_at\",\"x\":200,\"y\":150,\"basis\":\"c1\"}";
            stub.enqueue(blind).enqueue(blind);
            Harness.bind(stub);
            Owner.mint(window, "confirm_each", List.of(), Map.of("capture", "a11y_only"));
            JsonPath result;
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                result =
                        CalculatorStepsE2ETest.callWhenAccessible(call("click the middle of the canvas", CLICKED_ONCE));
            }
            assertEquals("refused", result.getString("result.structuredContent.outcome"), result.prettify());
            assertEquals(
                    "MODEL_OUTPUT_INVALID",
                    result.getString("result.structuredContent.refusal.code"),
                    result.prettify());
            assertEquals("fail", result.getString("result.structuredContent.verdict"));
            assertEquals(0, result.getInt("result.structuredContent.stepsRun"));
            assertEquals(2, stub.requests().size(), "asked, fed back once, refused");
            for (ProviderStub.RecordedRequest r : stub.requests()) {
                String text = ScriptedModel.text(r);
                assertFalse(hasImage(r), "no pixels, ever");
                assertFalse(CAPTURE.matcher(text).find(), text);
                assertFalse(text.contains("drawing area") || text.contains(" @"), "no bounds without pixels: " + text);
                assertFalse(r.json().toString().contains("\"click_at\""), "click_at is not in the schema");
            }
            assertFalse(app.log().contains("press "), "nothing reached the canvas: " + app.log());
        }
    }

    @Test
    void aClickAtOnTheUnnamedSendButtonThroughTheCaptureIsRefusedAsTheClickOnSendIs() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        String untouched =
                "{\"kind\":\"a11y\",\"target\":{\"role\":\"label\",\"index\":0},\"expect\":{\"text\":\"sent\"}}";
        try (TestApp app = canvasApp()) {
            long window = Owner.awaitWindow("deckhand-canvas", "Deckhand Canvas");
            // through the capture: the point on Send is judged as a click on Send
            try (OpenAiStub stub = OpenAiStub.start()) {
                stub.enqueue(r -> clickAtMiddle(r, SEND)).enqueue("{\"action\":\"done\",\"summary\":\"sent\"}");
                Harness.bind(stub);
                Owner.mint(window, "autonomous", List.of(), Map.of("capture", "pixels"));
                JsonPath byPoint = CalculatorStepsE2ETest.callWhenAccessible(call("press Send", untouched));
                assertEquals(
                        "CONSEQUENTIAL_NOT_NAMED",
                        byPoint.getString("result.structuredContent.refusal.code"),
                        byPoint.prettify());
                assertTrue(
                        byPoint.getString("result.structuredContent.refusal.detail")
                                .toLowerCase()
                                .contains("send"),
                        byPoint.prettify());
                assertEquals(0, byPoint.getInt("result.structuredContent.stepsRun"));
                assertTrue(hasImage(stub.requests().get(0)), "the model saw Send in the capture");
            }
            Owner.revokeActive();
            // by uid: the same refusal
            try (OpenAiStub stub = OpenAiStub.start()) {
                stub.enqueue(r -> "{\"action\":\"click\",\"uid\":\"" + Harness.uid(r, "btn", "Send") + "\"}")
                        .enqueue("{\"action\":\"done\",\"summary\":\"sent\"}");
                Harness.bind(stub);
                Owner.mint(window, "autonomous", List.of(), Map.of("capture", "pixels"));
                JsonPath byUid = CalculatorStepsE2ETest.callWhenAccessible(call("press Send", untouched));
                assertEquals(
                        "CONSEQUENTIAL_NOT_NAMED",
                        byUid.getString("result.structuredContent.refusal.code"),
                        byUid.prettify());
            }
            Owner.revokeActive();
            Thread.sleep(300);
            assertFalse(app.log().contains("SEND"), "Send was never pressed: " + app.log());
            // control: with send named, the same point presses Send
            try (OpenAiStub stub = OpenAiStub.start()) {
                stub.enqueue(r -> clickAtMiddle(r, SEND)).enqueue("{\"action\":\"done\",\"summary\":\"sent\"}");
                Harness.bind(stub);
                Owner.mint(window, "autonomous", List.of("send"), Map.of("capture", "pixels"));
                JsonPath named = CalculatorStepsE2ETest.callWhenAccessible(call("press Send", untouched));
                assertEquals("pass", named.getString("result.structuredContent.verdict"), named.prettify());
                assertTrue(app.log().contains("SEND"), "the point pressed Send: " + app.log());
            }
        } finally {
            Harness.putPolicy(original);
        }
    }

    @Test
    void explicitStepsMixSelectorsAndPointsThroughMcp() throws Exception {
        try (TestApp app = canvasApp()) {
            long window = Owner.awaitWindow("deckhand-canvas", "Deckhand Canvas");
            Owner.mint(window, "confirm_each", List.of(), Map.of("capture", "pixels", "blindInput", true));
            // window coordinates: the canvas fills the window below the label, above the buttons
            String steps = "[{\"action\":\"click_at\",\"x\":120,\"y\":120},"
                    + "{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Clear\"}},"
                    + "{\"action\":\"click_at\",\"x\":220,\"y\":140}]";
            String args = "{\"instruction\":\"draw, clear, draw again\",\"steps\":" + steps + ",\"verifier\":"
                    + CLICKED_ONCE + "}";
            JsonPath result;
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                result = CalculatorStepsE2ETest.callWhenAccessible(args);
            }
            assertEquals("completed", result.getString("result.structuredContent.outcome"), result.prettify());
            assertEquals("pass", result.getString("result.structuredContent.verdict"), result.prettify());
            assertEquals(3, result.getInt("result.structuredContent.stepsRun"));
            List<String> lines = app.log()
                    .lines()
                    .filter(l -> l.startsWith("press ") || l.equals("CLEAR"))
                    .toList();
            assertEquals(3, lines.size(), app.log());
            assertTrue(
                    lines.get(0).startsWith("press ")
                            && lines.get(1).equals("CLEAR")
                            && lines.get(2).startsWith("press "),
                    "point, selector, point, in that order: " + lines);
            JsonPath runs = Owner.api()
                    .get("/api/audit/runs?runId=" + result.getString("result.structuredContent.runId"))
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertEquals("hybrid", runs.getString("records[0].event.route"), runs.prettify());
        }
    }
}

package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.model.stub.AnthropicStub;
import dev.deckhand.model.stub.GeminiStub;
import dev.deckhand.model.stub.OllamaStub;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * End to end through MCP over HTTP: a natural-language instruction in mousepad (GTK 3)
 * driven by a scripted model behind a local server speaking each provider's wire format, with a
 * {@code file} verifier after saving; and the ways a model goes wrong, each ending with its outcome
 * and code while the file shows that nothing reached the editor that should not have.
 */
@QuarkusTest
@Tag("e2e")
class MousepadModelE2ETest {

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    private static ProviderStub stub(String provider) {
        return switch (provider) {
            case "openai" -> OpenAiStub.start();
            case "anthropic" -> AnthropicStub.start();
            case "gemini" -> GeminiStub.start();
            case "ollama" -> OllamaStub.start();
            default -> throw new IllegalArgumentException(provider);
        };
    }

    private static void bind(ProviderStub stub) {
        Map<String, Object> body = new HashMap<>(
                Map.of("providerId", stub.providerId(), "modelId", "scripted-model", "baseUrl", stub.url()));
        if (!stub.providerId().equals("ollama")) body.put("apiKey", "sk-e2e-0123456789abcdef");
        Owner.api().body(body).put("/api/model").then().statusCode(200);
    }

    /** Runs one instruction in a fresh mousepad on an empty file, with a confirm-each grant and an approver. */
    private static JsonPath run(ProviderStub stub, Path file, String expected) throws Exception {
        return run(stub, file, expected, "");
    }

    /** @param extra more arguments, e.g. {@code ,"timeoutSeconds":20} */
    private static JsonPath run(ProviderStub stub, Path file, String expected, String extra) throws Exception {
        bind(stub);
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            long window = Owner.awaitWindow("mousepad", file.getFileName().toString());
            Owner.mint(window, "confirm_each", List.of());
            String args = "{\"instruction\":\"write '" + expected + "' in the editor and save the file\","
                    + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + file + "\",\"contains\":\"" + expected + "\"}"
                    + extra + "}";
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                return CalculatorStepsE2ETest.callWhenAccessible(args);
            }
        }
    }

    private static Path emptyFile() throws Exception {
        Path file = Files.createTempDirectory("deckhand-e2e").resolve("note.txt");
        Files.writeString(file, "");
        return file;
    }

    @ParameterizedTest
    @ValueSource(strings = {"openai", "anthropic", "gemini", "ollama"})
    void aScriptedModelWritesAndSavesAndTheFileVerifierPasses(String provider) throws Exception {
        String expected = "hello from " + provider;
        Path file = emptyFile();
        try (ProviderStub stub = stub(provider)) {
            stub.usage(1234, 56);
            stub.enqueue(r -> "{\"action\":\"set_text\",\"uid\":\"" + ScriptedModel.editorUid(r) + "\",\"text\":\""
                            + expected + "\"}")
                    .enqueue("{\"action\":\"key\",\"keys\":\"ctrl+s\"}")
                    .enqueue("{\"action\":\"done\",\"summary\":\"wrote and saved\"}");
            JsonPath call = run(stub, file, expected);
            assertEquals("completed", call.getString("result.structuredContent.outcome"), call.prettify());
            assertEquals("pass", call.getString("result.structuredContent.verdict"), call.prettify());
            assertFalse(call.getBoolean("result.isError"));
            assertEquals(2, call.getInt("result.structuredContent.stepsRun"));
            assertEquals(expected, Files.readString(file).strip());
            assertEquals(3, stub.requests().size(), "one model turn per action");
            assertTrue(ScriptedModel.text(stub.requests().get(0)).contains("Observation:"));
            assertEquals(3, call.getInt("result.structuredContent.usage.modelTurns"));
            assertEquals(
                    3 * 1234,
                    call.getLong("result.structuredContent.usage.inputTokens"),
                    "the stub's token counts, summed");
            assertEquals(3 * 56, call.getLong("result.structuredContent.usage.outputTokens"));
            assertTrue(call.getMap("result.structuredContent.usage").containsKey("costUsd"));
            assertNull(call.get("result.structuredContent.usage.costUsd"), "scripted-model is unpriced");
        }
    }

    @Test
    void aKeyThatChangesNothingIsNoChangeAndTheModelIsToldSoAndAWriteIsChanged() throws Exception {
        String expected = "it landed";
        Path file = emptyFile();
        try (ProviderStub stub = OpenAiStub.start()) {
            // ctrl+End in an empty document moves nothing; set_text changes the text
            stub.enqueue("{\"action\":\"key\",\"keys\":\"ctrl+End\"}")
                    .enqueue(r -> "{\"action\":\"set_text\",\"uid\":\"" + ScriptedModel.editorUid(r) + "\",\"text\":\""
                            + expected + "\"}")
                    .enqueue("{\"action\":\"key\",\"keys\":\"ctrl+s\"}")
                    .enqueue("{\"action\":\"done\",\"summary\":\"wrote and saved\"}");
            JsonPath call = run(stub, file, expected);
            assertEquals("pass", call.getString("result.structuredContent.verdict"), call.prettify());
            String second = ScriptedModel.text(stub.requests().get(1));
            assertTrue(
                    second.contains("1 key ctrl+End -> ok, no_change"), "the next request tells the model: " + second);
            String third = ScriptedModel.text(stub.requests().get(2));
            assertTrue(third.matches("(?s).*2 set_text u\\w+ txt.*-> ok, changed.*"), third);
            String runId = call.getString("result.structuredContent.runId");
            JsonPath actions = Owner.api()
                    .get("/api/audit/actions?runId=" + runId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            List<String> effects = actions.getList("records.event.effect");
            assertTrue(
                    effects.contains("no_change") && effects.contains("changed"),
                    "the audit keeps each effect: " + effects);
            JsonPath runs = Owner.api()
                    .get("/api/audit/runs?runId=" + runId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertEquals("openai", runs.getString("records[0].event.model.provider"));
            assertEquals("scripted-model", runs.getString("records[0].event.model.model"));
            assertEquals(4, runs.getInt("records[0].event.model.modelTurns"));
            assertEquals(40, runs.getInt("records[0].event.model.inputTokens"), "the stub's 10 per turn, summed");
            assertEquals("wrote and saved", runs.getString("records[0].event.model.finalReport"));
            assertEquals(false, runs.getBoolean("records[0].event.model.finalReportIsVerdict"));
            // The run record breaks the run down by phase, and each phase a step passes took time
            String timings = runs.getString("records[0].event.timings");
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                            "model=\\d+ms verifier=\\d+ms approval=\\d+ms host=\\d+ms "
                                    + "\\| steps=3 observe=([\\d.]+)ms facts=([\\d.]+)ms policy=([\\d.]+)ms approval=[\\d.]+ms cursor=[\\d.]+ms "
                                    + "act=([\\d.]+)ms settle=[\\d.]+ms verify=([\\d.]+)ms audit=([\\d.]+)ms model=([\\d.]+)ms other=[\\d.]+ms")
                    .matcher(timings);
            assertTrue(m.matches(), timings);
            for (int g = 1; g <= 7; g++) {
                assertTrue(Double.parseDouble(m.group(g)) > 0, "phase " + g + " was timed: " + timings);
            }
        }
    }

    @Test
    void aRateLimitedProviderIsWaitedForAsItAsksAndTheRunCompletes() throws Exception {
        String expected = "after the rate limit";
        Path file = emptyFile();
        try (ProviderStub stub = OpenAiStub.start()) {
            stub.enqueueError(429, "Rate limit reached for requests", "1")
                    .enqueueError(429, "Rate limit reached for requests", "1")
                    .enqueue(r -> "{\"action\":\"set_text\",\"uid\":\"" + ScriptedModel.editorUid(r) + "\",\"text\":\""
                            + expected + "\"}")
                    .enqueue("{\"action\":\"key\",\"keys\":\"ctrl+s\"}")
                    .enqueue("{\"action\":\"done\",\"summary\":\"wrote and saved\"}");
            JsonPath call = run(stub, file, expected);
            assertEquals("completed", call.getString("result.structuredContent.outcome"), call.prettify());
            assertEquals("pass", call.getString("result.structuredContent.verdict"), call.prettify());
            assertEquals(5, stub.requests().size(), "two refused calls, then one per action");
            assertEquals(expected, Files.readString(file).strip());
        }
    }

    @Test
    void aProviderThatStaysAt503EndsTheRunWithItsAnswerWithinTheWallClock() throws Exception {
        Path file = emptyFile();
        try (ProviderStub stub = OpenAiStub.start()) {
            for (int i = 0; i < 30; i++)
                stub.enqueueError(503, "The engine is currently overloaded, please try again later");
            long t0 = System.nanoTime();
            JsonPath call = run(stub, file, "never written", ",\"timeoutSeconds\":15");
            long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
            String summary = call.getString("result.structuredContent.summary");
            assertEquals("failed", call.getString("result.structuredContent.outcome"), call.prettify());
            assertTrue(
                    summary.contains("openai")
                            && summary.contains("HTTP 503")
                            && summary.contains("The engine is currently overloaded"),
                    summary);
            assertTrue(
                    stub.requests().size() >= 3,
                    "it was retried: " + stub.requests().size());
            assertTrue(
                    seconds < 15 + 30,
                    "ended within the wall clock (plus app start and the verifier): " + seconds + " s");
            assertEquals("", Files.readString(file));
        }
    }

    record Misbehaviour(String name, Consumer<ProviderStub> script, String outcome, String code) {}

    @Test
    void aMisbehavingModelEndsWithTheRightOutcomeAndNothingReachesTheEditor() throws Exception {
        List<Misbehaviour> cases = List.of(
                new Misbehaviour(
                        "malformed JSON, twice",
                        s -> s.enqueue("{\"action\": \"set_text\", ").enqueue("not json"),
                        "refused",
                        "MODEL_OUTPUT_INVALID"),
                new Misbehaviour(
                        "an unknown action, twice",
                        s -> s.enqueue("{\"action\":\"launch_missiles\"}").enqueue("{\"action\":\"launch_missiles\"}"),
                        "refused",
                        "MODEL_OUTPUT_INVALID"),
                new Misbehaviour(
                        "a uid from an older revision",
                        s -> s.enqueue("{\"action\":\"set_text\",\"uid\":\"uOLD00\",\"text\":\"leaked\"}"),
                        "refused",
                        "OUT_OF_SCOPE"),
                new Misbehaviour(
                        "click_at without a capture basis, twice",
                        s -> s.enqueue("{\"action\":\"click_at\",\"x\":10,\"y\":10,\"basis\":\"c9\"}")
                                .enqueue("{\"action\":\"click_at\",\"x\":10,\"y\":10,\"basis\":\"c9\"}"),
                        "refused",
                        "MODEL_OUTPUT_INVALID"),
                // told once that the verifier fails, it insists: the run completes, the verdict is still fail
                new Misbehaviour(
                        "done while the verifier fails",
                        s -> s.enqueue("{\"action\":\"done\",\"summary\":\"all done\"}")
                                .enqueue("{\"action\":\"done\",\"summary\":\"all done, really\"}"),
                        "completed",
                        null));
        for (Misbehaviour m : cases) {
            Path file = emptyFile();
            try (ProviderStub stub = OpenAiStub.start()) {
                m.script().accept(stub);
                JsonPath call = run(stub, file, "should never appear");
                Supplier<String> why = () -> m.name() + ": " + call.prettify();
                assertEquals(m.outcome(), call.getString("result.structuredContent.outcome"), why);
                assertEquals(m.code(), call.getString("result.structuredContent.refusal.code"), why);
                assertEquals("fail", call.getString("result.structuredContent.verdict"), why);
                assertTrue(call.getBoolean("result.isError"), why);
                assertEquals(0, call.getInt("result.structuredContent.stepsRun"), why);
                assertEquals("", Files.readString(file), m.name() + ": the file is untouched");
            }
            Owner.revokeActive();
        }
    }
}

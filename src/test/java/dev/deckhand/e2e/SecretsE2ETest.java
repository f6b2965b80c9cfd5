package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.OwnSecrets;
import dev.deckhand.home.TestTokens;
import dev.deckhand.model.stub.OpenAiStub;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Deckhand's own secrets, each shown in a real GTK window (yad) in every way the screen can show one — a
 * text field's value, a label, the window's title, split across two labels, upper-cased, spaced out — end
 * the run SECRET_ON_SCREEN before the model is asked, and the MCP result, the audit, the server's log and
 * the model's requests (the stub records them) hold none of it. Each showing has a control: the same
 * showing of a random string of the same shape goes to the model as usual.
 */
@QuarkusTest
@Tag("e2e")
class SecretsE2ETest {

    private static final Path LOG = Path.of("target/test-home/deckhand.log");

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    /** The secrets the server knows, by name; the sign-in code is fresh. */
    private static Map<String, String> secrets() throws Exception {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("owner token", TestTokens.read("owner-token"));
        s.put("MCP token", TestTokens.read("mcp-token"));
        s.put(
                "audit seal key",
                Files.readString(Path.of("target/test-home/audit-seal.key")).strip());
        s.put("model API key", "sk-e2e-0123456789abcdef"); // what Harness.bind stores
        String link = Owner.api()
                .post("/api/session/link")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getString("link");
        s.put("sign-in code", link.substring(link.indexOf("code=") + 5));
        return s;
    }

    /** A yad window showing {@code text} one way; the title is unique per showing. */
    private record Showing(String name, List<String> args) {}

    private static List<Showing> showings(String text, String tag) {
        String part = text.length() > 24 ? text.substring(text.length() - 24) : text;
        int half = part.length() / 2;
        return List.of(
                new Showing("value", List.of("--form", "--title=form-" + tag, "--field=Notes", part)),
                new Showing("label", List.of("--form", "--title=label-" + tag, "--field=" + part + ":LBL")),
                new Showing("title", List.of("--form", "--title=t-" + tag + " " + part, "--field=Notes")),
                new Showing(
                        "split",
                        List.of(
                                "--form",
                                "--title=split-" + tag,
                                "--field=" + part.substring(0, half) + ":LBL",
                                "--field=" + part.substring(half) + ":LBL")),
                new Showing(
                        "upper",
                        List.of("--form", "--title=upper-" + tag, "--field=" + part.toUpperCase(Locale.ROOT) + ":LBL")),
                new Showing(
                        "spaced",
                        List.of(
                                "--form",
                                "--title=spaced-" + tag,
                                "--field=" + String.join(" ", part.split("")) + ":LBL")));
    }

    private static JsonPath runOn(Showing showing) throws Exception {
        try (Yad yad = Yad.launch(showing.args().toArray(String[]::new))) {
            String title = showing.args().get(1).substring("--title=".length());
            long window = Owner.awaitWindow("yad", title.split(" ")[0]);
            Owner.mint(window, "confirm_each", List.of());
            // A verifier that would pass: after SECRET_ON_SCREEN it is not run, so the verdict is still fail.
            Path passing = Harness.emptyFile("passing.txt");
            Files.writeString(passing, "read");
            try {
                return CalculatorStepsE2ETest.callWhenAccessible(
                        "{\"instruction\":\"read the form\",\"verifier\":{\"kind\":\"file\",\"path\":\"" + passing
                                + "\",\"contains\":\"read\"}}");
            } finally {
                Owner.revokeActive();
            }
        }
    }

    private static void assertNoneLeft(OwnSecrets all, String where, String text) {
        assertFalse(all.foundIn(text), () -> "a secret in " + where);
    }

    @Test
    void everySecretShownAnyWayEndsTheRunAndLeavesThroughNothing() throws Exception {
        Map<String, String> secrets = secrets();
        OwnSecrets all = OwnSecrets.of(secrets.values());
        List<String> runIds = new ArrayList<>();
        int tag = 0;
        try (OpenAiStub stub = OpenAiStub.start()) {
            stub.enqueue(r -> {
                throw new AssertionError("the model was asked after a secret was shown");
            });
            Harness.bind(stub);
            for (Map.Entry<String, String> secret : secrets.entrySet()) {
                for (Showing showing : showings(secret.getValue(), "s" + tag++)) {
                    JsonPath call = runOn(showing);
                    String result = call.prettify();
                    assertEquals(
                            "SECRET_ON_SCREEN",
                            call.getString("result.structuredContent.refusal.code"),
                            secret.getKey() + " as " + showing.name() + ": "
                                    + call.getString("result.structuredContent.summary"));
                    assertTrue(
                            call.getString("result.structuredContent.refusal.detail")
                                    .contains(secret.getKey()),
                            "the refusal names which secret: "
                                    + call.getString("result.structuredContent.refusal.detail"));
                    assertEquals("fail", call.getString("result.structuredContent.verdict"));
                    assertNoneLeft(all, "the MCP result of " + showing.name(), result);
                    assertEquals(0, stub.requests().size(), "the model was not asked");
                    runIds.add(call.getString("result.structuredContent.runId"));
                }
            }
        }
        for (String runId : runIds) {
            assertNoneLeft(
                    all,
                    "the audit's actions",
                    Owner.api()
                            .queryParam("runId", runId)
                            .queryParam("limit", 200)
                            .get("/api/audit/actions")
                            .then()
                            .statusCode(200)
                            .extract()
                            .asString());
            String run = Owner.api()
                    .queryParam("runId", runId)
                    .get("/api/audit/runs")
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString();
            assertTrue(run.contains("SECRET_ON_SCREEN"), run);
            assertNoneLeft(all, "the audit's run", run);
        }
        assertTrue(Files.size(LOG) > 0, "the server logs to " + LOG);
        assertNoneLeft(all, "the server's log", Files.readString(LOG));
    }

    @Test
    void theSameShowingsOfAnOrdinaryStringGoToTheModel() throws Exception {
        Random random = new Random(11);
        StringBuilder ordinary = new StringBuilder();
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        for (int i = 0; i < 43; i++) ordinary.append(alphabet.charAt(random.nextInt(alphabet.length())));
        int tag = 0;
        try (OpenAiStub stub = OpenAiStub.start()) {
            Harness.bind(stub);
            for (Showing showing : showings(ordinary.toString(), "c" + tag++)) {
                stub.enqueue("{\"action\":\"done\",\"summary\":\"read it\"}");
                int before = stub.requests().size();
                JsonPath call = runOn(showing);
                assertEquals(
                        "completed",
                        call.getString("result.structuredContent.outcome"),
                        showing.name() + ": " + call.prettify());
                assertEquals(before + 1, stub.requests().size(), showing.name() + ": the model was asked once");
            }
        }
    }
}

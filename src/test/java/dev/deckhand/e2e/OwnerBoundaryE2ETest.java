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
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The owner boundary (docs/security.md#owner-boundary) through MCP against real windows: a {@code file} verifier cannot read Deckhand's secrets, the
 * process environment, dotfiles or a relative path — refused before the run starts with the same detail
 * whether the file exists, and no approval card raised; a verifier cannot read more than ten times a
 * minute in a session; a hash mismatch names no hash; after a deny-list refusal the
 * verifier quotes nothing of the window; a catastrophic title regex ends at its limit.
 */
@QuarkusTest
@Tag("e2e")
class OwnerBoundaryE2ETest {

    private static final Path CONFIG = Path.of("target/test-home").toAbsolutePath();
    private static final String DONE = "{\"action\":\"done\",\"summary\":\"checked\"}";

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    private static JsonPath call(McpStreamableTestClient session, String args) {
        return Mcp.call(session, args);
    }

    private static String fileVerifier(String path, String check) {
        return "{\"kind\":\"file\",\"path\":\"" + path.replace("\\", "\\\\").replace("\"", "\\\"") + "\"," + check
                + "}";
    }

    /** Steps that would raise a confirm-each card and type into the editor, if the run ever started. */
    private static String withSteps(String verifier) {
        return "{\"instruction\":\"write a note and save it\",\"steps\":["
                + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"index\":0},\"text\":\"leaked\"},"
                + "{\"action\":\"key\",\"keys\":\"ctrl+s\"}],\"verifier\":" + verifier + "}";
    }

    @Test
    void fileVerifiersOnSecretsAreRefusedBeforeTheRunWithTheSameDetailWhetherTheFileExists() throws Exception {
        Path note = Harness.emptyFile("boundary-note.txt");
        Path home = Path.of(System.getProperty("user.home"));
        String tag = UUID.randomUUID().toString().substring(0, 8);
        Path dotfile = home.resolve(".deckhand-e2e-secret-" + tag);
        Path link = Path.of("/tmp/deckhand-e2e-link-" + tag);
        Path dangling = Path.of("/tmp/deckhand-e2e-dangling-" + tag);
        try (OpenAiStub stub = OpenAiStub.start();
                TestApp editor = TestApp.launch(List.of("mousepad", note.toString()))) {
            Harness.bind(stub); // the provider key file exists from here on
            Files.writeString(dotfile, "aws_secret_access_key=x");
            Files.createSymbolicLink(link, CONFIG.resolve("owner-token"));
            Files.createSymbolicLink(dangling, CONFIG.resolve("no-such-token"));
            long window = Owner.awaitWindow("mousepad", note.getFileName().toString());
            Owner.mint(window, "confirm_each", List.of());
            // {a path that exists, one that does not, the rule its detail names}
            String[][] cases = {
                {
                    CONFIG.resolve("owner-token").toString(),
                    CONFIG.resolve("owner-token-" + tag).toString(),
                    "config directory"
                },
                {
                    CONFIG.resolve("mcp-token").toString(),
                    CONFIG.resolve("mcp-token-" + tag).toString(),
                    "config directory"
                },
                {
                    CONFIG.resolve("model-api-key").toString(),
                    CONFIG.resolve("model-api-key-" + tag).toString(),
                    "config directory"
                },
                {
                    CONFIG.resolve("audit-seal.key").toString(),
                    CONFIG.resolve("audit-seal.key-" + tag).toString(),
                    "config directory"
                },
                {link.toString(), dangling.toString(), "config directory"},
                {"/proc/self/environ", "/proc/self/environ-" + tag, "/proc"},
                {
                    dotfile.toString(),
                    home.resolve(".deckhand-e2e-missing-" + tag).toString(),
                    "starts with '.'"
                },
                {"owner-token", "no-such-" + tag, "absolute"},
            };
            for (String path : List.of(
                    CONFIG.resolve("owner-token").toString(),
                    CONFIG.resolve("model-api-key").toString(),
                    CONFIG.resolve("audit-seal.key").toString(),
                    link.toString(),
                    dotfile.toString())) {
                assertTrue(Files.exists(Path.of(path)), path + " exists, so the pairs above differ by existence only");
            }
            McpStreamableTestClient session = Mcp.connect();
            for (String[] c : cases) {
                List<String> details = new ArrayList<>();
                for (String path : List.of(c[0], c[1])) {
                    for (String check :
                            List.of("\"contains\":\"a\"", "\"exists\":true", "\"sha256\":\"" + "0".repeat(64) + "\"")) {
                        JsonPath r = call(session, withSteps(fileVerifier(path, check)));
                        String result = "result.structuredContent.";
                        assertEquals("refused", r.getString(result + "outcome"), r::prettify);
                        assertEquals("OUT_OF_SCOPE", r.getString(result + "refusal.code"), r::prettify);
                        assertEquals(
                                "none", r.getString(result + "verdict"), "the verifier never ran: " + r.prettify());
                        assertEquals(0, r.getInt(result + "stepsRun"));
                        String detail = r.getString(result + "refusal.detail");
                        assertTrue(detail.contains(c[2]), detail);
                        assertTrue(
                                Harness.auditActions(r.getString(result + "runId"))
                                        .isEmpty(),
                                "no action was even intended");
                        details.add(detail.replace(path, "PATH"));
                    }
                }
                assertEquals(
                        1,
                        details.stream().distinct().count(),
                        () -> "one detail for " + c[0] + " and " + c[1] + ": " + details);
                assertEquals(
                        List.of(),
                        Owner.api()
                                .get("/api/approvals")
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .getList("$"),
                        "no approval card was raised");
            }
            assertEquals("", Files.readString(note), "nothing was typed or saved");
            assertEquals(0, stub.requests().size(), "no run started, so the model was never asked");
        } finally {
            Files.deleteIfExists(dotfile);
            Files.deleteIfExists(link);
            Files.deleteIfExists(dangling);
        }
    }

    @Test
    void theEleventhVerifierOnlyRunInAMinuteIsRefusedAndAMismatchNamesNoHash() throws Exception {
        Path note = Harness.emptyFile("oracle-note.txt");
        Files.writeString(note, "the person's note");
        String actual = HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(note)));
        try (OpenAiStub stub = OpenAiStub.start();
                TestApp editor = TestApp.launch(List.of("mousepad", note.toString()))) {
            // Each run: done, the verifier's failure told once, done again.
            for (int i = 0; i < 22; i++) stub.enqueue(DONE);
            Harness.bind(stub);
            long window = Owner.awaitWindow("mousepad", note.getFileName().toString());
            Owner.mint(window, "confirm_each", List.of());
            McpStreamableTestClient session = Mcp.connect();
            String args = "{\"instruction\":\"check whether the note was saved\",\"verifier\":"
                    + fileVerifier(note.toString(), "\"sha256\":\"" + "0".repeat(64) + "\"") + "}";
            // the mismatch first (a failing check is read again for seconds); then matching reads, which end at once,
            // so that ten runs fit in the minute the limit counts on a slow machine too
            String matching = "{\"instruction\":\"check whether the note was saved\",\"verifier\":"
                    + fileVerifier(note.toString(), "\"sha256\":\"" + actual + "\"") + "}";
            for (int i = 1; i <= 10; i++) {
                JsonPath r = call(session, i == 1 ? args : matching);
                assertEquals("completed", r.getString("result.structuredContent.outcome"), r::prettify);
                assertEquals(i == 1 ? "fail" : "pass", r.getString("result.structuredContent.verdict"), r::prettify);
                assertEquals(0, r.getInt("result.structuredContent.stepsRun"), r::prettify);
                String all = r.prettify();
                if (i == 1) assertTrue(all.contains("differs from the expected sha256"), all);
                assertFalse(all.matches("(?s).*[0-9a-f]{64}.*"), "no hash anywhere in run " + i + ": " + all);
            }
            JsonPath eleventh = call(session, args);
            assertEquals("refused", eleventh.getString("result.structuredContent.outcome"), eleventh::prettify);
            assertEquals(
                    "OUT_OF_SCOPE", eleventh.getString("result.structuredContent.refusal.code"), eleventh::prettify);
            assertTrue(
                    eleventh.getString("result.structuredContent.refusal.detail")
                            .startsWith("verifier reads: 10 per minute per MCP session"),
                    eleventh::prettify);
            assertEquals("none", eleventh.getString("result.structuredContent.verdict"), "the verifier did not run");
            int turns = stub.requests().size();
            assertTrue(
                    turns >= 11 && turns <= 20,
                    "one or two turns in each of ten runs, none for the eleventh: " + turns);
            // Another session is counted on its own (the grant is bound to the first, so it gets the grant's refusal).
            JsonPath other = call(Mcp.connect(), args);
            assertFalse(
                    String.valueOf(other.getString("result.structuredContent.refusal.detail"))
                            .contains("verifier reads"),
                    other::prettify);
        }
    }

    @Test
    void aCommsWindowRefusalLeavesNoTextOfTheGrantedWindowInTheResult() throws Exception {
        String canary = "canary-" + UUID.randomUUID().toString().replace("-", "");
        String titleTag = "granted-" + UUID.randomUUID().toString().substring(0, 8);
        String a11y =
                "{\"instruction\":\"check the label\",\"verifier\":{\"kind\":\"a11y\",\"target\":{\"role\":\"label\","
                        + "\"index\":0},\"expect\":{\"text\":\"something else\"}}}";
        String title =
                "{\"instruction\":\"check the title\",\"verifier\":{\"kind\":\"window\",\"titleMatches\":\"^nothing$\"}}";
        try (OpenAiStub stub = OpenAiStub.start();
                Yad granted = Yad.launch("--title=" + titleTag, "--text=" + canary)) {
            stub.enqueue(DONE).enqueue(DONE); // the control's verifier fails: told once, done again
            Harness.bind(stub);
            long window = Owner.awaitWindow("yad", titleTag);
            Owner.mint(window, "confirm_each", List.of());
            McpStreamableTestClient session = Mcp.connect();
            JsonPath control = call(session, a11y);
            assertEquals("completed", control.getString("result.structuredContent.outcome"), control::prettify);
            assertTrue(
                    control.getString("result.structuredContent.summary")
                            .contains("text (" + canary.length() + " characters)"),
                    () -> "the control: unrefused, the verifier reads the label (and reports its length): "
                            + control.prettify());
            assertFalse(
                    control.prettify().contains(canary),
                    () -> "a verifier never quotes the label: " + control.prettify());
            try (Yad chat = Yad.launch("--class=Slack", "--title=chat", "--text=chat")) {
                Owner.awaitWindow("Slack", "chat");
                for (String args : List.of(a11y, title)) {
                    JsonPath r = call(session, args);
                    assertEquals(
                            "DENY_COMMS_VISIBLE", r.getString("result.structuredContent.refusal.code"), r::prettify);
                    assertEquals("fail", r.getString("result.structuredContent.verdict"), r::prettify);
                    String all = r.prettify();
                    assertFalse(
                            all.contains(canary) || all.contains(titleTag),
                            "no text of the window, not even its title: " + all);
                    assertTrue(
                            r.getString("result.structuredContent.summary")
                                    .contains("not run: the run was refused DENY_COMMS_VISIBLE"),
                            all);
                }
            }
        }
    }

    @Test
    void aCatastrophicTitleRegexEndsAtItsLimitAndTheServerKeepsAnswering() throws Exception {
        String longTitle = "a".repeat(20_000) + "!";
        try (OpenAiStub stub = OpenAiStub.start();
                Yad regex = Yad.launch("--title=" + longTitle, "--text=regex")) {
            stub.enqueue(DONE).enqueue(DONE); // the verifier fails: told once, done again
            Harness.bind(stub);
            long window = Owner.awaitWindow("yad", "a".repeat(50));
            Owner.mint(window, "confirm_each", List.of());
            long t0 = System.nanoTime();
            JsonPath r = call(
                    Mcp.connect(),
                    "{\"instruction\":\"check the title\",\"verifier\":{\"kind\":\"window\","
                            + "\"titleMatches\":\"(a+)+$\"}}");
            double ms = (System.nanoTime() - t0) / 1e6;
            System.out.printf(
                    "(a+)+$ against a %d-character window title: the run answered in %.0f ms%n",
                    longTitle.length(), ms);
            assertEquals("fail", r.getString("result.structuredContent.verdict"), r::prettify);
            assertTrue(
                    r.getString("result.structuredContent.summary").contains("ran past its limit of 250 ms"),
                    r::prettify);
            Owner.api().get("/api/status").then().statusCode(200);
            assertEquals(
                    "computer",
                    Mcp.request(Mcp.connect(), "tools/list", null).getString("result.tools[0].name"),
                    "the server keeps answering");
        }
    }
}

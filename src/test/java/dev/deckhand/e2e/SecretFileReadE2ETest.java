package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.home.TestTokens;
import dev.deckhand.mcp.Mcp;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The reviewer's case: on a pixels grant of an xterm running bash, with {@code send} named, the model runs a
 * command that reads Deckhand's owner token and shows it reversed in the window's title — no matcher finds
 * it there. The opening of the token's file between the input and the next read is what ends the run
 * {@code SECRET_ON_SCREEN}: the model is not asked again, the grant is revoked, and the token is replaced, so
 * the copy opens nothing. The same command reading no secret is the control.
 */
@QuarkusTest
@Tag("e2e")
class SecretFileReadE2ETest {

    private static final Path OWNER_TOKEN =
            Path.of("target/test-home/owner-token").toAbsolutePath();
    /** The owner token's file spelled as a glob: the typed-path rule judges only what a command line spells. */
    private static final String GLOB = OWNER_TOKEN.getParent().getParent() + "/test-hom?/owner-tok?n";

    /** An xterm titled deckhand-shell that takes sent keys, running {@code command}. */
    private static TestApp shell(String... command) throws Exception {
        List<String> argv = new java.util.ArrayList<>(
                List.of("xterm", "-xrm", "XTerm*allowSendEvents: true", "-T", "deckhand-shell", "-e"));
        argv.addAll(List.of(command));
        return TestApp.launch(argv);
    }

    /** Waits up to {@code seconds} for a command to write {@code file}. */
    private static void awaitWritten(Path file, int seconds) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (java.nio.file.Files.size(file) == 0 && System.nanoTime() < deadline) Thread.sleep(100);
    }

    /** A copy of an owner token that was replaced opens nothing. */
    private static void assertOpensNothing(String token) {
        io.restassured.RestAssured.given()
                .header("Authorization", "Bearer " + token)
                .get("/api/grants/active")
                .then()
                .statusCode(401);
    }

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    private record Ran(JsonPath result, int modelTurns) {}

    private static Ran run(String command) throws Exception {
        return run(command, 0);
    }

    /** Types {@code command}, Enter, then (when {@code waitMs} > 0) waits, then says done. */
    private static Ran run(String command, int waitMs) throws Exception {
        McpStreamableTestClient session = Mcp.connect();
        try (OpenAiStub stub = OpenAiStub.start()) {
            stub.enqueue("{\"action\":\"type\",\"text\":"
                    + com.fasterxml.jackson.databind.json.JsonMapper.builder()
                            .build()
                            .writeValueAsString(command) + "}");
            stub.enqueue("{\"action\":\"key\",\"keys\":\"Enter\"}");
            if (waitMs > 0) stub.enqueue("{\"action\":\"wait\",\"ms\":" + waitMs + "}");
            stub.enqueue("{\"action\":\"done\",\"summary\":\"ran\"}");
            Harness.bind(stub);
            JsonPath r = Mcp.request(
                    session,
                    "tools/call",
                    "{\"name\":\"computer\",\"arguments\":{\"instruction\":"
                            + "\"run the command and send it\",\"verifier\":{\"kind\":\"window\",\"titleMatches\":\".\"}}}");
            return new Ran(r, stub.requests().size());
        }
    }

    @Test
    void aCommandShowingTheOwnerTokenReversedEndsTheRunAndTheTokenOpensNothing() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        try (TestApp term = shell("bash", "--norc", "--noprofile", "-i")) {
            long window = Owner.awaitWindow("xterm", "deckhand-shell");

            // control: the same kind of command, reading no secret, completes
            Owner.mint(window, "autonomous", List.of("send"), Map.of("capture", "pixels", "blindInput", true));
            Thread.sleep(1000); // bash's prompt
            Ran control = run("printf '\\033]0;%s\\007' \"$(echo deckhand-control | rev)\"");
            assertEquals(
                    "completed",
                    control.result().getString("result.structuredContent.outcome"),
                    control.result().prettify());
            assertEquals(3, control.modelTurns());
            Owner.revokeActive();

            String before = TestTokens.read("owner-token");
            Owner.mint(window, "autonomous", List.of("send"), Map.of("capture", "pixels", "blindInput", true));
            Ran read = run("printf '\\033]0;%s\\007' \"$(rev < " + GLOB + ")\"");
            JsonPath r = read.result();
            assertEquals("SECRET_ON_SCREEN", r.getString("result.structuredContent.refusal.code"), r.prettify());
            assertTrue(r.getString("result.structuredContent.refusal.detail").contains("owner token"), r.prettify());
            assertEquals(2, read.modelTurns(), "the model is not asked after the command ran");
            assertFalse(
                    r.prettify().contains(new StringBuilder(before).reverse()),
                    "the reversed token is not in the result");

            String after = TestTokens.read("owner-token");
            assertNotEquals(before, after, "the owner token was replaced");
            assertOpensNothing(before);
            Owner.api().get("/api/grants/active").then().statusCode(404);
        } finally {
            Harness.putPolicy(original);
        }
    }

    /**
     * Round 5 of the review (A3): a command in a granted terminal copied the model's API key; the run ended
     * {@code SECRET_ON_SCREEN}, but the key stayed bound, and the copy left through a later grant's window title (no
     * rotation of Deckhand's can end a provider's key). Now Deckhand forgets the key on such a read: its file is gone,
     * and the page shows no key bound until the person binds a new one.
     */
    @Test
    void aCommandThatReadsTheModelKeyMakesDeckhandForgetIt() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        Path key = OWNER_TOKEN.getParent().resolve("model-api-key");
        try (TestApp term = shell("bash", "--norc", "--noprofile", "-i")) {
            long window = Owner.awaitWindow("xterm", "deckhand-shell");
            Owner.mint(window, "autonomous", List.of("send"), Map.of("capture", "pixels", "blindInput", true));
            Thread.sleep(1000); // bash's prompt
            Path copy = java.nio.file.Files.createTempFile("deckhand-key", ".txt");
            Ran read = run("rev < " + OWNER_TOKEN.getParent().getParent() + "/test-hom?/m?del-a?i-k?y > " + copy);
            JsonPath r = read.result();
            assertEquals("SECRET_ON_SCREEN", r.getString("result.structuredContent.refusal.code"), r.prettify());
            assertTrue(r.getString("result.structuredContent.refusal.detail").contains("model API key"), r.prettify());
            assertFalse(java.nio.file.Files.exists(key), "the model API key is forgotten");
            Owner.api().get("/api/model").then().statusCode(200).body("apiKeySet", org.hamcrest.Matchers.is(false));
        } finally {
            Harness.putPolicy(original);
        }
    }

    /**
     * Round 9 of the review (P4): a command in a granted terminal copied the audit seal key; the run ended
     * {@code SECRET_ON_SCREEN}, but the key stayed, so the copy could seal a rewritten log. Now the key is replaced for
     * every record after the read: the key file holds a second epoch whose key is not the copy's.
     */
    @Test
    void aCommandThatReadsTheSealKeyReplacesItForLaterRecords() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        Path key = OWNER_TOKEN.getParent().resolve("audit-seal.key");
        try (TestApp term = shell("bash", "--norc", "--noprofile", "-i")) {
            long window = Owner.awaitWindow("xterm", "deckhand-shell");
            Owner.mint(window, "autonomous", List.of("send"), Map.of("capture", "pixels", "blindInput", true));
            Thread.sleep(1000); // bash's prompt
            List<String> before = java.nio.file.Files.readAllLines(key);
            Path copy = java.nio.file.Files.createTempFile("deckhand-seal", ".txt");
            Ran read = run("rev < " + OWNER_TOKEN.getParent().getParent() + "/test-hom?/audit-seal.k?y > " + copy);
            JsonPath r = read.result();
            // the run's own watch ends it SECRET_ON_SCREEN, or the response to the read (which replaces the key
            // first, then revokes the grant) ends it GRANT_REVOKED: whichever is first
            String code = r.getString("result.structuredContent.refusal.code");
            assertTrue(Set.of("SECRET_ON_SCREEN", "GRANT_REVOKED").contains(code), r.prettify());
            if (code.equals("SECRET_ON_SCREEN")) {
                assertTrue(
                        r.getString("result.structuredContent.refusal.detail").contains("audit seal key"),
                        r.prettify());
            }
            List<String> after = java.nio.file.Files.readAllLines(key);
            assertEquals(before.size() + 1, after.size(), "a new epoch: " + after.size() + " lines");
            assertEquals(before, after.subList(0, before.size()), "the earlier epochs' keys stay");
            String copied = new StringBuilder(
                            java.nio.file.Files.readString(copy).strip())
                    .reverse()
                    .toString();
            assertFalse(copied.contains(after.get(after.size() - 1).split(" ")[1]), "the new key is not the copy's");
        } finally {
            Harness.putPolicy(original);
        }
    }

    /**
     * Round 2 of the review: the person printed a sign-in link in their xterm ({@code deckhand signin}) and granted
     * it on pixels; the code went to the model in a capture and came back reversed in the summary, where no matcher
     * finds it. Every capture of a granted app that runs commands now ends the codes not yet used first: the link
     * printed before the run opens nothing after it; a link asked for after the run still works.
     */
    @Test
    void aSignInCodeInAGrantedTerminalsPixelsEndsBeforeTheModelSeesIt() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        String link = Owner.api()
                .post("/api/session/link")
                .then()
                .statusCode(200)
                .extract()
                .path("link");
        String code = link.substring(link.indexOf("code=") + 5);
        try (TestApp term = shell("bash", "-c", "echo " + link + "; exec bash --norc --noprofile -i")) {
            long window = Owner.awaitWindow("xterm", "deckhand-shell");
            Owner.mint(window, "autonomous", List.of("send"), Map.of("capture", "pixels", "blindInput", true));
            Thread.sleep(1000); // the link and bash's prompt
            Ran ran = run("true");
            assertEquals(
                    "completed",
                    ran.result().getString("result.structuredContent.outcome"),
                    ran.result().prettify());
            io.restassured.RestAssured.given()
                    .redirects()
                    .follow(false)
                    .get("/signin?code=" + code)
                    .then()
                    .statusCode(401);
            String fresh = Owner.api()
                    .post("/api/session/link")
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("link");
            io.restassured.RestAssured.given()
                    .redirects()
                    .follow(false)
                    .get("/signin?code=" + fresh.substring(fresh.indexOf("code=") + 5))
                    .then()
                    .statusCode(303);
        } finally {
            Harness.putPolicy(original);
        }
    }

    /**
     * The reviewer's second case: a command that waits before it reads ({@code (sleep 2; rev < token > f) &}) opens
     * the file after the read that follows its Enter. The run's reads keep watching from its first input on, so the
     * read after the model's wait ends the run; and a command whose read comes after the run still finds the grant
     * watched: the grant is revoked and the owner token replaced before the copy can open anything.
     */
    @Test
    void aCommandThatWaitsBeforeItReadsIsSeenInTheRunAndAfterIt() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        try (TestApp term = shell("bash", "--norc", "--noprofile", "-i")) {
            long window = Owner.awaitWindow("xterm", "deckhand-shell");
            Path copy = java.nio.file.Files.createTempFile("deckhand-copy", ".txt");

            // in the run: the read comes while the model waits
            String before = TestTokens.read("owner-token");
            Owner.mint(window, "autonomous", List.of("send"), Map.of("capture", "pixels", "blindInput", true));
            Thread.sleep(1000); // bash's prompt
            Ran during = run("(sleep 2; rev < " + GLOB + " > " + copy + ") &", 4000);
            JsonPath r = during.result();
            assertEquals("SECRET_ON_SCREEN", r.getString("result.structuredContent.refusal.code"), r.prettify());
            assertEquals(3, during.modelTurns(), "type, Enter, wait: the model is not asked after the wait");
            assertNotEquals(before, TestTokens.read("owner-token"), "the owner token was replaced");
            assertOpensNothing(before);
            Owner.api().get("/api/grants/active").then().statusCode(404);

            // after the run: the run completes, the read comes later, while the grant is still active
            String second = TestTokens.read("owner-token");
            Owner.mint(window, "autonomous", List.of("send"), Map.of("capture", "pixels", "blindInput", true));
            Path later = java.nio.file.Files.createTempFile("deckhand-copy", ".txt");
            Ran quick = run("(sleep 3; rev < " + GLOB + " > " + later + ") &");
            assertEquals(
                    "completed",
                    quick.result().getString("result.structuredContent.outcome"),
                    quick.result().prettify());
            awaitWritten(later, 20);
            assertTrue(java.nio.file.Files.size(later) > 0, "the delayed command read the token");
            // the person's next request drains the watch first: the copy, and the token read before it, open nothing
            assertOpensNothing(second);
            assertNotEquals(second, TestTokens.read("owner-token"), "the owner token was replaced");
            Owner.api().get("/api/grants/active").then().statusCode(404);
        } finally {
            Harness.putPolicy(original);
        }
    }

    /**
     * Round 2 of the review (A6): a command planted under the grant reads the token after the grant has ended
     * ({@code nohup sh -c "sleep 25; rev owner-token > f" &}, then the person revoked and granted something else;
     * bash here, as dash expands no glob in a redirection).
     * Every process started since the grant's first input that still runs when it ends keeps the watch on: the read
     * replaces the owner token, so the copy opens nothing; once those processes have ended the watch is off.
     */
    @Test
    void aCommandThatOutlivesTheGrantFindsTheTokenReplaced() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        try (TestApp term = shell("bash", "--norc", "--noprofile", "-i")) {
            long window = Owner.awaitWindow("xterm", "deckhand-shell");
            Path later = java.nio.file.Files.createTempFile("deckhand-copy", ".txt");
            Owner.mint(window, "autonomous", List.of("send"), Map.of("capture", "pixels", "blindInput", true));
            Thread.sleep(1000); // bash's prompt
            Ran planted = run(
                    "nohup setsid bash -c 'sleep 6; rev < " + GLOB + " > " + later + "' > " + later + ".log 2>&1 &");
            assertEquals(
                    "completed",
                    planted.result().getString("result.structuredContent.outcome"),
                    planted.result().prettify());
            Owner.revokeActive(); // the grant ends before the read
            String before = TestTokens.read("owner-token");
            awaitWritten(later, 30);
            assertTrue(java.nio.file.Files.size(later) > 0, "the planted command read the token after the grant");
            assertOpensNothing(before);
            assertNotEquals(before, TestTokens.read("owner-token"), "the owner token was replaced");
        } finally {
            Harness.putPolicy(original);
        }
    }
}

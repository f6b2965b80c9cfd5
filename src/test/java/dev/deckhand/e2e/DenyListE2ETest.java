package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The deny lists (docs/design.md#deny-lists) against real windows: a credential-class window (WM_CLASS KeePassXC) on screen refuses a
 * run before anything is typed, and cannot itself be granted; a communications window (WM_CLASS
 * Slack) that appears while a model-driven run is in flight aborts it within about one poll interval.
 */
@QuarkusTest
@Tag("e2e")
class DenyListE2ETest {

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    @Test
    void aCredentialWindowOnScreenRefusesTheRunAndCannotBeGranted() throws Exception {
        assertTrue(dev.deckhand.grant.PolicyConfig.BUILTIN_CREDENTIAL_APPS.contains("keepassxc"));
        Path file = Harness.emptyFile("vault-note.txt");
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            long mousepad = Owner.awaitWindow("mousepad", file.getFileName().toString());
            Owner.mint(mousepad, "confirm_each", List.of());
            try (Yad vault = Yad.launch("--class=KeePassXC", "--title=vault", "--text=vault")) {
                long credential = Owner.awaitWindow("KeePassXC", "vault");

                Map<String, Object> listed = Harness.window(credential);
                assertEquals("KeePassXC", listed.get("app"), "X reports the WM_CLASS class as given: " + listed);
                @SuppressWarnings("unchecked")
                Map<String, Object> refusal = (Map<String, Object>) listed.get("refusal");
                assertNotNull(refusal, "the picker shows the credential window as refused: " + listed);
                assertEquals("DENY_CREDENTIAL_APP", refusal.get("code"), listed::toString);
                assertTrue(String.valueOf(refusal.get("detail")).contains("keepassxc"), listed::toString);
                @SuppressWarnings("unchecked")
                Map<String, Object> editorRefusal =
                        (Map<String, Object>) Harness.window(mousepad).get("refusal");
                assertNotNull(editorRefusal, "while it runs, no other window is grantable either");
                assertEquals("DENY_CREDENTIAL_APP", editorRefusal.get("code"));

                JsonPath refused = Harness.mintRefused(credential);
                assertEquals("DENY_CREDENTIAL_APP", refused.getString("error"), refused.prettify());
                assertTrue(refused.getString("detail").contains("keepassxc"), refused.prettify());

                String args = "{\"instruction\":\"write a note and save it\",\"steps\":["
                        + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\"},\"text\":\"leaked\"},"
                        + "{\"action\":\"key\",\"keys\":\"ctrl+s\"}],"
                        + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + file + "\",\"contains\":\"leaked\"}}";
                JsonPath call;
                try (Owner.Approver approver = new Owner.Approver("approve")) {
                    call = CalculatorStepsE2ETest.callWhenAccessible(args);
                }
                assertEquals("refused", call.getString("result.structuredContent.outcome"), call.prettify());
                assertEquals(
                        "DENY_CREDENTIAL_APP",
                        call.getString("result.structuredContent.refusal.code"),
                        call.prettify());
                assertTrue(
                        call.getString("result.structuredContent.refusal.detail")
                                .contains("keepassxc"),
                        call.prettify());
                assertEquals(0, call.getInt("result.structuredContent.stepsRun"), call.prettify());
                assertTrue(call.getBoolean("result.isError"));
                assertEquals("fail", call.getString("result.structuredContent.verdict"), call.prettify());
                assertTrue(vault.alive());
            }
            assertEquals("", Files.readString(file), "nothing was typed or saved");
        }
    }

    /**
     * Issue 28: a page opened from a file ({@code file://}) is a local document, not an unknown host: it is granted and
     * driven while the policy's {@code allowLocalFiles} holds (the default), refused {@code DENY_HOST} at the picker,
     * at mint and at the run's first check when the person turns it off; a browser's own page ({@code chrome:}) never.
     */
    @Test
    void aLocalPageIsGrantedAndDrivenUnlessThePolicySaysNoAndABrowsersOwnPageNever() throws Exception {
        Path page = Files.createTempDirectory("deckhand-local-page").resolve("form.html");
        Files.writeString(
                page,
                "<!doctype html><html><head><title>Local Page</title></head><body>"
                        + "<button onclick=\"document.title='Shown Page'\">Show</button></body></html>");
        try (TestApp chromium = TestApp.chromium(page.toUri().toString())) {
            long window = Owner.awaitWindow("chromium", "Local Page");
            assertNull(Harness.window(window).get("refusal"), () -> "grantable: " + Harness.window(window));
            Owner.mint(window, "confirm_each", List.of());
            String args = "{\"instruction\":\"show it\",\"steps\":["
                    + "{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Show\"}}],"
                    + "\"verifier\":{\"kind\":\"window\",\"titleMatches\":\"Shown Page\"}}";
            // the grant is bound to the MCP session that uses it first: every call of this test is in that one
            McpStreamableTestClient session = Mcp.connect();
            JsonPath call;
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                call = clickWhenShown(session, args);
            }
            assertEquals("completed", call.getString("result.structuredContent.outcome"), call.prettify());
            assertEquals("pass", call.getString("result.structuredContent.verdict"), call.prettify());

            Map<String, Object> original = Harness.changePolicy("allowLocalFiles", false);
            try {
                JsonPath refused = Mcp.call(session, args);
                assertEquals("DENY_HOST", call(refused, "refusal.code"), refused.prettify());
                assertTrue(call(refused, "refusal.detail").contains("allowLocalFiles"), refused.prettify());
                Owner.revokeActive();
                assertEquals("DENY_HOST", refusalCode(window));
                JsonPath mint = Harness.mintRefused(window);
                assertEquals("DENY_HOST", mint.getString("error"), mint.prettify());
            } finally {
                Harness.putPolicy(original);
            }
        }
        // round 13's L1: a local page that frames a file in a denied place (a hidden file here) is refused before its
        // tree reaches anyone, as its frame's address is not read
        Path hidden = Files.createTempDirectory("deckhand-frame").resolve(".hidden-note.txt");
        Files.writeString(hidden, "HIDDEN-CANARY-4711");
        Path framing = page.resolveSibling("framing.html");
        Files.writeString(
                framing,
                "<!doctype html><html><head><title>Framing Page</title></head><body>"
                        + "<button onclick=\"document.title='Shown Page'\">Show</button><iframe src=\""
                        + hidden.toUri() + "\"></iframe></body></html>");
        try (TestApp chromium = TestApp.chromium(framing.toUri().toString())) {
            long window = Owner.awaitWindow("chromium", "Framing Page");
            Owner.mint(window, "confirm_each", List.of());
            McpStreamableTestClient session = Mcp.connect();
            String args = "{\"instruction\":\"show it\",\"steps\":["
                    + "{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Show\"}}],"
                    + "\"verifier\":{\"kind\":\"window\",\"titleMatches\":\"Shown Page\"}}";
            JsonPath refused = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // until the frame's document is on the bus the page reads as one without frames
            do {
                try (Owner.Approver approver = new Owner.Approver("deny")) {
                    refused = Mcp.call(session, args);
                }
            } while (!"DENY_HOST".equals(call(refused, "refusal.code")) && System.nanoTime() < deadline);
            assertEquals("DENY_HOST", call(refused, "refusal.code"), refused.prettify());
            assertTrue(call(refused, "refusal.detail").contains("frames another document"), refused.prettify());
            assertFalse(refused.prettify().contains("HIDDEN-CANARY"), refused.prettify());
            assertEquals(0, refused.getInt("result.structuredContent.stepsRun"), refused.prettify());
        } finally {
            Owner.revokeActive();
        }
        try (TestApp chromium = TestApp.chromium("chrome://version")) {
            long window = Owner.awaitWindow("chromium", "");
            // until the page is read its host is unknown, which is refused too: wait for the page's own reason
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            Map<String, Object> listed = Harness.window(window);
            while (!String.valueOf(listed.get("refusal")).contains("chrome:") && System.nanoTime() < deadline) {
                Thread.sleep(200);
                listed = Harness.window(window);
            }
            assertEquals("DENY_HOST", refusalCode(window), listed::toString);
            assertTrue(String.valueOf(listed.get("refusal")).contains("never in scope"), listed::toString);
        }
    }

    /** A run of explicit steps on a page just loaded, sent again while its button has not reached the bus yet. */
    private static JsonPath clickWhenShown(McpStreamableTestClient session, String args) throws InterruptedException {
        JsonPath call = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            call = Mcp.call(session, args);
            boolean notYet = "failed".equals(call(call, "outcome"))
                    || "A11Y_UNAVAILABLE".equals(call(call, "refusal.code"))
                            && call.getInt("result.structuredContent.stepsRun") == 0;
            if (!notYet) return call;
            Thread.sleep(500);
        }
        return call;
    }

    private static String call(JsonPath call, String field) {
        return call.getString("result.structuredContent." + field);
    }

    private static String refusalCode(long window) {
        return Harness.window(window).get("refusal") instanceof Map<?, ?> r ? String.valueOf(r.get("code")) : null;
    }

    @Test
    void aCommunicationsWindowAppearingMidRunAbortsIt() throws Exception {
        assertTrue(dev.deckhand.grant.PolicyConfig.DEFAULT_COMMS_APPS.contains("slack"));
        long pollMs = 200;
        Map<String, Object> original = Harness.changePolicy("pollIntervalMs", pollMs);
        Path file = Harness.emptyFile("chat-note.txt");
        try (OpenAiStub stub = OpenAiStub.start();
                TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            for (int i = 0; i < 50; i++) stub.enqueue("{\"action\":\"wait\",\"ms\":200}");
            Harness.bind(stub);
            long mousepad = Owner.awaitWindow("mousepad", file.getFileName().toString());
            Owner.mint(mousepad, "confirm_each", List.of());
            String args = "{\"instruction\":\"write 'chat' in the editor and save the file\","
                    + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + file + "\",\"contains\":\"chat\"}}";
            AtomicLong ended = new AtomicLong();
            CompletableFuture<JsonPath> run = CompletableFuture.supplyAsync(() -> {
                try {
                    return CalculatorStepsE2ETest.callWhenAccessible(args);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                } finally {
                    ended.set(System.nanoTime());
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (stub.requests().size() < 3) {
                if (run.isDone())
                    throw new AssertionError("the run ended before the window appeared: "
                            + run.get().prettify());
                if (System.nanoTime() > deadline) throw new AssertionError("the run did not get going within 60 s");
                Thread.sleep(50);
            }
            long launched;
            long seen = 0;
            try (Yad chat = Yad.launch("--class=Slack", "--title=chat", "--text=chat")) {
                launched = System.nanoTime();
                try {
                    Owner.awaitWindow("Slack", "chat");
                    seen = System.nanoTime();
                } catch (AssertionError notListed) {
                    // the run may have ended and the window be listed late on a loaded machine; judged below
                }
                JsonPath call = run.get(60, TimeUnit.SECONDS);
                double afterSeenMs = seen == 0 ? Double.NaN : (ended.get() - seen) / 1e6;
                double afterLaunchMs = (ended.get() - launched) / 1e6;
                int waitsServed = stub.requests().size();
                System.out.printf(
                        "comms abort: poll interval %d ms; run ended %.0f ms after yad was launched, %.0f ms after "
                                + "the owner API first listed the Slack window; %d model turns served%n",
                        pollMs, afterLaunchMs, afterSeenMs, waitsServed);
                assertEquals("refused", call.getString("result.structuredContent.outcome"), call.prettify());
                assertEquals(
                        "DENY_COMMS_VISIBLE", call.getString("result.structuredContent.refusal.code"), call.prettify());
                assertTrue(
                        call.getString("result.structuredContent.refusal.detail")
                                .contains("slack"),
                        call.prettify());
                assertTrue(stub.pendingReplies() > 0, "the run was aborted, not finished by running out of waits");
                assertTrue(seen != 0, "the Slack window was listed");
                assertTrue(
                        afterSeenMs < pollMs + 3000,
                        "ended within one poll interval plus a generous margin: " + afterSeenMs);
            }
            assertEquals("", Files.readString(file));
        } finally {
            Harness.putPolicy(original);
        }
    }
}

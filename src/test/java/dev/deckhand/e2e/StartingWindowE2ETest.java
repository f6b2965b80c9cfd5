package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.mcp.Mcp;
import dev.deckhand.platform.atspi.TestApp;
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
 * A run started right after the granted window maps — before its app has registered on the
 * accessibility bus — waits for the app (its process loads an accessibility bridge) and succeeds, on GTK 4
 * (gnome-calculator) and Qt (FeatherPad); {@code GET /api/windows} marks such a window {@code starting}. An
 * app that loads the bridge but never registers (GTK 3 started with {@code NO_AT_BRIDGE=1}) is still
 * refused {@code A11Y_UNAVAILABLE}, once the 5 s bound has passed. Each run is one call, never retried.
 */
@QuarkusTest
@Tag("e2e")
class StartingWindowE2ETest {

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    /** The first listing of a window of {@code app} with {@code titlePart} (whatever its state), polled every 10 ms. */
    private static Map<String, Object> firstListing(String app, String titlePart) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            List<Map<String, Object>> windows = Owner.api()
                    .get("/api/windows")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("$");
            for (Map<String, Object> w : windows) {
                if (String.valueOf(w.get("app")).equalsIgnoreCase(app)
                        && String.valueOf(w.get("title")).contains(titlePart)
                        && Boolean.TRUE.equals(w.get("visible"))) {
                    return w;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no visible window of " + app + " within 30 s");
    }

    private static long id(Map<String, Object> window) {
        return ((Number) window.get("windowId")).longValue();
    }

    private static JsonPath call(String args) {
        return Mcp.request(Mcp.connect(), "tools/call", "{\"name\":\"computer\",\"arguments\":" + args + "}");
    }

    @Test
    void aGtk4CalculatorGrantedAndRunTheMomentItsWindowMapsIsWaitedFor() throws Exception {
        TestApp.requireDesktop();
        try (TestApp calculator = TestApp.launch(List.of("gnome-calculator"));
                Owner.Approver approver = new Owner.Approver("approve")) {
            Map<String, Object> listed = firstListing("gnome-calculator", "Calculator");
            long t0 = System.nanoTime();
            Owner.mint(id(listed), "confirm_each", List.of());
            String args =
                    "{\"instruction\":\"press 7\",\"steps\":[{\"action\":\"click\",\"target\":{\"role\":\"push button\","
                            + "\"name\":\"7 7\"}},{\"action\":\"wait\",\"ms\":500}],\"verifier\":{\"kind\":\"a11y\",\"target\":"
                            + "{\"role\":\"text\",\"name\":\"GtkSourceView\"},\"expect\":{\"textContains\":\"7\"}}}";
            JsonPath r = call(args);
            System.out.printf(
                    "gnome-calculator: listed with starting=%s; the call ended %d ms after the first listing%n",
                    listed.get("starting"), (System.nanoTime() - t0) / 1_000_000);
            assertFalse(r.getBoolean("result.isError"), () -> r.prettify());
            assertEquals("completed", r.getString("result.structuredContent.outcome"), () -> r.prettify());
            assertEquals("pass", r.getString("result.structuredContent.verdict"), () -> r.prettify());
        }
    }

    @Test
    void aQtEditorGrantedAndRunTheMomentItsWindowMapsIsWaitedFor() throws Exception {
        TestApp.requireDesktop();
        Path file = Files.createTempDirectory("deckhand-starting").resolve("starting-note.txt");
        Files.writeString(file, "");
        try (TestApp featherpad = TestApp.launch(List.of("featherpad", file.toString()));
                Owner.Approver approver = new Owner.Approver("approve")) {
            Map<String, Object> listed = firstListing("featherpad", "starting-note");
            Owner.mint(id(listed), "confirm_each", List.of());
            String args =
                    "{\"instruction\":\"write\",\"steps\":[{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"index\":0},"
                            + "\"text\":\"written while starting\"}],\"verifier\":{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"index\":0},"
                            + "\"expect\":{\"text\":\"written while starting\"}}}";
            JsonPath r = call(args);
            System.out.printf("featherpad: listed with starting=%s%n", listed.get("starting"));
            assertFalse(r.getBoolean("result.isError"), () -> r.prettify());
            assertEquals("completed", r.getString("result.structuredContent.outcome"), () -> r.prettify());
            assertEquals("pass", r.getString("result.structuredContent.verdict"), () -> r.prettify());
        }
    }

    @Test
    void anAppThatLoadsTheBridgeButNeverRegistersIsListedStartingAndRefusedAfterItsBound() throws Exception {
        TestApp.requireDesktop();
        try (TestApp silent = TestApp.launch(List.of("galculator"), Map.of("NO_AT_BRIDGE", "1"))) {
            Map<String, Object> listed = firstListing("galculator", "galculator");
            // give it well past the bound: it is still starting, and never will register
            Thread.sleep(1000);
            Map<String, Object> again = Harness.window(id(listed));
            assertEquals(true, again.get("starting"), "listed as starting: " + again);
            assertEquals(null, again.get("refusal"), "and it can be granted: " + again);
            Owner.mint(id(listed), "confirm_each", List.of());
            long t0 = System.nanoTime();
            JsonPath r;
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                r = call(
                        "{\"instruction\":\"press 5\",\"steps\":[{\"action\":\"click\",\"target\":{\"role\":\"toggle button\","
                                + "\"name\":\"5\"}}],\"verifier\":{\"kind\":\"window\",\"titleMatches\":\"galculator\"}}");
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(r.getBoolean("result.isError"), () -> r.prettify());
            assertEquals("A11Y_UNAVAILABLE", r.getString("result.structuredContent.refusal.code"), () -> r.prettify());
            assertTrue(
                    r.getString("result.structuredContent.refusal.detail").contains("did not register"),
                    () -> r.prettify());
            assertEquals(0, r.getInt("result.structuredContent.stepsRun"));
            // refused once the 5 s wait is over, not at once and not after a much longer wait (slack for a loaded
            // machine)
            assertTrue(ms >= 5000 && ms < 20_000, "refused after " + ms + " ms");
        }
    }
}

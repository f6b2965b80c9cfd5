package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.platform.atspi.TestApp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Deckhand's own page open in a real Chromium window is never grantable (OWN_WINDOW). */
@QuarkusTest
@Tag("e2e")
class OwnPageE2ETest {

    @Test
    void deckhandsOwnPageInChromiumCannotBeGranted() throws Exception {
        TestApp.requireDesktop();
        String profile = Files.createTempDirectory("deckhand-chromium").toString();
        try (TestApp browser = TestApp.launch(List.of(
                "chromium",
                "--no-sandbox",
                "--no-first-run",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "http://127.0.0.1:" + RestAssured.port + "/"))) {
            long window = Owner.awaitWindow("chromium", "[Deckhand]");
            Map<String, Object> listed = Harness.window(window);
            assertEquals(true, listed.get("own"), () -> "the page's window is Deckhand's own: " + listed);
            @SuppressWarnings("unchecked")
            Map<String, Object> refusal = (Map<String, Object>) listed.get("refusal");
            assertEquals("OWN_WINDOW", refusal.get("code"), listed::toString);
            JsonPath refused = Harness.mintRefused(window);
            assertEquals("OWN_WINDOW", refused.getString("error"), refused::prettify);
            assertTrue(Owner.api().get("/api/grants/active").statusCode() == 404, "no grant became active");
        }
    }
}

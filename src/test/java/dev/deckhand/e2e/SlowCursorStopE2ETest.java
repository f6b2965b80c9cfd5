package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The last Stop, grant and facts check runs after the drawn cursor's travel. With the cursor
 * slowed to a 5-second travel, Stop pressed in the web page while it travels to Send: the click is not
 * delivered (yad still runs), the run ends {@code STOPPED}.
 */
@QuarkusTest
@TestProfile(SlowCursorStopE2ETest.SlowCursor.class)
@Tag("e2e")
class SlowCursorStopE2ETest {

    /** The drawn cursor takes five seconds to reach an element. */
    public static class SlowCursor implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "deckhand.presence.cursor.travel-millis",
                    "5000",
                    "deckhand.presence.cursor.pacing",
                    "on",
                    "deckhand.presence.focus.gnome.enabled",
                    "false");
        }
    }

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    @Test
    void stopDuringAFiveSecondCursorTravelStopsTheClick() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        try (Yad compose = Yad.launch("--title=slow-send", "--text=msg", "--button=Send:0", "--button=Cancel:1")) {
            long window = Owner.awaitWindow("yad", "slow-send");
            Owner.mint(window, "autonomous", List.of("send"));
            Path untouched = Harness.emptyFile("untouched.txt");
            Thread person = new Thread(() -> {
                try {
                    Thread.sleep(2000); // the cursor is on its way to Send
                    Owner.api().post("/api/stop").then().statusCode(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            long t0 = System.nanoTime();
            person.start();
            JsonPath call = CalculatorStepsE2ETest.callWhenAccessible("{\"instruction\":\"press Send\",\"steps\":["
                    + "{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Send\"}}],"
                    + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + untouched + "\",\"contains\":\"never\"}}");
            person.join();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("STOPPED", call.getString("result.structuredContent.refusal.code"), call.prettify());
            assertEquals(0, call.getInt("result.structuredContent.stepsRun"), call.prettify());
            assertNull(compose.exitCode(2), "Send was not pressed: yad still runs");
            assertTrue(ms >= 2000, "the run lasted until Stop (" + ms + " ms)");
            System.out.println("slow cursor: Stop after 2 s of a 5 s travel ended the run after " + ms + " ms");
        } finally {
            Harness.putPolicy(original);
        }
    }
}

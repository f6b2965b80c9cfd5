package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.platform.atspi.TestApp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A real run types 100 distinct canary strings into mousepad (through MCP, the loop, the
 * driver and the audit trail); none appears in the audit database, its WAL or shared-memory file, or
 * any log record the application wrote during the run. The saved file is the positive control.
 */
@QuarkusTest
@Tag("e2e")
class CanaryE2ETest {

    @Test
    void typedTextNeverReachesTheAuditLogOrTheLogs() throws Exception {
        TestApp.requireDesktop();
        List<String> canaries = new ArrayList<>();
        for (int i = 0; i < 100; i++)
            canaries.add("canary-" + UUID.randomUUID().toString().replace("-", ""));
        Path file = Harness.emptyFile("canary.txt");
        ConcurrentLinkedQueue<String> logged = new ConcurrentLinkedQueue<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                logged.add(String.valueOf(r.getMessage()) + " " + java.util.Arrays.toString(r.getParameters())
                        + (r.getThrown() == null ? "" : " " + r.getThrown()));
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        Map<String, Object> before = Harness.policy();
        Map<String, Object> changed = new java.util.HashMap<>(before);
        changed.put("permissionMode", "accept-edits");
        @SuppressWarnings("unchecked")
        Map<String, Object> caps = new java.util.HashMap<>((Map<String, Object>) before.get("caps"));
        caps.put("maxSteps", 200);
        changed.put("caps", caps);
        Harness.putPolicy(changed);
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            long window = Owner.awaitWindow("mousepad", "canary.txt");
            Owner.api()
                    .body(Map.of(
                            "windowId", window, "budget", 200, "inputPolicy", "autonomous", "capture", "a11y_only"))
                    .post("/api/grants")
                    .then()
                    .statusCode(201);
            StringBuilder steps = new StringBuilder();
            for (String c : canaries) {
                if (steps.length() > 0) steps.append(',');
                steps.append("{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"index\":0},\"text\":\"")
                        .append(c)
                        .append("\"}");
            }
            steps.append(",{\"action\":\"key\",\"keys\":\"ctrl+s\"}");
            String last = canaries.get(canaries.size() - 1);
            String args = "{\"instruction\":\"type the canaries\",\"maxSteps\":101,\"steps\":[" + steps + "],"
                    + "\"verifier\":{\"kind\":\"file\",\"path\":\"" + file + "\",\"exists\":true}}";
            JsonPath call = CalculatorStepsE2ETest.callWhenAccessible(args);
            assertEquals("completed", call.getString("result.structuredContent.outcome"), call::prettify);
            assertEquals(101, call.getInt("result.structuredContent.stepsRun"), call::prettify);
            assertEquals(last, Files.readString(file).strip(), "positive control: the text did reach the editor");
        } finally {
            root.removeHandler(capture);
            Harness.putPolicy(before);
            Owner.revokeActive();
        }
        List<Path> audit = new ArrayList<>();
        try (var files = Files.list(Path.of("target/test-home"))) {
            files.filter(p -> p.getFileName().toString().startsWith("audit.db")).forEach(audit::add);
        }
        assertTrue(audit.stream().anyMatch(p -> p.getFileName().toString().equals("audit.db")), "scanned " + audit);
        assertTrue(!logged.isEmpty(), "the log capture saw the run's records");
        for (Path p : audit) {
            String bytes = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
            for (String c : canaries) assertTrue(!bytes.contains(c), c + " found in " + p);
        }
        for (String line : logged) {
            for (String c : canaries) assertTrue(!line.contains(c), c + " found in a log record: " + line);
        }
        assertTrue(Files.readString(Path.of("target/test-home/policy.json")).length() > 0);
    }
}

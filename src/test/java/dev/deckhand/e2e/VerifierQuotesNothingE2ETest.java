package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.mcp.Mcp;
import dev.deckhand.model.stub.OpenAiStub;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Verifiers report, they do not quote (docs/security.md): a real window shows a marker in its label and its
 * title, a file holds another; {@code a11y}, {@code window} and {@code file} verifiers that fail and that pass
 * through the MCP tool leave none of them in the MCP result, in the run's audit rows or in the server's log —
 * only the check, the caller's selector and lengths.
 */
@QuarkusTest
@Tag("e2e")
class VerifierQuotesNothingE2ETest {

    private static final String DONE = "{\"action\":\"done\",\"summary\":\"checked\"}";

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    /** Every log record the server writes while the test runs (the root logger's handlers see them all). */
    static final class Captured extends Handler implements AutoCloseable {
        final List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());

        Captured() {
            Logger.getLogger("").addHandler(this);
        }

        @Override
        public void publish(LogRecord r) {
            String msg = r.getMessage();
            if (r.getParameters() != null) {
                for (Object p : r.getParameters()) msg += " " + p;
            }
            lines.add(msg + (r.getThrown() == null ? "" : " " + r.getThrown()));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            Logger.getLogger("").removeHandler(this);
        }
    }

    @Test
    void failingAndPassingVerifiersLeaveNoMarkerInTheResultTheAuditOrTheLog() throws Exception {
        String marker = "marker" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        String titleTag =
                "title" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String fileMarker =
                "secret" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        Path file = Harness.emptyFile("quotes-nothing.txt");
        Files.writeString(file, "the person's note: " + fileMarker + "\n");
        String path = file.toString();
        // {verifier, the verdict it must reach}
        String[][] cases = {
            {
                "{\"kind\":\"a11y\",\"target\":{\"role\":\"label\",\"index\":0},\"expect\":{\"text\":\"something else\"}}",
                "fail"
            },
            {
                "{\"kind\":\"a11y\",\"target\":{\"role\":\"label\",\"index\":0},\"expect\":{\"textContains\":\""
                        + marker.substring(0, 10) + "\"}}",
                "pass"
            },
            {"{\"kind\":\"window\",\"titleMatches\":\"^nothing$\"}", "fail"},
            {"{\"kind\":\"window\",\"titleMatches\":\"^" + titleTag.substring(0, 8) + "\"}", "pass"},
            {"{\"kind\":\"file\",\"path\":\"" + path + "\",\"contains\":\"something else\"}", "fail"},
            {
                "{\"kind\":\"file\",\"path\":\"" + path + "\",\"contains\":\"" + fileMarker.substring(0, 10) + "\"}",
                "pass"
            },
        };
        try (OpenAiStub stub = OpenAiStub.start();
                Yad window = Yad.launch("--title=" + titleTag, "--text=" + marker);
                Captured log = new Captured()) {
            for (int i = 0; i < 2 * cases.length; i++)
                stub.enqueue(DONE); // a failing verifier is told once: done again
            Harness.bind(stub);
            long id = Owner.awaitWindow("yad", titleTag);
            Owner.mint(id, "confirm_each", List.of());
            McpStreamableTestClient session = Mcp.connect();
            for (String[] c : cases) {
                JsonPath r = Mcp.request(
                        session,
                        "tools/call",
                        "{\"name\":\"computer\",\"arguments\":{\"instruction\":" + "\"check the dialog\",\"verifier\":"
                                + c[0] + "}}");
                String result = r.prettify();
                assertEquals("completed", r.getString("result.structuredContent.outcome"), result);
                assertEquals(c[1], r.getString("result.structuredContent.verdict"), c[0] + " → " + result);
                String runId = r.getString("result.structuredContent.runId");
                String audit = Owner.api()
                                .queryParam("runId", runId)
                                .get("/api/audit/runs")
                                .then()
                                .statusCode(200)
                                .extract()
                                .asString()
                        + Owner.api()
                                .queryParam("runId", runId)
                                .queryParam("limit", 200)
                                .get("/api/audit/actions")
                                .then()
                                .statusCode(200)
                                .extract()
                                .asString();
                assertTrue(audit.contains(runId), "the run is in the audit log: " + audit);
                for (String secret :
                        List.of(marker, titleTag, fileMarker, marker.substring(6), fileMarker.substring(6))) {
                    assertFalse(result.contains(secret), "the MCP result quotes no window or file text: " + result);
                    assertFalse(audit.contains(secret), "the audit quotes no window or file text: " + audit);
                }
                assertTrue(
                        r.getString("result.structuredContent.summary").contains("characters")
                                || r.getString("result.structuredContent.summary")
                                        .contains("expected text"),
                        "the detail says what was checked, in lengths: " + result);
            }
            // the control: the model was shown the granted window (the marker is on screen) — the verifiers read it
            assertTrue(stub.requests().stream().anyMatch(q -> q.body().contains(marker)), "the model saw the window");
            String logged = String.join("\n", log.lines);
            for (String secret : List.of(marker, titleTag, fileMarker)) {
                assertFalse(logged.contains(secret), "the log quotes no window or file text: " + logged);
            }
        }
    }
}

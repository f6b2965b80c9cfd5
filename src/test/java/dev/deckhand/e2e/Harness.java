package dev.deckhand.e2e;

import dev.deckhand.model.stub.ProviderStub;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Small shared steps of the attack tests: model binding, the window list, the policy, the audit. */
final class Harness {

    private Harness() {}

    /** Binds the server's model to {@code stub}. */
    static void bind(ProviderStub stub) {
        Map<String, Object> body = new HashMap<>(
                Map.of("providerId", stub.providerId(), "modelId", "scripted-model", "baseUrl", stub.url()));
        if (!stub.providerId().equals("ollama")) body.put("apiKey", "sk-e2e-0123456789abcdef");
        Owner.api().body(body).put("/api/model").then().statusCode(200);
    }

    static Path emptyFile(String name) throws Exception {
        Path file = Files.createTempDirectory("deckhand-e2e").resolve(name);
        Files.writeString(file, "");
        return file;
    }

    /** The window as {@code GET /api/windows} lists it (with the refusal it would get if granted). */
    static Map<String, Object> window(long windowId) {
        List<Map<String, Object>> windows = Owner.api()
                .get("/api/windows")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("$");
        return windows.stream()
                .filter(w -> ((Number) w.get("windowId")).longValue() == windowId)
                .findFirst()
                .orElseThrow(() -> new AssertionError("window " + windowId + " is not listed: " + windows));
    }

    /** {@code POST /api/grants} for a window that must be refused: the error body. */
    static JsonPath mintRefused(long windowId) {
        return Owner.api()
                .body(Map.of(
                        "windowId",
                        windowId,
                        "scope",
                        "window",
                        "inputPolicy",
                        "confirm_each",
                        "capture",
                        "a11y_only",
                        "consequential",
                        List.of()))
                .post("/api/grants")
                .then()
                .statusCode(422)
                .extract()
                .jsonPath();
    }

    static Map<String, Object> policy() {
        return Owner.api()
                .get("/api/policy")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("$");
    }

    static void putPolicy(Map<String, Object> document) {
        Owner.api().body(document).put("/api/policy").then().statusCode(200);
    }

    /** The policy with one field changed; returns the document as it was, to restore. */
    static Map<String, Object> changePolicy(String field, Object value) {
        Map<String, Object> original = policy();
        Map<String, Object> changed = new HashMap<>(original);
        changed.put(field, value);
        putPolicy(changed);
        return original;
    }

    /** The action records (intents and results) of one run, newest first. */
    static List<Map<String, Object>> auditActions(String runId) {
        return Owner.api()
                .queryParam("runId", runId)
                .queryParam("limit", 200)
                .get("/api/audit/actions")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("records");
    }

    /** The uid of the first observed element with this compact role whose name contains {@code name}. */
    static String uid(ProviderStub.RecordedRequest request, String role, String name) {
        String text = ScriptedModel.text(request);
        Matcher m = Pattern.compile("(?m)^\\s*(u[0-9A-Za-z]{3,16}) " + Pattern.quote(role) + "\\b(.*)$")
                .matcher(text);
        while (m.find()) {
            if (m.group(2).contains(name)) return m.group(1);
        }
        throw new AssertionError("no " + role + " \"" + name + "\" in the observation:\n" + text);
    }
}

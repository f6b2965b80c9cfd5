package dev.deckhand.e2e;

import static io.restassured.RestAssured.given;

import dev.deckhand.home.TestTokens;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** The person, through the owner API with the owner token: find a window, grant it, approve, revoke. */
final class Owner {

    private Owner() {}

    static RequestSpecification api() {
        return given().header("Authorization", "Bearer " + TestTokens.read("owner-token"))
                .contentType("application/json");
    }

    /** Waits until a window of {@code app} (WM_CLASS, any case) is listed, and returns its id. */
    static long awaitWindow(String app, String titlePart) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            List<Map<String, Object>> windows = api().get("/api/windows")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("$");
            for (Map<String, Object> w : windows) {
                // A11Y_UNAVAILABLE is transient (the app is still starting and does not answer the
                // accessibility bus yet); any other refusal is the window's own and is returned.
                if (String.valueOf(w.get("app")).equalsIgnoreCase(app)
                        && String.valueOf(w.get("title")).contains(titlePart)
                        && Boolean.TRUE.equals(w.get("visible"))
                        && !transientRefusal(w)) {
                    return ((Number) w.get("windowId")).longValue();
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no visible window of " + app + " titled *" + titlePart + "* within 30 s");
    }

    private static boolean transientRefusal(Map<String, Object> window) {
        return window.get("refusal") instanceof Map<?, ?> r && "A11Y_UNAVAILABLE".equals(r.get("code"));
    }

    static JsonPath mint(long windowId, String inputPolicy, List<String> consequential) {
        return api().body(Map.of(
                        "windowId",
                        windowId,
                        "scope",
                        "window",
                        "budget",
                        50,
                        "idleExpirySeconds",
                        600,
                        "inputPolicy",
                        inputPolicy,
                        "capture",
                        "a11y_only",
                        "consequential",
                        consequential))
                .post("/api/grants")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
    }

    /** {@link #mint} with some fields changed ({@code scope}, {@code capture}, {@code budget}, ...). */
    static JsonPath mint(long windowId, String inputPolicy, List<String> consequential, Map<String, Object> changes) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of(
                "windowId",
                windowId,
                "scope",
                "window",
                "budget",
                50,
                "idleExpirySeconds",
                600,
                "inputPolicy",
                inputPolicy,
                "capture",
                "a11y_only",
                "consequential",
                consequential));
        body.putAll(changes);
        return api().body(body)
                .post("/api/grants")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
    }

    static void revokeActive() {
        var active = api().get("/api/grants/active");
        if (active.statusCode() == 200) {
            api().delete("/api/grants/" + active.jsonPath().getString("id"))
                    .then()
                    .statusCode(204);
        }
    }

    /** Approves (or denies) every card that appears until closed; counts them. */
    static final class Approver implements AutoCloseable {
        final AtomicInteger decided = new AtomicInteger();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Approver(String decision) {
            thread = new Thread(
                    () -> {
                        while (running.get()) {
                            List<String> ids = api().get("/api/approvals")
                                    .then()
                                    .statusCode(200)
                                    .extract()
                                    .jsonPath()
                                    .getList("id");
                            for (String id : ids) {
                                int status = api().body(Map.of("decision", decision))
                                        .post("/api/approvals/" + id)
                                        .statusCode();
                                if (status == 200) decided.incrementAndGet();
                            }
                            try {
                                Thread.sleep(30);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "e2e-approver");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(5_000);
        }
    }
}

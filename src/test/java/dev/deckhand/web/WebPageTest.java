package dev.deckhand.web;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.home.TestTokens;
import dev.deckhand.mcp.Mcp;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The owner's web page (docs/web.md), in real headless Chromium against the running app: the person signs in with the one-time
 * link, binds a model against a local provider stub (test connection passes, then fails with the
 * provider's words), reads the permission doctor, picks gnome-calculator in the target picker and
 * mints a grant, approves and denies confirm-each cards while runs started over MCP wait on them,
 * presses Stop mid-run (click→run-ended latency is printed, never asserted), and finds the run in
 * the audit view. The steps build on each other, so they run in order on one browser and one app.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("e2e")
class WebPageTest {

    static final String KEY = "sk-web-0123456789abcdef";
    static final int STOP_TRIALS = 5;

    Browser browser;
    OpenAiStub stub;
    TestApp calculator;
    long window;
    McpStreamableTestClient mcp;
    String stoppedRunId;
    Path verifierFile;
    int port;

    @BeforeAll
    void start() throws Exception {
        TestApp.requireDesktop();
        stub = OpenAiStub.start();
        calculator = TestApp.launch(List.of("gnome-calculator"));
        browser = Browser.start();
        verifierFile = Files.createTempFile("deckhand-web", ".txt");
    }

    @AfterAll
    void end() throws Exception {
        try {
            if (port > 0) RestAssured.port = port; // reset after the last test
            revokeActive();
        } finally {
            try {
                if (browser != null) browser.close();
            } finally {
                try {
                    if (calculator != null) calculator.close();
                } finally {
                    if (stub != null) stub.close();
                    if (verifierFile != null) Files.deleteIfExists(verifierFile);
                }
            }
        }
    }

    static RequestSpecification owner() {
        return given().header("Authorization", "Bearer " + TestTokens.read("owner-token"))
                .contentType("application/json");
    }

    static void revokeActive() {
        var active = owner().get("/api/grants/active");
        if (active.statusCode() == 200)
            owner().delete("/api/grants/" + active.jsonPath().getString("id"));
    }

    String page() {
        return "http://127.0.0.1:" + RestAssured.port + "/";
    }

    @Test
    @Order(1)
    void signsInWithTheOneTimeLink() throws Exception {
        revokeActive(); // RestAssured knows the port only once a test runs
        port = RestAssured.port;
        browser.driver.get(page());
        browser.visible(By.id("signin"));
        assertTrue(browser.driver.getTitle().contains("[Deckhand]"), "the title carries the driver's marker");
        browser.shot("signin");
        String link = owner().post("/api/session/link")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getString("link");
        browser.driver.get(link);
        browser.visible(By.id("app"));
        assertFalse(browser.driver.findElement(By.id("signin")).isDisplayed());
        browser.driver.get(link);
        assertTrue(browser.driver.getPageSource().contains("used already"), "the link works once");
        browser.driver.get(page());
        browser.visible(By.id("app"));
    }

    @Test
    @Order(2)
    void bindsAModelAndTestConnectionPassesThenFailsVerbatim() throws Exception {
        browser.click(By.id("tab-model"));
        browser.visible(By.id("m-model"));
        browser.await(d -> d.findElements(By.cssSelector("#m-provider option")).size() > 1 ? true : null);
        new Select(browser.driver.findElement(By.id("m-provider"))).selectByValue(stub.providerId());
        browser.type(By.id("m-model"), "scripted-model");
        browser.type(By.id("m-base"), stub.url());
        browser.type(By.id("m-key"), KEY);
        browser.click(By.id("m-save"));
        browser.await(d -> d.findElement(By.id("m-status")).getText().startsWith("Saved") ? true : null);
        String keyState = browser.driver.findElement(By.id("m-key-state")).getText();
        assertTrue(keyState.contains("cdef") && !keyState.contains(KEY), "the key is shown masked: " + keyState);
        assertEquals(
                "", browser.driver.findElement(By.id("m-key")).getAttribute("value"), "the key field is write-only");

        stub.enqueue("{\"action\":\"click\",\"uid\":\"u2\"}");
        browser.click(By.id("m-test"));
        browser.await(d -> d.findElement(By.id("m-status")).getText().startsWith("Connection works") ? true : null);
        browser.shot("model");

        String providerSays = "Incorrect API key provided: sk-web-***cdef.";
        stub.enqueueError(401, providerSays);
        browser.click(By.id("m-test"));
        WebElement error = browser.visible(By.id("m-error"));
        assertEquals(providerSays, error.getText(), "the provider's error, verbatim");
        assertTrue(browser.driver.findElement(By.id("m-status")).getText().startsWith("Connection failed"));
        browser.shot("model-failed");
        assertFalse(browser.driver.getPageSource().contains(KEY), "the page never holds the key");
    }

    @Test
    @Order(3)
    void thePermissionDoctorShowsEachCheckGreenOrRed() throws Exception {
        awaitAccessibleCalculator();
        // The window is grantable as soon as it is mapped; its app registers on the accessibility bus a
        // moment later, and until then the toolkit line is rightly red. Wait for the app, not the line.
        awaitDoctorLine("toolkit-a11y");
        // No scripted reply queued: the stub answers 500 and the model line is red with its words and a fix.
        browser.click(By.id("tab-doctor"));
        WebElement model = browser.visible(By.cssSelector("li[data-check='model']"));
        assertTrue(model.getAttribute("class").contains("bad"), model.getText());
        assertTrue(model.getText().contains("stub: no scripted reply left"), model.getText());
        assertTrue(model.findElement(By.cssSelector(".fix")).getText().contains("Model section"), model.getText());
        for (String id : List.of("display", "atspi-bus", "toolkit-a11y", "keyboard-path", "capture", "config")) {
            WebElement check = browser.driver.findElement(By.cssSelector("li[data-check='" + id + "']"));
            assertFalse(
                    check.getAttribute("class").contains("bad"),
                    () -> id + " is green on the virtual desktop: " + check.getText());
        }
        String toolkits = browser.driver
                .findElement(By.cssSelector("li[data-check='toolkit-a11y']"))
                .getText();
        assertTrue(toolkits.contains("gnome-calculator") && toolkits.contains("GTK 4"), toolkits);
        browser.shot("doctor");

        stub.enqueue("{\"action\":\"click\",\"uid\":\"u2\"}");
        browser.click(By.id("doctor-run"));
        browser.await(d -> d.findElement(By.cssSelector("li[data-check='model']"))
                        .getAttribute("class")
                        .contains("bad")
                ? null
                : true);
    }

    @Test
    @Order(4)
    void thePickerShowsEachWindowsRefusalAndNoPixelsOfARefusedOne() throws Exception {
        String profile = Files.createTempDirectory("deckhand-web-own").toString();
        try (TestApp own = TestApp.launch(List.of(
                Browser.CHROMIUM,
                "--no-sandbox",
                "--no-first-run",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                page()))) {
            long ownWindow = awaitListed("chromium", "[Deckhand]");
            owner().get("/api/web/windows/" + ownWindow + "/thumbnail").then().statusCode(422);
            browser.click(By.id("tab-grant"));
            By card = By.cssSelector("li.window[data-window-id='" + ownWindow + "']");
            browser.await(d -> {
                if (!d.findElements(card).isEmpty()) return true;
                d.findElement(By.id("windows-refresh")).click();
                return null;
            });
            WebElement listed = browser.driver.findElement(card);
            assertTrue(
                    listed.findElement(By.cssSelector(".refusal")).getText().startsWith("OWN_WINDOW"),
                    listed.getText());
            assertTrue(listed.findElements(By.cssSelector(".thumb img")).isEmpty(), "no pixels of a refused window");
            assertFalse(
                    listed.findElement(By.cssSelector("button.choose")).isEnabled(),
                    "a refused window cannot be chosen");
            browser.visible(By.cssSelector("li.window[data-window-id='" + window + "'] .thumb img"));
            browser.shot("picker");
        } finally {
            try (java.util.stream.Stream<Path> walk = Files.walk(Path.of(profile))) {
                walk.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    @Order(5)
    void picksTheCalculatorInTheTargetPickerAndMintsAGrant() throws Exception {
        mintInPage(true);
        String indicator = browser.visible(By.id("indicator")).getText();
        assertTrue(
                indicator.contains("Calculator")
                        && indicator.contains("asks before each action")
                        && indicator.contains("no pixels"),
                indicator);
        JsonPath active = owner().get("/api/grants/active")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertEquals(window, active.getLong("target.windowId"));
        assertEquals("a11y_only", active.getString("capture"));
        assertEquals("confirm_each", active.getString("inputPolicy"));
        assertFalse(active.getBoolean("blindInput"));
        // the person allows blind input on the grant (owner API): the indicator says so; narrowed to accessibility
        // only, it ends
        String id = active.getString("id");
        owner().body(Map.of("capture", "pixels", "blindInput", true))
                .patch("/api/grants/" + id)
                .then()
                .statusCode(200);
        browser.await(d -> d.findElement(By.id("indicator-text")).getText().contains("blind input") ? true : null);
        JsonPath narrowed = owner().body(Map.of("capture", "a11y_only"))
                .patch("/api/grants/" + id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertFalse(narrowed.getBoolean("blindInput"), narrowed.prettify());
        browser.await(d -> d.findElement(By.id("indicator-text")).getText().contains("no pixels") ? true : null);
        assertFalse(
                browser.driver.findElement(By.id("indicator-text")).getText().contains("blind input"));
        // an a11y_only grant cannot take it
        owner().body(Map.of("blindInput", true))
                .patch("/api/grants/" + id)
                .then()
                .statusCode(400);
    }

    @Test
    @Order(6)
    void anApprovedCardLetsTheRunContinue() throws Exception {
        CompletableFuture<JsonPath> run = runAsync(steps("7", "7"), null);
        WebElement card = awaitCard(run);
        assertEquals(
                "push button “7 7”", card.findElement(By.cssSelector(".target")).getText());
        assertTrue(card.findElement(By.cssSelector(".window-title")).getText().contains("Calculator"));
        WebElement crop = card.findElement(By.cssSelector(".crop img"));
        browser.await(d -> ((Number) browser.driver.executeScript(
                                        "return arguments[0].complete ? arguments[0].naturalWidth : 0", crop))
                                .intValue()
                        > 0
                ? true
                : null);
        assertTrue(card.findElement(By.cssSelector(".countdown")).getText().matches("\\d+ s"));
        browser.shot("approval");
        card.findElement(By.cssSelector("button.approve")).click();
        JsonPath call = run.get(60, TimeUnit.SECONDS);
        assertEquals("completed", call.getString("result.structuredContent.outcome"), call::prettify);
        assertEquals("pass", call.getString("result.structuredContent.verdict"), call::prettify);
        awaitLastRun(call.getString("result.structuredContent.runId"), "completed");
        assertTrue(browser.all(By.cssSelector("[data-approval]")).isEmpty(), "the decided card is gone");
    }

    @Test
    @Order(7)
    void aDeniedCardEndsTheRunWithItsCode() throws Exception {
        CompletableFuture<JsonPath> run = runAsync(steps("8", "78"), null);
        WebElement card = awaitCard(run);
        assertEquals(
                "push button “8 8”", card.findElement(By.cssSelector(".target")).getText());
        card.findElement(By.cssSelector("button.deny")).click();
        JsonPath call = run.get(60, TimeUnit.SECONDS);
        assertTrue(call.getBoolean("result.isError"), call::prettify);
        assertEquals(0, call.getInt("result.structuredContent.stepsRun"), call::prettify);
        String code = call.getString("result.structuredContent.refusal.code");
        assertEquals("STOPPED", code, call::prettify);
        String shown = awaitLastRun(
                call.getString("result.structuredContent.runId"), call.getString("result.structuredContent.outcome"));
        assertTrue(shown.contains("(" + code + ")"), "the page names the code: " + shown);
    }

    @Test
    @Order(8)
    void stopMidRunEndsItStopped() throws Exception {
        List<Double> millis = new ArrayList<>();
        List<Double> ackMillis = new ArrayList<>();
        List<Double> shownMillis = new ArrayList<>();
        for (int trial = 0; trial < STOP_TRIALS; trial++) {
            if (owner().get("/api/grants/active").statusCode() != 200) mintInPage(false);
            for (int i = 0; i < 60; i++) stub.enqueue("{\"action\":\"wait\",\"ms\":200}");
            int asked = stub.requests().size();
            AtomicLong ended = new AtomicLong();
            String args = "{\"instruction\":\"wait for the calculator\",\"verifier\":{\"kind\":\"file\",\"path\":\""
                    + verifierFile + "\",\"exists\":true}}";
            CompletableFuture<JsonPath> run = runAsync(args, ended);
            browser.await(d -> {
                if (run.isDone())
                    throw new AssertionError(
                            "the run ended before Stop: " + run.join().prettify());
                return stub.requests().size() >= asked + 2 ? true : null;
            });
            WebElement stop = browser.visible(By.id("stop"));
            if (trial == 0) browser.shot("grant-indicator");
            long clicked = System.nanoTime();
            stop.click();
            JsonPath call = run.get(30, TimeUnit.SECONDS);
            double ms = (ended.get() - clicked) / 1e6;
            millis.add(ms);
            assertEquals("stopped", call.getString("result.structuredContent.outcome"), call::prettify);
            assertEquals("STOPPED", call.getString("result.structuredContent.refusal.code"), call::prettify);
            assertTrue(ended.get() > clicked, "the run ended after the click");
            stoppedRunId = call.getString("result.structuredContent.runId");
            awaitLastRun(stoppedRunId, "stopped");
            double clickedAt = pageTime(browser.driver.findElement(By.id("stop")), "clickedAt");
            double ack = pageTime(browser.driver.findElement(By.id("stop")), "ackAt") - clickedAt;
            double shown = pageTime(browser.driver.findElement(By.id("last-run")), "shownAt") - clickedAt;
            ackMillis.add(ack);
            shownMillis.add(shown);
            System.out.printf(
                    "web Stop trial %d: click → Stop latched (server answered) %.1f ms; click → run ended (MCP reply) %.1f ms; "
                            + "click → page shows 'stopped' %.1f ms%n",
                    trial + 1, ack, ms, shown);
            assertTrue(ack >= 0 && shown >= ack, "the page saw the Stop answered, then the run stopped");
            browser.await(d -> d.findElement(By.id("indicator")).isDisplayed() ? null : true);
            assertEquals(404, owner().get("/api/grants/active").statusCode(), "Stop revoked the grant");
        }
        report("click → Stop latched", ackMillis);
        report("click → run ended (MCP reply)", millis);
        report("click → page shows 'stopped'", shownMillis);
    }

    private static void report(String what, List<Double> millis) {
        List<Double> sorted = new ArrayList<>(millis);
        Collections.sort(sorted);
        System.out.printf(
                "web Stop %s over %d trials: median %.1f ms, min %.1f ms, max %.1f ms (all %s)%n",
                what,
                sorted.size(),
                sorted.get(sorted.size() / 2),
                sorted.get(0),
                sorted.get(sorted.size() - 1),
                millis);
    }

    /** A {@code performance.now()} figure the page stored in {@code data-<name>}. */
    private static double pageTime(WebElement e, String name) {
        String v = e.getDomAttribute("data-" + name.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT));
        if (v == null) throw new AssertionError("the page stored no " + name);
        return Double.parseDouble(v);
    }

    @Test
    @Order(9)
    void findsTheStoppedRunInTheAuditView() throws Exception {
        assertTrue(stoppedRunId != null, "a run was stopped");
        browser.click(By.id("tab-audit"));
        browser.await(d -> d.findElement(By.id("verify")).getText().startsWith("Chain verified") ? true : null);
        browser.await(d ->
                d.findElements(By.cssSelector("#audit-rows tr[data-run-id]")).isEmpty() ? null : true);
        browser.shot("audit");
        browser.type(By.id("a-run"), stoppedRunId);
        browser.click(By.cssSelector("#audit-filter button[type=submit]"));
        // The filtered page replaces the unfiltered one: wait until only that run is listed.
        String row = browser.await(d -> {
            List<WebElement> rows = d.findElements(By.cssSelector("#audit-rows tr[data-run-id]"));
            return rows.size() == 1 && stoppedRunId.equals(rows.get(0).getDomAttribute("data-run-id"))
                    ? rows.get(0).getText()
                    : null;
        });
        assertTrue(row.contains("stopped") && row.contains("STOPPED"), row);
        browser.shot("audit-filtered");
        new Select(browser.driver.findElement(By.id("a-kind"))).selectByValue("actions");
        browser.visible(By.cssSelector("#audit-head th"));
    }

    @Test
    @Order(10)
    void thePolicyEditorLocksBuiltInCredentialEntries() throws Exception {
        browser.click(By.id("tab-policy"));
        browser.visible(By.cssSelector("#p-credentialApps li"));
        List<String> builtins = owner().get("/api/policy/builtins")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("credentialApps");
        for (WebElement li : browser.all(By.cssSelector("#p-credentialApps li"))) {
            String name = li.findElement(By.tagName("span")).getText();
            boolean removable = !li.findElements(By.tagName("button")).isEmpty();
            assertEquals(!builtins.contains(name), removable, () -> name + ": built-ins are locked, others removable");
        }
        browser.type(By.id("p-maxSteps"), "55");
        // local documents in a browser tab are allowed until the person says otherwise
        assertTrue(browser.driver.findElement(By.id("p-allowLocalFiles")).isSelected());
        browser.click(By.id("p-allowLocalFiles"));
        browser.click(By.id("p-save"));
        browser.await(d -> "Saved.".equals(d.findElement(By.id("p-status")).getText()) ? true : null);
        io.restassured.path.json.JsonPath saved =
                owner().get("/api/policy").then().statusCode(200).extract().jsonPath();
        assertEquals(55, saved.getInt("caps.maxSteps"));
        assertEquals(false, saved.getBoolean("allowLocalFiles"));
        browser.driver.executeScript("document.getElementById('p-status').textContent = ''");
        browser.click(By.id("p-allowLocalFiles"));
        browser.click(By.id("p-save"));
        browser.await(d -> "Saved.".equals(d.findElement(By.id("p-status")).getText()) ? true : null);
        assertEquals(
                true,
                owner().get("/api/policy")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getBoolean("allowLocalFiles"));
        browser.driver.executeScript("window.scrollTo(0, 0)");
        browser.shot("policy");
    }

    @Test
    @Order(11)
    void thePageRanUnderItsContentSecurityPolicyWithoutAViolation() {
        browser.driver.executeScript("console.error('deckhand-console-probe')");
        List<String> console = browser.console();
        assertTrue(
                console.stream().anyMatch(m -> m.contains("deckhand-console-probe")),
                "the console is read: " + console);
        List<String> violations = console.stream()
                .filter(m -> m.contains("Content Security Policy") || m.contains("Refused to"))
                .toList();
        assertTrue(violations.isEmpty(), "the page's console reports " + violations);
    }

    @Test
    @Order(12)
    void signOutEndsTheSession() {
        String cookie =
                browser.driver.manage().getCookieNamed("deckhand_session").getValue();
        browser.click(By.id("logout"));
        browser.visible(By.id("signin"));
        assertFalse(browser.driver.findElement(By.id("app")).isDisplayed());
        given().cookie("deckhand_session", cookie)
                .header("Sec-Fetch-Site", "same-origin")
                .get("/api/session")
                .then()
                .statusCode(401);
        browser.driver.navigate().refresh();
        browser.visible(By.id("signin"));
    }

    // ---- steps ----

    private void awaitAccessibleCalculator() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            List<Map<String, Object>> windows = owner().get("/api/windows")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("$");
            for (Map<String, Object> w : windows) {
                if ("gnome-calculator".equalsIgnoreCase(String.valueOf(w.get("app")))
                        && Boolean.TRUE.equals(w.get("visible"))
                        && w.get("refusal") == null) {
                    window = ((Number) w.get("windowId")).longValue();
                    return;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("gnome-calculator's window did not become grantable within 30 s");
    }

    /** Waits (at most 30 s) until {@code GET /api/doctor} reports the check {@code id} green. */
    private void awaitDoctorLine(String id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String last = "";
        while (System.nanoTime() < deadline) {
            List<Map<String, Object>> checks = owner().get("/api/doctor")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("checks");
            for (Map<String, Object> c : checks) {
                if (id.equals(c.get("id"))) {
                    if (Boolean.TRUE.equals(c.get("ok"))) return;
                    last = String.valueOf(c.get("detail"));
                }
            }
            Thread.sleep(300);
        }
        throw new AssertionError("the doctor's " + id + " line stayed red for 30 s: " + last);
    }

    /** Waits until a visible window of {@code app} titled *{@code titlePart}* is listed; its id. */
    private long awaitListed(String app, String titlePart) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            List<Map<String, Object>> windows = owner().get("/api/windows")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("$");
            for (Map<String, Object> w : windows) {
                if (app.equalsIgnoreCase(String.valueOf(w.get("app")))
                        && String.valueOf(w.get("title")).contains(titlePart)
                        && Boolean.TRUE.equals(w.get("visible"))) {
                    return ((Number) w.get("windowId")).longValue();
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no visible window of " + app + " titled *" + titlePart + "* within 30 s");
    }

    /** The person picks the calculator in the target picker, reads the card and presses Grant. */
    private void mintInPage(boolean screenshot) throws Exception {
        if (window == 0) awaitAccessibleCalculator();
        browser.click(By.id("tab-grant"));
        By choose = By.cssSelector("li.window[data-window-id='" + window + "'] button.choose");
        browser.await(d -> {
            List<WebElement> b = d.findElements(choose);
            if (!b.isEmpty() && b.get(0).isEnabled()) return true;
            d.findElement(By.id("windows-refresh")).click();
            return null;
        });
        if (screenshot) {
            By thumbImage = By.cssSelector("li.window[data-window-id='" + window + "'] .thumb img");
            browser.visible(thumbImage);
            browser.await(d -> {
                // the picker re-renders its list while it waits, so the image is found again on every poll
                List<WebElement> found = d.findElements(thumbImage);
                WebElement thumb = found.isEmpty() ? null : found.get(0);
                if (thumb == null
                        || !(Boolean) browser.driver.executeScript("return arguments[0].isConnected", thumb)) {
                    throw new AssertionError("no thumbnail: "
                            + browser.driver.executeAsyncScript(
                                    "const done = arguments[1];"
                                            + "fetch(arguments[0]).then(r => r.text().then(t => done(r.status + ' ' + t)))",
                                    "/api/web/windows/" + window + "/thumbnail"));
                }
                return ((Number) browser.driver.executeScript(
                                                "return arguments[0].complete ? arguments[0].naturalWidth : 0", thumb))
                                        .intValue()
                                > 0
                        ? true
                        : null;
            });
        }
        browser.click(choose);
        String summary = browser.visible(By.id("grant-summary")).getText();
        assertTrue(summary.contains("Deckhand captures no pixels at all"), summary);
        assertTrue(summary.contains("always need your approval"), summary);
        assertTrue(summary.contains("an app can open any file you can"), summary);
        // blind input goes only with pixels, and the card says what it gives
        WebElement blind = browser.driver.findElement(By.id("g-blind"));
        assertFalse(blind.isEnabled(), "no blind input without pixels");
        browser.click(By.cssSelector("#grant-form input[name=capture][value=pixels]"));
        assertTrue(blind.isEnabled());
        browser.click(By.id("g-blind"));
        String blindSummary = browser.visible(By.id("grant-summary")).getText();
        assertTrue(blindSummary.contains("Deckhand cannot see a password prompt there"), blindSummary);
        assertTrue(blindSummary.contains("a terminal is a shell running as you"), blindSummary);
        browser.click(By.cssSelector("#grant-form input[name=capture][value=a11y_only]"));
        assertFalse(blind.isEnabled() || blind.isSelected(), "back to accessibility only, blind input is off");
        assertFalse(browser.visible(By.id("grant-summary")).getText().contains("Blind input"));
        if (screenshot) {
            browser.driver.executeScript(
                    "arguments[0].scrollIntoView(true); window.scrollBy(0, -80);",
                    browser.driver.findElement(By.id("grant-form")));
            browser.shot("grant");
        }
        browser.click(By.id("grant-mint"));
        browser.visible(By.id("indicator"));
        assertTrue(browser.driver.findElement(By.id("grant-form")).getAttribute("hidden") != null, "the card closes");
    }

    private static String steps(String button, String expect) {
        return "{\"instruction\":\"press " + button + "\",\"steps\":[{\"action\":\"click\",\"target\":{\"role\":"
                + "\"push button\",\"name\":\"" + button + " " + button + "\"}},{\"action\":\"wait\",\"ms\":300}],"
                + "\"verifier\":{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"name\":\"GtkSourceView\"},"
                + "\"expect\":{\"text\":\"" + expect + "\"}}}";
    }

    /** Starts a run over MCP in the background, as the agent would; {@code ended} gets nanoTime at its reply. */
    private CompletableFuture<JsonPath> runAsync(String args, AtomicLong ended) {
        if (mcp == null) mcp = Mcp.connect();
        return CompletableFuture.supplyAsync(() -> {
            try {
                JsonPath call = null;
                for (int attempt = 0; attempt < 20; attempt++) {
                    call = Mcp.call(mcp, args);
                    if (ended != null) ended.set(System.nanoTime());
                    if (!"A11Y_UNAVAILABLE".equals(call.getString("result.structuredContent.refusal.code")))
                        return call;
                    Thread.sleep(500);
                }
                return call;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /**
     * Round 8 (C1): a card showed the typed {@code cat נ>ש} as {@code cat ש<נ}, the page's bidi algorithm reordering
     * the line around the Hebrew letters, and the person approved a command that emptied the file. Each character of a
     * step, the target's name and the window's title is laid out left of the next, in the order typed.
     */
    @Test
    @Order(13)
    void aCardShowsEveryCharacterInTheOrderTyped() {
        String typed = "cat נ>ש; mv א ב";
        Object out = browser.driver.executeScript("""
                renderApprovals([{id: 'bidi-check', secondsLeft: 30, targetRole: 'terminal', targetName: arguments[0],
                    windowTitle: arguments[0], consequential: null,
                    steps: ['1. type → the focused element: "' + arguments[0] + '"']}]);
                const card = document.getElementById('approval-bidi-check');
                document.body.appendChild(card); // laid out wherever the page's panel of cards is shown
                const lefts = el => {
                  const node = [...el.childNodes].find(n => n.nodeType === 3 && n.data.includes(arguments[0]))
                      || el.firstChild;
                  const start = node.data.indexOf(arguments[0]);
                  const out = [];
                  for (let i = 0; i < arguments[0].length; i++) {
                    if (arguments[0][i] === ' ') continue;
                    const r = document.createRange();
                    r.setStart(node, start + i);
                    r.setEnd(node, start + i + 1);
                    out.push(r.getBoundingClientRect().left);
                  }
                  return out;
                };
                const result = [card.querySelector('ol li'), card.querySelector('.target'),
                    card.querySelector('.window-title')].map(lefts);
                renderApprovals([]);
                return result;
                """, typed);
        @SuppressWarnings("unchecked")
        List<List<Number>> shown = (List<List<Number>>) out;
        assertEquals(3, shown.size(), String.valueOf(shown));
        for (List<Number> lefts : shown) {
            assertEquals(typed.replace(" ", "").length(), lefts.size(), String.valueOf(lefts));
            for (int i = 1; i < lefts.size(); i++) {
                assertTrue(
                        lefts.get(i).doubleValue() > lefts.get(i - 1).doubleValue(),
                        "character " + i + " of the typed text stands left of the one before it: " + lefts);
            }
        }
    }

    private WebElement awaitCard(CompletableFuture<JsonPath> run) {
        return browser.await(d -> {
            if (run.isDone())
                throw new AssertionError(
                        "the run ended before a card appeared: " + run.join().prettify());
            List<WebElement> cards = d.findElements(By.cssSelector("[data-approval]"));
            return cards.isEmpty() ? null : cards.get(0);
        });
    }

    /** Waits until the page announces run {@code runId} as ended with {@code outcome}; returns what it shows. */
    private String awaitLastRun(String runId, String outcome) {
        return browser.await(d -> {
            WebElement box = d.findElement(By.id("last-run"));
            if (!runId.equals(box.getAttribute("data-run-id"))) return null;
            String shown = d.findElement(By.id("last-run-outcome")).getText();
            return shown.startsWith(outcome) ? shown : null;
        });
    }
}

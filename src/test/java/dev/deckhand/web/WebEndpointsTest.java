package dev.deckhand.web;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.home.TestTokens;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The page's own endpoints sit behind HttpGuard like the rest of {@code /api}, and the page's files
 * name nothing off this machine (it works without the network).
 */
@QuarkusTest
@Tag("e2e")
class WebEndpointsTest {

    static RequestSpecification owner() {
        return given().header("Authorization", "Bearer " + TestTokens.read("owner-token"));
    }

    @Test
    void thePagesEndpointsNeedTheOwner() {
        for (String path : List.of(
                "/api/doctor", "/api/web/live", "/api/web/windows/1/thumbnail", "/api/web/approvals/a-x/crop")) {
            given().get(path).then().statusCode(401);
            given().header("Authorization", "Bearer " + TestTokens.read("mcp-token"))
                    .get(path)
                    .then()
                    .statusCode(401);
        }
    }

    @Test
    void theDoctorListsEveryCheckOfTheIssue() {
        TestApp.requireDesktop();
        owner().get("/api/doctor")
                .then()
                .statusCode(200)
                .body(
                        "checks.id",
                        hasItems(
                                "display",
                                "session",
                                "atspi-bus",
                                "toolkit-a11y",
                                "keyboard-path",
                                "pointer-path",
                                "capture",
                                "model",
                                "config"))
                .body("checkedAt", notNullValue());
    }

    @Test
    void aWindowNotOnScreenGetsNoThumbnailAndAnUnknownCardNoCrop() {
        TestApp.requireDesktop();
        owner().get("/api/web/windows/1/thumbnail").then().statusCode(422).body("error", equalTo("OUT_OF_SCOPE"));
        owner().get("/api/web/approvals/a-nope/crop").then().statusCode(404);
    }

    @Test
    void theLiveViewCarriesNoGrantWhenNoneIsActive() {
        var active = owner().get("/api/grants/active");
        if (active.statusCode() == 200)
            owner().delete("/api/grants/" + active.jsonPath().getString("id"));
        owner().get("/api/web/live")
                .then()
                .statusCode(200)
                .body("grant", equalTo(null))
                .body("approvals.size()", equalTo(0));
    }

    @Test
    void thePageNamesNoOtherHost() throws IOException {
        Pattern url = Pattern.compile("(?i)(?:https?:)?//([a-z0-9.\\-\\[\\]:]+)");
        for (String file : List.of("index.html", "app.js", "app.css", "eval.js")) {
            String text;
            try (InputStream in = getClass().getResourceAsStream("/META-INF/resources/" + file)) {
                assertTrue(in != null, file + " is served");
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Matcher m = url.matcher(text.replaceAll("(?m)^\\s*//.*$", "").replaceAll("/\\*.*?\\*/", ""));
            while (m.find()) {
                String host = m.group(1);
                assertTrue(host.startsWith("127.0.0.1"), () -> file + " names another host: " + host);
            }
            assertEquals(-1, text.indexOf("@import"), file + " imports nothing");
        }
    }
}

package dev.deckhand.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.deckhand.mcp.McpSession;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The browser path to the owner API: one-time sign-in, session cookie, CSRF on writes. */
@QuarkusTest
class OwnerSessionTest {

    private String origin() {
        return "http://127.0.0.1:" + RestAssured.port;
    }

    private String freshCode() {
        String link = given().header("Authorization", "Bearer " + McpSession.token("owner-token"))
                .post("/api/session/link").then().statusCode(200).extract().path("link");
        return link.substring(link.indexOf("code=") + 5);
    }

    @Test
    void aSignInCodeWorksOnceAndSetsAStrictHttpOnlyCookie() {
        String code = freshCode();
        Response first = given().redirects().follow(false).get("/signin?code=" + code);
        assertEquals(303, first.statusCode());
        String setCookie = first.header("Set-Cookie");
        assertNotNull(setCookie);
        org.hamcrest.MatcherAssert.assertThat(setCookie, containsString("HttpOnly"));
        org.hamcrest.MatcherAssert.assertThat(setCookie.toLowerCase(), containsString("samesite=strict"));
        given().redirects().follow(false).get("/signin?code=" + code).then().statusCode(401);
        given().redirects().follow(false).get("/signin?code=made-up").then().statusCode(401);
    }

    @Test
    void browserWritesNeedTheCsrfTokenReadsDoNot() throws Exception {
        String cookie = given().redirects().follow(false).get("/signin?code=" + freshCode())
                .getCookie(OwnerSessions.COOKIE);
        String csrf = given().cookie(OwnerSessions.COOKIE, cookie).header("Origin", origin())
                .get("/api/session").then().statusCode(200).body("signedIn", equalTo(true))
                .extract().path("csrf");
        given().cookie(OwnerSessions.COOKIE, cookie).get("/api/status").then().statusCode(200);
        // A write from the browser origin without the CSRF token is refused before any resource runs.
        given().cookie(OwnerSessions.COOKIE, cookie).header("Origin", origin()).contentType("application/json")
                .body("{}").post("/api/session/link").then().statusCode(403);
        given().cookie(OwnerSessions.COOKIE, cookie).header("Origin", origin()).header(OwnerSessions.CSRF_HEADER, "wrong")
                .contentType("application/json").body("{}").post("/api/session/link").then().statusCode(403);
        given().cookie(OwnerSessions.COOKIE, cookie).header("Origin", origin()).header(OwnerSessions.CSRF_HEADER, csrf)
                .contentType("application/json").body("{}").post("/api/session/link").then().statusCode(200);
        // Minting a grant is such a write: refused without the token, and past the guard with it
        // (the resource then answers for the body itself: no such window).
        given().cookie(OwnerSessions.COOKIE, cookie).header("Origin", origin()).contentType("application/json")
                .body("{\"windowId\": 1}").post("/api/grants").then().statusCode(403);
        org.hamcrest.MatcherAssert.assertThat(given().cookie(OwnerSessions.COOKIE, cookie).header("Origin", origin())
                .header(OwnerSessions.CSRF_HEADER, csrf).contentType("application/json").body("{\"windowId\": 1}")
                .post("/api/grants").statusCode(), org.hamcrest.Matchers.not(403));
        // The cookie never opens /mcp.
        assertEquals(401, RawHttp.status(RestAssured.port, "POST", "/mcp",
                List.of("Host: 127.0.0.1:" + RestAssured.port, "Cookie: " + OwnerSessions.COOKIE + "=" + cookie),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"));
    }

    @Test
    void anUnknownSessionCookieIs401() {
        given().cookie(OwnerSessions.COOKIE, "forged").get("/api/status").then().statusCode(401);
    }
}

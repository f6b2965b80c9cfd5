package dev.deckhand.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.home.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The browser path to the owner API: one-time sign-in, session cookie, the CSRF token on every request
 * (reads included), {@code Sec-Fetch-Site: same-origin} instead on the page's first read and its images,
 * logout, and a new session and token at every sign-in.
 * <p>Its one MCP request stays raw, not McpAssured: it checks that the guard refuses the owner's cookie on
 * {@code /mcp}, a request no MCP client sends.
 */
@QuarkusTest
@Tag("app")
class OwnerSessionTest {

    private String origin() {
        return "http://127.0.0.1:" + RestAssured.port;
    }

    static String freshCode() {
        String link = given().header("Authorization", "Bearer " + TestTokens.read("owner-token"))
                .post("/api/session/link")
                .then()
                .statusCode(200)
                .extract()
                .path("link");
        return link.substring(link.indexOf("code=") + 5);
    }

    /** A signed-in browser: its cookie and its CSRF token (read as the page reads it). */
    record Browser(String cookie, String csrf) {
        RequestSpecification cookieOnly() {
            return given().cookie(OwnerSessions.COOKIE, cookie);
        }

        RequestSpecification page() {
            return cookieOnly().header(OwnerSessions.CSRF_HEADER, csrf);
        }
    }

    static Browser signIn() {
        return signIn(null);
    }

    static Browser signIn(String previousCookie) {
        var request = given().redirects().follow(false);
        if (previousCookie != null) request = request.cookie(OwnerSessions.COOKIE, previousCookie);
        String cookie = request.get("/signin?code=" + freshCode())
                .then()
                .statusCode(303)
                .extract()
                .cookie(OwnerSessions.COOKIE);
        String csrf = given().cookie(OwnerSessions.COOKIE, cookie)
                .header("Sec-Fetch-Site", "same-origin")
                .get("/api/session")
                .then()
                .statusCode(200)
                .body("signedIn", equalTo(true))
                .extract()
                .path("csrf");
        return new Browser(cookie, csrf);
    }

    @Test
    void aSignInCodeWorksOnceAndSetsAStrictHttpOnlyCookieForTwelveHours() {
        String code = freshCode();
        Response first = given().redirects().follow(false).get("/signin?code=" + code);
        assertEquals(303, first.statusCode());
        String setCookie = first.header("Set-Cookie");
        assertNotNull(setCookie);
        String lower = setCookie.toLowerCase(Locale.ROOT);
        assertTrue(lower.contains("httponly"), setCookie);
        assertTrue(lower.contains("samesite=strict"), setCookie);
        assertTrue(lower.contains("max-age=43200"), setCookie);
        given().redirects().follow(false).get("/signin?code=" + code).then().statusCode(401);
        given().redirects().follow(false).get("/signin?code=made-up").then().statusCode(401);
    }

    @Test
    void everyBrowserRequestNeedsTheCsrfTokenReadsIncluded() throws Exception {
        Browser b = signIn();
        b.cookieOnly().get("/api/status").then().statusCode(403);
        b.cookieOnly()
                .header(OwnerSessions.CSRF_HEADER, "wrong")
                .get("/api/status")
                .then()
                .statusCode(403);
        b.page().get("/api/status").then().statusCode(200);
        b.cookieOnly().get("/api/policy").then().statusCode(403);
        b.page().get("/api/policy").then().statusCode(200);
        // Writes the same way: refused before any resource runs, past the guard with the token.
        b.cookieOnly()
                .header("Origin", origin())
                .contentType("application/json")
                .body("{}")
                .post("/api/session/link")
                .then()
                .statusCode(403);
        b.page()
                .header("Origin", origin())
                .contentType("application/json")
                .body("{}")
                .post("/api/session/link")
                .then()
                .statusCode(200);
        b.cookieOnly()
                .header("Origin", origin())
                .contentType("application/json")
                .body("{\"windowId\": 1}")
                .post("/api/grants")
                .then()
                .statusCode(403);
        org.hamcrest.MatcherAssert.assertThat(
                b.page()
                        .header("Origin", origin())
                        .contentType("application/json")
                        .body("{\"windowId\": 1}")
                        .post("/api/grants")
                        .statusCode(),
                org.hamcrest.Matchers.not(403));
        // The cookie never opens /mcp.
        assertEquals(
                401,
                RawHttp.status(
                        RestAssured.port,
                        "POST",
                        "/mcp",
                        List.of(
                                "Host: 127.0.0.1:" + RestAssured.port,
                                "Cookie: " + OwnerSessions.COOKIE + "=" + b.cookie()),
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"));
    }

    @Test
    void thePagesFirstReadAndItsImagesNeedSecFetchSiteSameOrigin() {
        Browser b = signIn();
        b.cookieOnly().get("/api/session").then().statusCode(403);
        for (String site : List.of("same-site", "cross-site", "none", "SAME-ORIGIN", "same-origin, same-origin")) {
            b.cookieOnly()
                    .header("Sec-Fetch-Site", site)
                    .get("/api/session")
                    .then()
                    .statusCode(403);
        }
        b.cookieOnly()
                .header("Sec-Fetch-Site", "same-origin")
                .header("Sec-Fetch-Site", "same-origin")
                .get("/api/session")
                .then()
                .statusCode(403);
        b.cookieOnly()
                .header("Sec-Fetch-Site", "same-origin")
                .get("/api/session")
                .then()
                .statusCode(200)
                .body("csrf", equalTo(b.csrf()));
        for (String image : List.of("/api/web/windows/1/thumbnail", "/api/web/approvals/a-x/crop")) {
            b.cookieOnly().get(image).then().statusCode(403);
            b.cookieOnly()
                    .header("Sec-Fetch-Site", "same-site")
                    .get(image)
                    .then()
                    .statusCode(403);
            b.page().get(image).then().statusCode(403); // the CSRF token does not stand in for it here
            int past = b.cookieOnly()
                    .header("Sec-Fetch-Site", "same-origin")
                    .get(image)
                    .statusCode();
            assertTrue(past != 401 && past != 403, image + " passes the guard: " + past);
        }
        // Sec-Fetch-Site opens nothing else, and no write.
        b.cookieOnly()
                .header("Sec-Fetch-Site", "same-origin")
                .get("/api/status")
                .then()
                .statusCode(403);
        b.cookieOnly()
                .header("Sec-Fetch-Site", "same-origin")
                .post("/api/session/logout")
                .then()
                .statusCode(403);
    }

    @Test
    void logoutEndsTheSessionAndClearsTheCookie() {
        Browser b = signIn();
        Response out = b.page().post("/api/session/logout");
        assertEquals(204, out.statusCode());
        String setCookie = out.header("Set-Cookie");
        assertTrue(setCookie != null && setCookie.toLowerCase(Locale.ROOT).contains("max-age=0"), setCookie);
        b.page().get("/api/status").then().statusCode(401);
        b.cookieOnly()
                .header("Sec-Fetch-Site", "same-origin")
                .get("/api/session")
                .then()
                .statusCode(401);
    }

    @Test
    void signingInAgainEndsTheOldSessionAndRotatesTheToken() {
        Browser first = signIn();
        Browser second = signIn(first.cookie());
        assertNotEquals(first.cookie(), second.cookie());
        assertNotEquals(first.csrf(), second.csrf());
        first.page().get("/api/status").then().statusCode(401);
        second.page().get("/api/status").then().statusCode(200);
        second.cookieOnly()
                .header(OwnerSessions.CSRF_HEADER, first.csrf())
                .get("/api/status")
                .then()
                .statusCode(403);
    }

    @Test
    void anUnknownSessionCookieIs401() {
        given().cookie(OwnerSessions.COOKIE, "forged").get("/api/status").then().statusCode(401);
        given().cookie(OwnerSessions.COOKIE, "forged")
                .header("Sec-Fetch-Site", "same-origin")
                .get("/api/session")
                .then()
                .statusCode(401);
    }
}

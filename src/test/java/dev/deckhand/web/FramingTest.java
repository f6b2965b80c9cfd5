package dev.deckhand.web;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.deckhand.home.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * Real Chromium: Deckhand's page, framed by a page from another loopback port, does not render signed in
 * — although the browser is signed in and, the port not counting for SameSite, would send the session
 * cookie to the frame. A frame of the framing server's own page renders, so frames work at all here.
 */
@QuarkusTest
@Tag("app")
class FramingTest {

    @Test
    void thePageFramedFromAnotherLoopbackPortDoesNotRenderSignedIn() throws Exception {
        int deckhand = RestAssured.port;
        HttpServer framer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        String page = "<!doctype html><title>framer</title>"
                + "<iframe id=\"deckhand\" name=\"deckhand\" width=\"800\" height=\"600\" src=\"http://127.0.0.1:"
                + deckhand + "/\"></iframe>"
                + "<iframe id=\"own\" name=\"own\" src=\"/own\"></iframe>";
        framer.createContext("/own", ex -> respond(ex, "<!doctype html><p id=\"own-text\">framed fine</p>"));
        framer.createContext("/", ex -> respond(ex, page));
        framer.start();
        try (Browser browser = Browser.start()) {
            String link = given().header("Authorization", "Bearer " + TestTokens.read("owner-token"))
                    .post("/api/session/link")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getString("link");
            browser.driver.get(link);
            browser.visible(By.id("app")); // signed in when opened itself
            browser.driver.get("http://127.0.0.1:" + framer.getAddress().getPort() + "/");
            browser.driver.switchTo().frame("own");
            assertEquals("framed fine", browser.visible(By.id("own-text")).getText(), "the control frame renders");
            browser.driver.switchTo().defaultContent();
            // Give Deckhand's frame the time the page needs to sign in (it does in well under a second when opened
            // itself).
            browser.await(d -> ((Boolean) browser.driver.executeScript("return document.readyState === 'complete'"))
                    ? true
                    : null);
            Thread.sleep(1500);
            java.util.List<String> console = browser.console();
            assertTrue(
                    console.stream().anyMatch(m -> m.contains("frame-ancestors") || m.contains("X-Frame-Options")),
                    "Chromium says why it refused the frame: " + console);
            browser.driver.switchTo().frame("deckhand");
            String url = String.valueOf(browser.driver.executeScript("return location.href"));
            boolean appShown = !browser.all(By.id("app")).isEmpty()
                    && browser.driver.findElement(By.id("app")).isDisplayed();
            String text = browser.driver.findElement(By.tagName("body")).getText();
            System.out.printf(
                    "Deckhand's page in a frame from another loopback port: frame URL %s, signed-in view shown: %s%n",
                    url, appShown);
            assertFalse(appShown, "the signed-in page does not render in the frame: " + url + " " + text);
            assertFalse(text.contains("Grant a window") || text.contains("Choose a window"), text);
            assertTrue(
                    !url.startsWith("http://127.0.0.1:" + deckhand),
                    "the frame holds no document of Deckhand's origin: " + url);
            browser.driver.switchTo().defaultContent();
            browser.driver.get("http://127.0.0.1:" + deckhand + "/");
            browser.visible(By.id("app")); // still signed in at the top level: the frame was blocked, not the session
        } finally {
            framer.stop(0);
        }
    }

    private static void respond(com.sun.net.httpserver.HttpExchange ex, String html) throws java.io.IOException {
        byte[] body = html.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        ex.sendResponseHeaders(200, body.length);
        ex.getResponseBody().write(body);
        ex.close();
    }
}

package dev.deckhand.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code deckhand signin} against the packaged application: a fresh one-time link from the running server
 * on standard output (it signs a browser in once), exit 3 when no server runs or the config directory has
 * no owner token (and nothing is created there), exit 1 when the server on the port belongs to another
 * config directory.
 */
@Tag("e2e")
class SignInIT {

    record Result(int code, String stdout, String stderr) {}

    private static Result signin(Path home, int port) throws Exception {
        Path out = Files.createTempFile("deckhand-signin", ".out");
        Path err = Files.createTempFile("deckhand-signin", ".err");
        ProcessBuilder pb = new ProcessBuilder(PackagedApp.command("signin"))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        PackagedApp.environment(pb.environment(), home, port);
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("deckhand signin did not finish within 60 s");
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void printsAFreshLinkFromTheRunningServerAndExits3WithoutOne() throws Exception {
        HttpClient http = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        Path home;
        int port;
        try (PackagedApp app = PackagedApp.startHttp()) {
            home = app.home;
            port = app.port;
            Result r = signin(app.home, app.port);
            assertEquals(0, r.code(), r.stderr());
            String link = r.stdout().strip();
            assertTrue(link.startsWith("http://127.0.0.1:" + app.port + "/signin?code="), r.stdout());
            assertEquals(1, r.stdout().lines().count(), "standard output carries the link alone");
            HttpResponse<String> first =
                    http.send(HttpRequest.newBuilder(URI.create(link)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(303, first.statusCode(), "the link signs a browser in");
            assertTrue(first.headers().firstValue("Set-Cookie").orElse("").startsWith("deckhand_session="));
            assertEquals(
                    401,
                    http.send(HttpRequest.newBuilder(URI.create(link)).build(), HttpResponse.BodyHandlers.ofString())
                            .statusCode(),
                    "once");
            assertTrue(!signin(app.home, app.port).stdout().strip().equals(link), "every call mints a new code");

            Path stranger = Files.createTempDirectory("deckhand-signin-other");
            Files.writeString(stranger.resolve("owner-token"), "not-this-servers-owner-token-0123456789abcdef");
            Result refused = signin(stranger, app.port);
            assertEquals(1, refused.code(), refused.stderr());
            assertTrue(refused.stderr().contains("refused the owner token"), refused.stderr());
            assertEquals("", refused.stdout());
        }
        Result none = signin(home, port);
        assertEquals(3, none.code(), none.stderr());
        assertTrue(none.stderr().contains("no Deckhand server answers"), none.stderr());
        assertEquals("", none.stdout());

        Path never = Files.createTempDirectory("deckhand-signin-parent").resolve("never-started");
        Result noToken = signin(never, PackagedApp.freePort());
        assertEquals(3, noToken.code(), noToken.stderr());
        assertTrue(noToken.stderr().contains("no owner token"), noToken.stderr());
        assertFalse(Files.exists(never), "signin creates no config directory");
    }
}

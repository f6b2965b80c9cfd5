package dev.deckhand.boot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.loop.json.JsonMappers;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code deckhand signin}: a fresh one-time sign-in link for the person's browser, printed to their own
 * terminal. It reads the owner token from the config directory and asks the running server for the link
 * ({@code POST /api/session/link}), so the code is minted where sessions live and never passes through a
 * log. Runs without starting a server. Standard output carries the link alone; messages go to standard error.
 *
 * <p>Exit codes: {@code 0} the link was printed; {@code 1} the server answered but refused (another config
 * directory's server on that port) or failed; {@code 3} no server answers on the port, or the config
 * directory holds no owner token (no Deckhand has started with it); {@code 64} usage.
 */
public final class SignInCommand {

    public static final int PRINTED = 0;
    public static final int REFUSED = 1;
    public static final int NO_SERVER = 3;
    public static final int USAGE = 64;

    private SignInCommand() {}

    /**
     * @param home the config directory (not created)
     * @param port the port the server listens on (127.0.0.1)
     */
    public static int run(Path home, int port, PrintStream out, PrintStream err) {
        Path tokenFile = home.resolve(DeckhandHome.OWNER_TOKEN);
        String token;
        try {
            token = Files.readString(tokenFile, StandardCharsets.US_ASCII).trim();
        } catch (NoSuchFileException e) {
            err.println("deckhand signin: no owner token in " + home + ": no Deckhand has started with this config "
                    + "directory (start it with 'deckhand', or set DECKHAND_HOME)");
            return NO_SERVER;
        } catch (IOException e) {
            err.println("deckhand signin: cannot read " + tokenFile + ": " + e.getMessage());
            return REFUSED;
        }
        String base = "http://127.0.0.1:" + port;
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/session/link"))
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (ConnectException | HttpConnectTimeoutException e) {
            err.println("deckhand signin: no Deckhand server answers on 127.0.0.1:" + port
                    + " (start it with 'deckhand'; QUARKUS_HTTP_PORT names another port)");
            return NO_SERVER;
        } catch (IOException e) {
            err.println("deckhand signin: the server on 127.0.0.1:" + port + " did not answer: " + e.getMessage());
            return NO_SERVER;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return REFUSED;
        }
        if (response.statusCode() == 401) {
            err.println("deckhand signin: the server on 127.0.0.1:" + port + " refused the owner token of " + home
                    + " (a Deckhand with another config directory? or the token was replaced as it was read: while a"
                    + " granted terminal, or a program started under one, may read Deckhand's files, every read of"
                    + " the token replaces it — the server's log says which; sign in once it has ended)");
            return REFUSED;
        }
        String link = null;
        try {
            JsonNode body = JsonMappers.strict().readTree(response.body());
            if (response.statusCode() == 200 && body.path("link").isTextual())
                link = body.path("link").asText();
        } catch (IOException e) {
            link = null;
        }
        if (link == null || !link.startsWith(base + "/signin?code=")) {
            err.println("deckhand signin: the server on 127.0.0.1:" + port + " answered HTTP " + response.statusCode()
                    + " without a sign-in link");
            return REFUSED;
        }
        err.println(
                "deckhand signin: open this link in your browser; it signs the browser in once (valid 10 minutes):");
        out.println(link);
        out.flush();
        return PRINTED;
    }
}

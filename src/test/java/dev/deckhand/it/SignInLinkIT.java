package dev.deckhand.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The start banner's one-time sign-in link goes to the person's terminal (the controlling terminal) only: with
 * standard output and error sent to a file, as {@code deckhand > server.log 2>&1} does, the file never holds a
 * code — with a terminal (a pseudo-terminal from {@code script}) and without one ({@code setsid}).
 */
@Tag("e2e")
class SignInLinkIT {

    private static final Pattern LINK = Pattern.compile("http://127\\.0\\.0\\.1:\\d+/signin\\?code=[A-Za-z0-9_-]+");

    @Test
    void withATerminalTheLinkGoesToItAndNotToTheRedirectedOutput() throws Exception {
        Path home = Files.createTempDirectory("deckhand-link-tty");
        Path log = home.resolve("server.log");
        Path typescript = home.resolve("terminal.txt");
        int port = PackagedApp.freePort();
        String server = String.join(" ", quoted(PackagedApp.command())) + " > " + log + " 2>&1";
        ProcessBuilder pb = new ProcessBuilder("script", "-qfec", server, typescript.toString())
                .redirectOutput(home.resolve("script.out").toFile())
                .redirectErrorStream(true);
        PackagedApp.environment(pb.environment(), home, port);
        Process script = pb.start();
        try {
            awaitReady(script, home, port, log);
            Matcher m = awaitLink(typescript);
            assertFalse(Files.readString(log).contains("signin?code="), "the redirected output holds no code");
            HttpResponse<String> r = HttpClient.newBuilder()
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .build()
                    .send(HttpRequest.newBuilder(URI.create(m.group())).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(303, r.statusCode(), "the terminal's link signs a browser in");
        } finally {
            end(script);
        }
        assertFalse(Files.readString(log).contains("signin?code="), Files.readString(log));
    }

    @Test
    void withoutATerminalNoCodeIsPrintedAnywhere() throws Exception {
        Path home = Files.createTempDirectory("deckhand-link-notty");
        Path log = home.resolve("server.log");
        int port = PackagedApp.freePort();
        List<String> cmd = new ArrayList<>(List.of("setsid"));
        cmd.addAll(PackagedApp.command());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        PackagedApp.environment(pb.environment(), home, port);
        Process server = pb.start();
        try {
            awaitReady(server, home, port, log);
            // the banner and its sign-in line come once the server is up
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.readString(log).contains("run 'deckhand signin' in yours") && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            String out = Files.readString(log);
            assertTrue(out.contains("run 'deckhand signin' in yours"), out);
            assertFalse(out.contains("signin?code="), out);
        } finally {
            end(server);
        }
    }

    private static void awaitReady(Process p, Path home, int port, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) throw new IllegalStateException("server exited: " + readQuietly(log));
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                if (Files.exists(home.resolve("mcp-token"))) return;
            } catch (java.io.IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("server did not answer within 60 s: " + readQuietly(log));
    }

    private static Matcher awaitLink(Path typescript) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Matcher m = LINK.matcher(readQuietly(typescript));
            if (m.find()) return m;
            Thread.sleep(100);
        }
        throw new AssertionError("no sign-in link on the terminal: " + readQuietly(typescript));
    }

    /** Ends the process and everything it started, by process id. */
    private static void end(Process p) throws InterruptedException {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.forEach(ProcessHandle::destroy);
        p.destroy();
        for (ProcessHandle h : all)
            h.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(t -> h).join();
        if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly().waitFor();
        all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static List<String> quoted(List<String> args) {
        return args.stream().map(a -> "'" + a.replace("'", "'\\''") + "'").toList();
    }

    private static String readQuietly(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}

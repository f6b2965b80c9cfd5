package dev.deckhand.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The packaged application ({@code quarkus-run.jar}) in a child process with its own config
 * directory and a free port; ended by its process id.
 */
final class PackagedApp implements AutoCloseable {

    final Path home;
    final int port;
    final Process process;
    final Path log;

    private PackagedApp(Path home, int port, Process process, Path log) {
        this.home = home;
        this.port = port;
        this.process = process;
        this.log = log;
    }

    static Path jar() {
        String jar = System.getProperty("deckhand.app.jar", "target/quarkus-app/quarkus-run.jar");
        Path path = Path.of(jar);
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException("the packaged application is missing at " + path + "; run 'mvn verify'");
        }
        return path.toAbsolutePath();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar().toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    static void environment(Map<String, String> env, Path home, int port) {
        env.put("DECKHAND_HOME", home.toString());
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port));
    }

    /** Starts {@code deckhand} (HTTP) and waits until it answers. */
    static PackagedApp startHttp() throws Exception {
        return startHttp(Map.of());
    }

    /** {@link #startHttp()} with {@code extraEnv} added to the server's environment. */
    static PackagedApp startHttp(Map<String, String> extraEnv) throws Exception {
        return startHttp(extraEnv, java.util.Set.of());
    }

    /**
     * {@link #startHttp()} with {@code extraEnv} added to the server's environment and {@code unset} taken out of it
     * ({@code DECKHAND_PRIVATE_DESKTOP}: the virtual desktop then counts as the person's).
     */
    static PackagedApp startHttp(Map<String, String> extraEnv, java.util.Set<String> unset) throws Exception {
        Path home = Files.createTempDirectory("deckhand-it-home");
        Path log = home.resolve("server.log");
        int port = freePort();
        ProcessBuilder pb =
                new ProcessBuilder(command()).redirectErrorStream(true).redirectOutput(log.toFile());
        environment(pb.environment(), home, port);
        pb.environment().putAll(extraEnv);
        unset.forEach(pb.environment()::remove);
        PackagedApp app = new PackagedApp(home, port, pb.start(), log);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (!app.process.isAlive()) throw new IllegalStateException("server exited: " + Files.readString(log));
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                if (Files.exists(home.resolve("mcp-token"))) return app;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        app.close();
        throw new IllegalStateException("server did not answer within 60 s: " + Files.readString(log));
    }

    String mcpUrl() {
        return "http://127.0.0.1:" + port + "/mcp";
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS))
            process.destroyForcibly().waitFor();
    }
}

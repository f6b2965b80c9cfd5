package dev.deckhand.e2e;

import dev.deckhand.platform.atspi.TestApp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A yad dialog started by the test with private XDG_* directories, whose exit code and standard output
 * (yad prints a form's values when OK is pressed) the test reads; ended by its PID only.
 */
final class Yad implements AutoCloseable {

    private final Process process;
    private final Path home;

    private Yad(Process process, Path home) {
        this.process = process;
        this.home = home;
    }

    static Yad launch(String... args) throws IOException {
        TestApp.requireDesktop();
        Path home = Files.createTempDirectory("deckhand-e2e-yad");
        List<String> command = new ArrayList<>(List.of("yad"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(home.resolve("out.txt").toFile())
                .redirectError(home.resolve("err.txt").toFile());
        pb.environment().remove("NO_AT_BRIDGE");
        pb.environment().remove("GTK_A11Y");
        pb.environment()
                .put(
                        "XDG_CONFIG_HOME",
                        Files.createDirectories(home.resolve("config")).toString());
        pb.environment()
                .put(
                        "XDG_DATA_HOME",
                        Files.createDirectories(home.resolve("data")).toString());
        pb.environment()
                .put(
                        "XDG_CACHE_HOME",
                        Files.createDirectories(home.resolve("cache")).toString());
        pb.environment().put("GDK_BACKEND", "x11");
        return new Yad(pb.start(), home);
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The exit code once yad has exited within {@code seconds}, or null while it still runs. */
    Integer exitCode(long seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : null;
    }

    /** What yad printed on standard output (a form's values, separated by '|', when OK was pressed). */
    String output() throws IOException {
        return Files.readString(home.resolve("out.txt"), StandardCharsets.UTF_8);
    }

    /** Activates window {@code windowId} and presses Return through XTEST (the person pressing OK). */
    static void pressReturnIn(long windowId) throws IOException, InterruptedException {
        run("xdotool", "windowactivate", "--sync", Long.toString(windowId));
        Thread.sleep(300);
        run("xdotool", "key", "Return");
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within 10 s");
        }
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(3, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(3, TimeUnit.SECONDS);
        }
        try (Stream<Path> walk = Files.walk(home)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}

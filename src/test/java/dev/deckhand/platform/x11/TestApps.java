package dev.deckhand.platform.x11;

import dev.deckhand.loop.desktop.WindowInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Starts real apps for desktop tests, each with private XDG config/data/cache directories, and ends
 * them by PID. Waits are bounded polls, never timed assertions.
 */
final class TestApps implements AutoCloseable {

    private final List<Process> started = new ArrayList<>();
    private final Path home;

    TestApps() throws IOException {
        this.home = Files.createTempDirectory("deckhand-x11-test");
    }

    /** The DISPLAY the tests run on; fails with a message naming the script when there is none. */
    static String requireDisplay() {
        String display = System.getenv("DISPLAY");
        if (display == null || display.isBlank()) {
            throw new IllegalStateException("DISPLAY is not set: the X11 tests need the private virtual desktop. "
                    + "Run them through scripts/test.sh or `scripts/desktop.sh run -- mvn -o -pl src test "
                    + "-Dtest='dev.deckhand.platform.x11.**' -Dsurefire.failIfNoSpecifiedTests=false`");
        }
        return display;
    }

    Path home() {
        return home;
    }

    /** Starts {@code command} with private XDG dirs and the X11 backends forced. */
    Process start(String name, String... command) throws IOException {
        Path dir = Files.createDirectories(home.resolve(name));
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> env = pb.environment();
        env.put(
                "XDG_CONFIG_HOME",
                Files.createDirectories(dir.resolve("config")).toString());
        env.put("XDG_DATA_HOME", Files.createDirectories(dir.resolve("data")).toString());
        env.put("XDG_CACHE_HOME", Files.createDirectories(dir.resolve("cache")).toString());
        env.put("GDK_BACKEND", "x11");
        env.put("QT_QPA_PLATFORM", "xcb");
        pb.redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile());
        Process p = pb.start();
        started.add(p);
        return p;
    }

    /** Polls until a window matches (bounded). */
    static WindowInfo awaitWindow(X11Display x, Predicate<WindowInfo> match, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            Optional<WindowInfo> w = x.windows().stream().filter(match).findFirst();
            if (w.isPresent() && w.get().visible()) return w.get();
            sleep(50);
        }
        throw new AssertionError("no window for " + what + " within 20 s; windows: " + x.windows());
    }

    /** Polls {@code condition} (bounded); returns whether it became true. */
    static boolean await(BooleanSupplier condition, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) return true;
            sleep(50);
        }
        return condition.getAsBoolean();
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }

    /** Runs an external actor (xdotool) and waits for it. */
    static int run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor();
        } catch (IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }

    @Override
    public void close() {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : started) {
            try {
                if (!p.waitFor(3, java.util.concurrent.TimeUnit.SECONDS)) p.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (var files = Files.walk(home)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }
}

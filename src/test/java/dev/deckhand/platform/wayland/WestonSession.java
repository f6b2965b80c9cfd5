package dev.deckhand.platform.wayland;

import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.x11.RootProperty;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A headless weston compositor the test starts beside the virtual X desktop it runs in, as GNOME runs
 * Wayland beside XWayland: its clients register on the same accessibility bus as the X apps (the
 * desktop's {@code AT_SPI_BUS}), so the test JVM sees both. weston is ended by its PID.
 */
public final class WestonSession implements AutoCloseable {

    static final String SOCKET = "wayland-deckhand-test";

    private final Path runtime;
    private final Process weston;
    private final String a11yBus;

    private WestonSession(Path runtime, Process weston, String a11yBus) {
        this.runtime = runtime;
        this.weston = weston;
        this.a11yBus = a11yBus;
    }

    /** Starts weston and waits (bounded) for its socket. */
    public static WestonSession start() throws IOException, InterruptedException {
        TestApp.requireDesktop();
        String bus = System.getenv("DECKHAND_DESKTOP_A11Y_BUS");
        if (bus == null || bus.isBlank()) {
            bus = RootProperty.read(System.getenv("DISPLAY"), "AT_SPI_BUS")
                    .orElseThrow(() -> new AssertionError("the virtual desktop has no AT_SPI_BUS"));
        }
        Path runtime = Files.createTempDirectory(
                "deckhand-weston", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        ProcessBuilder pb = new ProcessBuilder(
                        "weston",
                        "--backend=headless-backend.so",
                        "--socket=" + SOCKET,
                        "--idle-time=0",
                        "--use-pixman",
                        "--width=1280",
                        "--height=800")
                .redirectErrorStream(true)
                .redirectOutput(runtime.resolve("weston.log").toFile());
        pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        pb.environment().remove("DISPLAY");
        Process weston = pb.start();
        WestonSession session = new WestonSession(runtime, weston, bus);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.exists(runtime.resolve(SOCKET))) {
            if (!weston.isAlive() || System.nanoTime() > deadline) {
                String log = session.log();
                session.close();
                throw new AssertionError("weston did not start within 10 s; log: " + log);
            }
            Thread.sleep(20);
        }
        return session;
    }

    /** A native Wayland client of this compositor, on the desktop's accessibility bus. */
    public TestApp launch(String... command) throws IOException {
        return TestApp.launchWayland(
                List.of(command),
                Map.of(
                        "WAYLAND_DISPLAY",
                        SOCKET,
                        "XDG_RUNTIME_DIR",
                        runtime.toString(),
                        "AT_SPI_BUS_ADDRESS",
                        a11yBus));
    }

    /** The compositor's socket as an absolute path (a WAYLAND_DISPLAY that needs no XDG_RUNTIME_DIR). */
    public String socketPath() {
        return runtime.resolve(SOCKET).toString();
    }

    public boolean alive() {
        return weston.isAlive();
    }

    String log() {
        try {
            return Files.readString(runtime.resolve("weston.log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log)";
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        weston.destroy();
        if (!weston.waitFor(3, TimeUnit.SECONDS)) {
            weston.destroyForcibly();
            weston.waitFor(3, TimeUnit.SECONDS);
        }
        try (Stream<Path> walk = Files.walk(runtime)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}

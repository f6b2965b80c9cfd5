package dev.deckhand.presence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Focus with the default commands against a real dunst on a private session bus, both started and
 * ended by this test by their PIDs: silenced during the run, restored after, each verified with
 * {@code dunstctl is-paused}; the GNOME flavour is left out because GNOME Shell is not on the bus.
 */
@Tag("desktop")
class DunstFocusTest {

    static PresenceConfig defaults() {
        SmallRyeConfig config =
                new SmallRyeConfigBuilder().withMapping(PresenceConfig.class).build();
        return config.getConfigMapping(PresenceConfig.class);
    }

    /** The private session bus this test starts, and the runner that puts commands on it. */
    private Process bus;

    private CommandRunner onBus;

    private String run(String... argv) {
        return onBus.run(List.of(argv), Duration.ofSeconds(5)).output().strip();
    }

    private String notificationOwnerPid() {
        return run(
                "dbus-send",
                "--session",
                "--print-reply",
                "--dest=org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus.GetConnectionUnixProcessID",
                "string:org.freedesktop.Notifications");
    }

    @Test
    void silencesARunningDunstAndRestoresIt() throws Exception {
        if (System.getenv("DISPLAY") == null) {
            throw new AssertionError(
                    "needs the virtual desktop: scripts/desktop.sh run -- mvn ... -Dtest=DunstFocusTest");
        }
        // A session bus of its own: on the desktop's bus another notification daemon may already own
        // the name (a browser's GetCapabilities call D-Bus-activates dunst there).
        bus = new ProcessBuilder("dbus-daemon", "--session", "--nofork", "--print-address=1")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        Process dunst = null;
        try {
            String address = new java.io.BufferedReader(new java.io.InputStreamReader(
                            bus.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))
                    .readLine();
            if (address == null || address.isBlank()) throw new AssertionError("dbus-daemon printed no address");
            onBus = CommandRunner.processes(java.util.Map.of("DBUS_SESSION_BUS_ADDRESS", address.strip()));
            ProcessBuilder pb = new ProcessBuilder("dunst")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("DBUS_SESSION_BUS_ADDRESS", address.strip());
            dunst = pb.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!notificationOwnerPid().endsWith(" " + dunst.pid())) {
                if (!dunst.isAlive())
                    throw new AssertionError("dunst ended (another notification daemon owns the name?)");
                if (System.nanoTime() > deadline) throw new AssertionError("dunst did not take the notification name");
                Thread.sleep(50);
            }
            assertEquals("false", run("dunstctl", "is-paused"));
            Presence presence = new Presence();
            presence.config = defaults();
            presence.runner = onBus;
            presence.clock = java.time.Clock.systemUTC();
            long t0 = System.nanoTime();
            FocusMode.Hold hold = presence.focusMode().silence();
            long silenceMs = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("true", run("dunstctl", "is-paused"), "paused during the run: " + hold.events());
            t0 = System.nanoTime();
            hold.restore();
            long restoreMs = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("false", run("dunstctl", "is-paused"), "restored after the run");
            assertEquals(
                    List.of("gnome: not running", "dunst: silenced (was false)", "dunst: restored false"),
                    hold.events());
            System.out.printf("focus with dunst: silence %d ms, restore %d ms%n", silenceMs, restoreMs);
        } finally {
            if (dunst != null) {
                dunst.destroy();
                if (!dunst.waitFor(5, TimeUnit.SECONDS)) dunst.destroyForcibly();
            }
            bus.destroy();
            if (!bus.waitFor(5, TimeUnit.SECONDS)) bus.destroyForcibly();
        }
    }
}

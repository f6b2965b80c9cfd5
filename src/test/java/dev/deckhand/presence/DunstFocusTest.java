package dev.deckhand.presence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Focus with the default commands against a real dunst on the virtual desktop's session bus, started
 * and ended by this test by its PID: silenced during the run, restored after, each verified with
 * {@code dunstctl is-paused}; the GNOME flavour is left out because GNOME Shell is not on the bus.
 */
class DunstFocusTest {

    static PresenceConfig defaults() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(PresenceConfig.class).build();
        return config.getConfigMapping(PresenceConfig.class);
    }

    private static String run(String... argv) {
        return CommandRunner.PROCESSES.run(List.of(argv), Duration.ofSeconds(5)).output().strip();
    }

    private static String notificationOwnerPid() {
        return run("dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.freedesktop.Notifications");
    }

    @Test
    void silencesARunningDunstAndRestoresIt() throws Exception {
        String bus = System.getenv("DBUS_SESSION_BUS_ADDRESS");
        if (System.getenv("DISPLAY") == null || bus == null) {
            throw new AssertionError("needs the virtual desktop: scripts/desktop.sh run -- mvn ... -Dtest=DunstFocusTest");
        }
        Process dunst = new ProcessBuilder("dunst").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!notificationOwnerPid().endsWith(" " + dunst.pid())) {
                if (!dunst.isAlive()) throw new AssertionError("dunst ended (another notification daemon owns the name?)");
                if (System.nanoTime() > deadline) throw new AssertionError("dunst did not take the notification name");
                Thread.sleep(50);
            }
            assertEquals("false", run("dunstctl", "is-paused"));
            Presence presence = new Presence();
            presence.config = defaults();
            long t0 = System.nanoTime();
            FocusMode.Hold hold = presence.focusMode().silence();
            long silenceMs = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("true", run("dunstctl", "is-paused"), "paused during the run: " + hold.events());
            t0 = System.nanoTime();
            hold.restore();
            long restoreMs = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("false", run("dunstctl", "is-paused"), "restored after the run");
            assertEquals(List.of("gnome: not running", "dunst: silenced (was false)", "dunst: restored false"), hold.events());
            System.out.printf("focus with dunst: silence %d ms, restore %d ms%n", silenceMs, restoreMs);
        } finally {
            dunst.destroy();
            if (!dunst.waitFor(5, TimeUnit.SECONDS)) dunst.destroyForcibly();
        }
    }
}

package dev.deckhand.eval;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The eval desktop is ready only once its window manager manages windows. openbox sets
 * {@code _NET_SUPPORTING_WM_CHECK} before its startup is done, and a window mapped in between is never
 * managed (in a loaded container its startup took seconds, and a task's window "never appeared"). Here a
 * wrapper holds the real openbox still for 2 s right after that property appears, as a slow start would.
 */
@Tag("e2e")
class VirtualDesktopIT {

    @TempDir
    Path tmp;

    @Test
    void aWindowOpenedRightAfterTheStartIsManagedWhenTheWindowManagerIsSlowToStart() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path wrapper = bin.resolve("openbox");
        Files.writeString(wrapper, """
                #!/bin/sh
                openbox "$@" & o=$!
                trap 'kill $o' TERM INT
                until xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q "window id"; do :; done
                kill -STOP $o; sleep 2; kill -CONT $o
                wait $o
                """, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
        Path runtime = Files.createTempDirectory("deckhand-eval-rt-");
        try (VirtualDesktop desktop =
                VirtualDesktop.start(runtime, Duration.ofSeconds(30), List.of(wrapper.toString(), "--sm-disable"))) {
            desktop.launch(
                    List.of("xmessage", "-name", "deckhand-late-app", "a window right after the start"),
                    Map.of(),
                    runtime.resolve("app.log"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            String list = "";
            while (System.nanoTime() < deadline && !list.contains("# 0x")) {
                list = xprop(desktop, "_NET_CLIENT_LIST");
                Thread.sleep(50);
            }
            assertTrue(list.contains("# 0x"), "the window is managed (on the client list): " + list);
        }
    }

    private static String xprop(VirtualDesktop desktop, String property) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("xprop", "-root", property).redirectErrorStream(true);
        pb.environment().putAll(desktop.environment());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(5, TimeUnit.SECONDS);
        return out;
    }
}

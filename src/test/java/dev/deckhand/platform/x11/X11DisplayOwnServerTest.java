package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Cases that need an X server of their own, started and ended by PID here (a bare Xvfb, no window
 * manager): the server going away, and a server without XComposite.
 */
@Tag("desktop")
class X11DisplayOwnServerTest {

    /** A bare Xvfb on a free display number (200..299, beside scripts/desktop.sh's 90..199). */
    static final class OwnXvfb implements AutoCloseable {
        final Process process;
        final String display;

        OwnXvfb(String... extraArgs) throws IOException {
            int n = 200;
            while (n < 300
                    && (Files.exists(Path.of("/tmp/.X11-unix/X" + n))
                            || Files.exists(Path.of("/tmp/.X" + n + "-lock")))) n++;
            display = ":" + n;
            String[] cmd = new String[4 + extraArgs.length + 4];
            int i = 0;
            cmd[i++] = "Xvfb";
            cmd[i++] = display;
            cmd[i++] = "-screen";
            cmd[i++] = "0";
            cmd[i++] = "640x480x24";
            for (String a : extraArgs) cmd[i++] = a;
            cmd[i++] = "-nolisten";
            cmd[i++] = "tcp";
            cmd[i] = "-noreset";
            process = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            boolean up = TestApps.await(
                    () -> Files.exists(Path.of("/tmp/.X11-unix/X" + display.substring(1))), Duration.ofSeconds(10));
            if (!up) {
                close();
                throw new IllegalStateException("Xvfb " + display + " did not start");
            }
        }

        X11Display open() {
            // Retry briefly: the socket can exist a moment before the server accepts clients.
            RefusedException last = null;
            for (int i = 0; i < 50; i++) {
                try {
                    return X11Display.open(Map.of("DISPLAY", display, X11Display.PRIVATE_DESKTOP_ENV, "1"));
                } catch (RefusedException e) {
                    last = e;
                    TestApps.sleep(100);
                }
            }
            throw last;
        }

        @Override
        public void close() {
            process.destroy();
            try {
                if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS))
                    process.destroyForcibly().waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void lostServerIsHeadlessNotAnExit() throws Exception {
        try (OwnXvfb server = new OwnXvfb()) {
            X11Display x = server.open();
            assertTrue(x.windows().isEmpty(), "no window manager, no client list");
            server.close();
            // Xlib's default I/O error path would exit() the JVM here; we must get a refusal instead.
            RefusedException e = assertThrows(RefusedException.class, () -> {
                for (int i = 0; i < 3; i++) x.windows();
            });
            assertEquals(RefusalCode.HEADLESS, e.code(), e.getMessage());
            assertThrows(RefusedException.class, x::keyboardGrabbed);
            x.close();
        }
    }

    @Test
    void withoutCompositeCaptureIsAScreenCrop() throws Exception {
        try (OwnXvfb server = new OwnXvfb("-extension", "Composite");
                X11Display x = server.open();
                OtherClient other = new OtherClient(server.display)) {
            assertFalse(x.compositeCapture(), "Composite disabled on this server");
            long covered = other.solidWindow("covered", 50, 50, 200, 100, 0x0000ff);
            other.solidWindow("cover", 150, 50, 200, 100, 0xff0000);
            assertTrue(TestApps.await(() -> x.grab(covered).rgb(10, 10) == 0x0000ff, Duration.ofSeconds(5)), "painted");
            RgbImage img = x.grab(covered);
            assertEquals(0x0000ff, img.rgb(20, 50), "uncovered part is the window's own");
            assertEquals(0xff0000, img.rgb(150, 50), "covered part shows the cover: the documented fallback limit");
        }
    }
}

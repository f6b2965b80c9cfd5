package dev.deckhand.platform.linux;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Whether a process loads an accessibility bridge (docs/design.md#the-run-loop), read from the shared libraries it has
 * mapped ({@code /proc/PID/maps}): such an app is expected to register on the accessibility bus, so a
 * window of it that has not yet is starting, not tree-less. GTK 3 (and apps on it: LibreOffice's VCL,
 * Java's ATK wrapper) load the ATK bridge; GTK 4 and Qt carry their own. A GTK 3 app started with
 * {@code NO_AT_BRIDGE=1} still maps the bridge and never registers: it is waited for, then refused.
 */
final class BridgeLibraries {

    /** Library names whose presence means the process speaks AT-SPI once its toolkit starts it. */
    static final List<String> BRIDGES =
            List.of("libatk-bridge-2.0.so", "libgtk-4.so", "libQt5Gui.so", "libQt6Gui.so", "libatk-wrapper.so");

    private BridgeLibraries() {}

    /** True when process {@code pid} has one of {@link #BRIDGES} mapped; false when it has not or cannot be read. */
    static boolean loaded(int pid) {
        if (pid < 0) return false;
        try (Stream<String> lines =
                Files.lines(Path.of("/proc", Integer.toString(pid), "maps"), StandardCharsets.ISO_8859_1)) {
            return lines.limit(50_000).anyMatch(BridgeLibraries::names);
        } catch (IOException | UncheckedIOException gone) {
            return false;
        }
    }

    static boolean names(String mapsLine) {
        for (String b : BRIDGES) {
            if (mapsLine.contains(b)) return true;
        }
        return false;
    }
}

package dev.deckhand.doctor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The UI toolkit a process draws with, read from the shared libraries it has mapped
 * ({@code /proc/<pid>/maps}); {@link #UNKNOWN} when none is recognised or the file cannot be read.
 * Each toolkit names how its accessibility is turned on and how Deckhand's keys reach it.
 */
public enum Toolkit {
    GTK4(
            "GTK 4",
            "unset NO_AT_BRIDGE and GTK_A11Y (GTK_A11Y=none turns accessibility off), then restart the app",
            "XTEST while the window has input focus; keys for an unfocused GTK 4 window are refused (GTK 4 ignores "
                    + "synthetic key events), so Deckhand acts on its elements by uid"),
    GTK3(
            "GTK 3",
            "unset NO_AT_BRIDGE and GTK_A11Y, make sure at-spi2-core (the ATK bridge) is installed, then restart the app",
            "XTEST while the window has input focus, otherwise key events sent to the window (XSendEvent), never moving focus"),
    QT(
            "Qt",
            "start the app with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 (Qt 5 also reads QT_ACCESSIBILITY=1)",
            "XTEST while the window has input focus, otherwise key events sent to the window (XSendEvent)"),
    JAVA(
            "Java (Swing/AWT)",
            "install the ATK wrapper (libatk-wrapper-java) and enable "
                    + "assistive_technologies=org.GNOME.Accessibility.AtkWrapper in accessibility.properties",
            "XTEST while the window has input focus, otherwise key events sent to the window (XSendEvent)"),
    CHROMIUM(
            "Chromium/Electron",
            "start the app with --force-renderer-accessibility",
            "XTEST while the window has input focus, otherwise key events sent to the window (XSendEvent)"),
    UNKNOWN(
            "unrecognised toolkit",
            "the app exposes no accessibility tree Deckhand can read; only a pixels grant can see it",
            "XTEST while the window has input focus, otherwise key events sent to the window (XSendEvent)");

    private final String label;
    private final String enableA11y;
    private final String keyboardPath;

    Toolkit(String label, String enableA11y, String keyboardPath) {
        this.label = label;
        this.enableA11y = enableA11y;
        this.keyboardPath = keyboardPath;
    }

    public String label() {
        return label;
    }

    /** How to turn the toolkit's accessibility on, in words. */
    public String enableA11y() {
        return enableA11y;
    }

    /** How Deckhand's key chords and typing reach a window of this toolkit. */
    public String keyboardPath() {
        return keyboardPath;
    }

    /** The toolkit of process {@code pid}; {@link #UNKNOWN} for a negative pid or an unreadable map. */
    public static Toolkit of(int pid) {
        if (pid < 0) return UNKNOWN;
        try (Stream<String> lines =
                Files.lines(Path.of("/proc", Integer.toString(pid), "maps"), StandardCharsets.ISO_8859_1)) {
            return fromMaps(lines.limit(20_000));
        } catch (IOException | java.io.UncheckedIOException e) {
            return UNKNOWN;
        }
    }

    static Toolkit fromMaps(Stream<String> lines) {
        boolean gtk3 = false, qt = false, java = false, chromium = false;
        for (String line : (Iterable<String>) lines::iterator) {
            if (line.contains("libgtk-4.so")) return GTK4;
            if (line.contains("libgtk-3.so")) gtk3 = true;
            if (line.contains("libQt5Gui.so") || line.contains("libQt6Gui.so")) qt = true;
            if (line.contains("libjvm.so") || line.contains("libawt_xawt.so")) java = true;
            if (line.contains("/chromium/") || line.contains("libffmpeg.so") || line.contains("libnode.so"))
                chromium = true;
        }
        if (qt) return QT;
        if (chromium) return CHROMIUM;
        if (java) return JAVA;
        if (gtk3) return GTK3;
        return UNKNOWN;
    }
}

package dev.deckhand.home;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The person's own terminal: the process's controlling terminal ({@code /dev/tty}), whatever its standard output
 * and error are redirected to. A one-time sign-in link goes here and nowhere else: standard error sent to a file
 * ({@code deckhand > server.log 2>&1}) is a log that keeps the code, and a log collector may ship it elsewhere.
 */
public final class PersonsTerminal {

    private static final String DEVICE = "/dev/tty";

    private PersonsTerminal() {}

    /**
     * Writes {@code line} to the controlling terminal.
     *
     * @return false when the process has none (a service, a container, CI), and nothing was written
     */
    public static boolean tell(String line) {
        try (FileOutputStream tty = new FileOutputStream(DEVICE)) {
            tty.write((line + System.lineSeparator()).getBytes(StandardCharsets.UTF_8));
            tty.flush();
            return true;
        } catch (IOException noTerminal) {
            return false;
        }
    }
}

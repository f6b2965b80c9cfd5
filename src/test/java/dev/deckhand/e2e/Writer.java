package dev.deckhand.e2e;

import dev.deckhand.platform.atspi.TestApp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** LibreOffice Writer on a file of its own, with a profile of its own, as the end-to-end tests start it. */
final class Writer {

    private Writer() {}

    /** Writer open on {@code memo.txt} holding {@code text}, in a new directory; {@link #window} then names it. */
    static TestApp launch(String text) throws IOException {
        Path dir = Files.createTempDirectory("deckhand-e2e");
        Path file = dir.resolve("memo.txt");
        Files.writeString(file, text);
        return TestApp.launch(List.of(
                "soffice",
                "--writer",
                "--nologo",
                "--norestore",
                "--nodefault",
                "-env:UserInstallation=file://" + dir + "/lo-profile",
                file.toString()));
    }

    /**
     * The id of Writer's window on the memo, once the owner's window list offers it: a first start on a new profile
     * restarts soffice once, so its window may take longer than the picker's wait.
     */
    static long window() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 90_000_000_000L;
        while (Desk.windowsNamed("memo").isEmpty() && System.nanoTime() < deadline) Thread.sleep(250);
        return Owner.awaitWindow("libreoffice-writer", "memo");
    }
}

package dev.deckhand.home;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** The tokens of the test config directory ({@code target/test-home}), for the MCP client and the owner API. */
public final class TestTokens {

    private TestTokens() {}

    /**
     * A token of the test config directory, read as Deckhand reads its own secret files ({@code SecretFileReads}):
     * the tests share the server's process, and a harness that reads the token before every request is not the
     * person's script a foreign open stands for (while a grant of an app that runs commands is watched, a foreign
     * open revokes it and replaces the owner token). The tests of foreign opens open the files from real processes.
     */
    public static String read(String file) {
        try {
            return SecretFileReads.read(Path.of("target/test-home").resolve(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

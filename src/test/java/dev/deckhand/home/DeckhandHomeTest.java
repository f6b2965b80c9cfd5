package dev.deckhand.home;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("pure")
class DeckhandHomeTest {

    @TempDir
    Path tmp;

    @Test
    void secretsAreCreatedOnceWithMode0600InA0700Directory() throws Exception {
        DeckhandHome home = DeckhandHome.resolve(tmp.resolve("cfg").toString());
        String mcp = home.secret(DeckhandHome.MCP_TOKEN);
        String owner = home.secret(DeckhandHome.OWNER_TOKEN);
        assertNotEquals(mcp, owner);
        assertEquals(43, mcp.length(), "32 random bytes, base64url");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.file("mcp-token"))));
        assertEquals(
                "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.file("owner-token"))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.dir())));
        assertEquals(
                mcp,
                DeckhandHome.resolve(tmp.resolve("cfg").toString()).secret(DeckhandHome.MCP_TOKEN),
                "a second start reads the same token");
    }

    @Test
    void aSecretFileReadableByOthersIsTightened() throws Exception {
        DeckhandHome home = DeckhandHome.resolve(tmp.toString());
        String token = home.secret(DeckhandHome.MCP_TOKEN);
        Files.setPosixFilePermissions(home.file("mcp-token"), PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(token, home.secret(DeckhandHome.MCP_TOKEN));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.file("mcp-token"))));
    }
}

package dev.deckhand.home;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("pure")
class KnownSecretsTest {

    @TempDir
    Path dir;

    @Test
    void the_secret_files_are_known_and_read_again_when_they_change() throws Exception {
        DeckhandHome home = DeckhandHome.resolve(dir.toString());
        String owner = home.secret(DeckhandHome.OWNER_TOKEN);
        String mcp = home.secret(DeckhandHome.MCP_TOKEN);
        KnownSecrets known = new KnownSecrets(home);
        assertEquals(Optional.of("owner token"), known.current().which("x" + owner.substring(owner.length() - 17)));
        assertEquals(Optional.of("MCP token"), known.current().which(mcp));
        assertFalse(known.current().foundIn("sk-live-AAAABBBBCCCCDDDDEEEE"));

        Files.writeString(home.file(DeckhandHome.MODEL_API_KEY), "sk-live-AAAABBBBCCCCDDDDEEEE\n");
        assertEquals(Optional.of("model API key"), known.current().which("AAAA BBBB CCCC DDDD"));
        String rotated = "rotated-0123456789abcdefghijklmnopqrstuvwxyz";
        Files.writeString(home.file(DeckhandHome.OWNER_TOKEN), rotated + "\n");
        assertTrue(known.current().foundIn(rotated.substring(10)));
        assertFalse(known.current().foundIn(owner), "the old owner token is no longer Deckhand's");
        assertEquals(
                "a [withheld] b",
                PublishedSecrets.withhold("a " + rotated.substring(8) + " b"),
                "published for the log filter");
    }

    @Test
    void held_secrets_count_while_held() {
        KnownSecrets known = new KnownSecrets(DeckhandHome.resolve(dir.toString()));
        String code = "c0de-that-lives-in-memory-only-42";
        known.hold(code, "sign-in code");
        assertEquals(Optional.of("sign-in code"), known.current().which(code));
        known.release(code);
        assertFalse(known.current().foundIn(code));
    }
}

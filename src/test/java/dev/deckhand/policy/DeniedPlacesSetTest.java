package dev.deckhand.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.DeniedPlaces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The denied places as the server builds them — from the config directory and the file verifier's built-in
 * set, links resolved on the real file system — against generated spellings that reach the config directory
 * and {@code ~/.ssh} through real symbolic links: a link to the directory, a link to a file in it (existing or
 * not yet), a link inside a link, each with a trailing slash, {@code //}, {@code ..}, upper case, {@code ~},
 * {@code $HOME}, {@code file://} and percent-encoding.
 */
@Tag("pure")
class DeniedPlacesSetTest {

    @TempDir
    Path dir;

    @Test
    void linksIntoTheConfigDirectoryOrSshAreResolvedOnTheFileSystem() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path config = Files.createDirectories(dir.resolve("state/deck-home"));
        Files.writeString(config.resolve("owner-token"), "secret");
        Path ssh = Files.createDirectories(home.resolve(".ssh"));
        Files.writeString(ssh.resolve("id_ed25519"), "key");
        Path pub = Files.createDirectories(home.resolve("Public"));
        Files.createSymbolicLink(pub.resolve("state-link"), config);
        Files.createSymbolicLink(pub.resolve("token-link"), config.resolve("owner-token"));
        Files.createSymbolicLink(pub.resolve("later-link"), config.resolve("not-yet"));
        Files.createSymbolicLink(pub.resolve("keys"), ssh);
        Files.createSymbolicLink(pub.resolve("via"), pub);
        DeniedPlaces places = new FileVerifierScope(home, config).deniedPlaces();

        String cfg = "Deckhand's config directory";
        List<String[]> cases = List.of(
                new String[] {"~/Public/state-link/owner-token", cfg}, new String[] {"~/Public/state-link", cfg},
                new String[] {"~/Public/token-link", cfg}, new String[] {"~/Public/later-link", cfg},
                new String[] {"~/Public/via/via/state-link/", cfg}, new String[] {"~/Public/keys/id_ed25519", "~/.ssh"},
                new String[] {"~/Public/via/keys", "~/.ssh"}, new String[] {config + "/owner-token", cfg});
        int checked = 0;
        for (String[] c : cases) {
            for (String spelled : List.of(
                    c[0],
                    c[0] + "/",
                    c[0].replace("/", "//"),
                    c[0].replace("Public/", "Public/x/../"),
                    c[0].replace("~", "$HOME"),
                    c[0].replace("~", home.toString()),
                    "file://" + c[0].replace("~", home.toString()),
                    "file://"
                            + c[0].replace("~", home.toString())
                                    .replace("/", "%2F")
                                    .replace("e", "%65"),
                    "open \"" + c[0] + "\" now")) {
                assertEquals(Optional.of(c[1]), places.inText(spelled, Optional.empty()), spelled);
                checked++;
            }
        }
        // A chooser showing ~/Public: the row "state-link" is the config directory
        assertEquals(Optional.of(cfg), places.inText("state-link", Optional.of(pub)));
        // upper case reaches the places by name even where the file system would not follow the link
        assertEquals(
                Optional.of(cfg),
                places.inText(config.toString().toUpperCase(Locale.ROOT) + "/OWNER-TOKEN", Optional.empty()));
        // the verifier's other places
        assertEquals(
                Optional.of("the keyrings"), places.inText("~/.local/share/keyrings/login.keyring", Optional.empty()));
        assertEquals(
                Optional.of("a browser profile"),
                places.inText("file://" + home + "/snap/firefox/common", Optional.empty()));
        assertEquals(Optional.of("/proc"), places.inText("/proc/self/environ", Optional.empty()));
        assertEquals(Optional.of("~/.gnupg"), places.inText("~/.gnupg/private-keys-v1.d", Optional.empty()));
        // controls: the link's own folder, a sibling of the config directory, a dangling link to nowhere denied
        Files.createSymbolicLink(pub.resolve("elsewhere"), dir.resolve("state/other"));
        for (String t : List.of(
                "~/Public",
                "~/Public/elsewhere/x",
                dir.resolve("state/deck-home-2").toString(),
                "~/Public/via")) {
            assertEquals(Optional.empty(), places.inText(t, Optional.empty()), t);
        }
        assertTrue(checked >= 70, "checked " + checked);
    }
}

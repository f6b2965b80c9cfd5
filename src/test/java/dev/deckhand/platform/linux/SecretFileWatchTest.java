package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.home.DeckhandHome;
import dev.deckhand.home.SecretFileReads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watch of the secret files on the real kernel (inotify): Deckhand's own reads are not foreign, every
 * other process's open is — through the directory, through a hard link elsewhere, and of a file replaced
 * since the watch began — and opening other files of the directory or listing it is not.
 */
@Tag("app")
class SecretFileWatchTest {

    @TempDir
    Path tmp;

    private DeckhandHome home;
    private SecretFileWatch watch;

    @BeforeEach
    void start() {
        home = DeckhandHome.resolve(tmp.resolve("home").toString());
        home.secret(DeckhandHome.OWNER_TOKEN);
        home.secret(DeckhandHome.MCP_TOKEN);
        watch = new SecretFileWatch(home);
    }

    @AfterEach
    void stop() {
        watch.close();
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertEquals(0, p.waitFor(), List.of(command).toString());
    }

    @Test
    void deckhandsOwnReadsAreNotForeignAnotherProcesssAreAndNameTheFile() throws Exception {
        long mark = watch.foreignCount();
        for (int i = 0; i < 20; i++) SecretFileReads.read(home.file(DeckhandHome.OWNER_TOKEN));
        home.secret(DeckhandHome.MCP_TOKEN);
        assertEquals(Set.of(), watch.foreignSince(mark), "Deckhand's own reads");

        run(
                "sh",
                "-c",
                "rev < \"$0\" > /dev/null",
                home.file(DeckhandHome.OWNER_TOKEN).toString());
        assertEquals(Set.of(DeckhandHome.OWNER_TOKEN), watch.foreignSince(mark));
        long after = watch.foreignCount();
        assertEquals(Set.of(), watch.foreignSince(after), "a later mark sees nothing older");
    }

    @Test
    void listingTheDirectoryAndOpeningItsOtherFilesIsNotARead() throws Exception {
        Files.writeString(home.file(DeckhandHome.POLICY), "{}");
        long mark = watch.foreignCount();
        run(
                "sh",
                "-c",
                "ls -la \"$0\" > /dev/null; cat \"$0/policy.json\" > /dev/null; stat \"$0/owner-token\" > /dev/null",
                home.dir().toString());
        assertEquals(Set.of(), watch.foreignSince(mark));
    }

    @Test
    void aHardLinkElsewhereIsTheSameFile() throws Exception {
        Path link = tmp.resolve("innocent.txt");
        Files.createLink(link, home.file(DeckhandHome.MCP_TOKEN));
        long mark = watch.foreignCount();
        run("cat", link.toString());
        assertEquals(Set.of(DeckhandHome.MCP_TOKEN), watch.foreignSince(mark));
    }

    /**
     * Round 8 (H1): a granted shell made a hard link to {@code owner-token}, which opens nothing, and an app that runs
     * no commands showed it in a later grant. A new link is a copy: a foreign read of that file. A change of its mode
     * (one name still) is not.
     */
    @Test
    void aNewHardLinkIsACopyMadeWithoutAnOpen() throws Exception {
        long mark = watch.foreignCount();
        run("chmod", "600", home.file(DeckhandHome.MCP_TOKEN).toString());
        assertEquals(Set.of(), watch.foreignSince(mark), "a mode change is no copy");
        run(
                "ln",
                home.file(DeckhandHome.OWNER_TOKEN).toString(),
                tmp.resolve("notes.txt").toString());
        assertEquals(Set.of(DeckhandHome.OWNER_TOKEN), watch.foreignSince(mark));
    }

    /** Round 9 (HM3): {@code mv owner-token /tmp/x} keeps the token under another name with no open and no link. */
    @Test
    void aSecretFileMovedAwayIsACopyMadeWithoutAnOpen() throws Exception {
        long mark = watch.foreignCount();
        run(
                "mv",
                home.file(DeckhandHome.OWNER_TOKEN).toString(),
                tmp.resolve("n9o").toString());
        assertEquals(Set.of(DeckhandHome.OWNER_TOKEN), watch.foreignSince(mark));
        long after = watch.foreignCount();
        home.replaceSecret(DeckhandHome.MCP_TOKEN);
        assertEquals(Set.of(), watch.foreignSince(after), "Deckhand's own replacement moves no secret file away");
    }

    @Test
    void aFileReplacedSinceTheWatchBeganIsWatchedAsItIsNow() throws Exception {
        String before = Files.readString(home.file(DeckhandHome.OWNER_TOKEN));
        home.replaceSecret(DeckhandHome.OWNER_TOKEN);
        assertNotEquals(before, Files.readString(home.file(DeckhandHome.OWNER_TOKEN)));
        // the test's own read above was foreign too: mark after it
        long mark = watch.foreignCount();
        Path link = tmp.resolve("copy-link");
        Files.createLink(link, home.file(DeckhandHome.OWNER_TOKEN));
        run("cat", link.toString());
        assertEquals(Set.of(DeckhandHome.OWNER_TOKEN), watch.foreignSince(mark), "the new file's inode is watched");
        assertEquals(home.secret(DeckhandHome.OWNER_TOKEN), SecretFileReads.read(home.file(DeckhandHome.OWNER_TOKEN)));
        assertEquals(Set.of(DeckhandHome.OWNER_TOKEN), watch.foreignSince(mark), "own reads added nothing");
    }

    @Test
    void theResponseIsToldOfEachForeignReadOnce() throws Exception {
        List<Set<String>> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        SecretFileReads.onForeignRead(told::add);
        try {
            run("cat", home.file(DeckhandHome.MCP_TOKEN).toString());
            watch.foreignCount();
            assertTrue(told.contains(Set.of(DeckhandHome.MCP_TOKEN)), told.toString());
            int n = told.size();
            watch.foreignCount();
            assertEquals(n, told.size(), "drained events are told once");
        } finally {
            SecretFileReads.onForeignRead(names -> {});
        }
    }
}

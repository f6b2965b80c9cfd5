package dev.deckhand.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which paths a {@code file} verifier may name, each rule with the spellings that try to get around it:
 * relative paths, {@code ..}, hidden components anywhere (given or reached through a link), links out of a
 * root or into the denied set (dangling or not), roots that are themselves links, and the same answer
 * whether the file exists or not.
 */
@Tag("pure")
class FileVerifierScopeTest {

    @TempDir
    Path dir;

    private Path home() throws Exception {
        return Files.createDirectories(dir.resolve("home"));
    }

    private Path config() throws Exception {
        return Files.createDirectories(dir.resolve("state/deckhand"));
    }

    private FileVerifierScope scope() throws Exception {
        return new FileVerifierScope(home(), config());
    }

    private PolicyConfig roots(Path... roots) {
        return PolicyConfig.defaults()
                .withVerifierRoots(
                        java.util.Arrays.stream(roots).map(Path::toString).toList());
    }

    private static String refusal(Optional<Refusal> r) {
        assertTrue(r.isPresent(), "refused");
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.get().code());
        return r.get().detail();
    }

    /**
     * A home directory outside /tmp (a default root, where @TempDir lives): under the build directory, or under
     * /var/tmp when the checkout itself is under /tmp.
     */
    private static Path homeOutsideTmp() throws Exception {
        Path target = Path.of("target").toAbsolutePath();
        Path parent = target.startsWith("/tmp") ? Path.of("/var/tmp") : Files.createDirectories(target);
        Path home = Files.createTempDirectory(parent, "scope-home");
        assertTrue(!home.startsWith("/tmp"), home.toString());
        return home;
    }

    @Test
    void theDefaultRootsAreTheUsualUserDirectoriesAndTmp() throws Exception {
        Path home = homeOutsideTmp();
        FileVerifierScope s = new FileVerifierScope(home, config());
        PolicyConfig p = PolicyConfig.defaults();
        List<Path> expected = new java.util.ArrayList<>(
                FileVerifierScope.XDG_DEFAULT_NAMES.stream().map(home::resolve).toList());
        expected.add(Path.of("/tmp"));
        assertEquals(expected, s.roots(p));
        assertTrue(s.check(home.resolve("Documents/report.txt").toString(), p).isEmpty());
        assertTrue(s.check("/tmp/x/y.txt", p).isEmpty());
        assertTrue(refusal(s.check(home.resolve("notes.txt").toString(), p)).contains("not under a verifier root"));
        assertTrue(refusal(s.check("/etc/passwd", p)).contains("not under a verifier root"));
    }

    @Test
    void userDirsDirsWinWhenPresent() throws Exception {
        Path home = homeOutsideTmp();
        Path cfg = Files.createDirectories(home.resolve(".config"));
        Files.writeString(
                cfg.resolve("user-dirs.dirs"),
                "# written by xdg-user-dirs-update\n"
                        + "XDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\nXDG_DESKTOP_DIR=\"$HOME/\"\nXDG_MUSIC_DIR=\"/srv/music\"\n"
                        + "XDG_VIDEOS_DIR=\"relative\"\nnot a line\n");
        FileVerifierScope s = new FileVerifierScope(home, config());
        assertEquals(
                List.of(home.resolve("Dokumente"), Path.of("/srv/music")),
                s.userDirs(),
                "the listed directories; one set to $HOME itself is unused, a relative one ignored");
        assertTrue(s.check(home.resolve("Dokumente/a.txt").toString(), PolicyConfig.defaults())
                .isEmpty());
        assertTrue(s.check(home.resolve("Documents/a.txt").toString(), PolicyConfig.defaults())
                .isPresent());
    }

    @Test
    void relativePathsAndDotSegmentsAreRefused() throws Exception {
        FileVerifierScope s = scope();
        PolicyConfig p = roots(dir);
        assertTrue(refusal(s.check("notes.txt", p)).contains("absolute"));
        assertTrue(refusal(s.check("./notes.txt", p)).contains("absolute"));
        assertTrue(refusal(s.check(dir + "/out/../../etc/passwd", p)).contains("'.'"));
        assertTrue(refusal(s.check(dir + "/./x", p)).contains("'.'"));
    }

    @Test
    void hiddenComponentsAreRefusedGivenOrReached() throws Exception {
        FileVerifierScope s = scope();
        Path out = Files.createDirectories(dir.resolve("out"));
        PolicyConfig p = roots(dir);
        for (String hidden :
                List.of(".ssh/id_ed25519", ".aws/credentials", ".netrc", ".bash_history", "a/.git/config", ".x")) {
            assertTrue(refusal(s.check(out.resolve(hidden).toString(), p)).contains("starts with '.'"), hidden);
        }
        Path secrets = Files.createDirectories(dir.resolve(".secrets"));
        Files.writeString(secrets.resolve("key"), "k");
        Path link = out.resolve("innocent.txt");
        Files.createSymbolicLink(link, secrets.resolve("key"));
        assertTrue(refusal(s.check(link.toString(), p)).contains("starts with '.'"), "a link into a hidden directory");
    }

    @Test
    void theDeniedSetCannotBeReachedEvenFromAConfiguredRoot() throws Exception {
        FileVerifierScope s = scope();
        Files.writeString(config().resolve("owner-token"), "t");
        PolicyConfig everything = roots(Path.of("/"));
        for (String name : List.of("owner-token", "mcp-token", "audit-seal.key", "model.json", "not-there-yet")) {
            assertTrue(
                    refusal(s.check(config().resolve(name).toString(), everything))
                            .contains("Deckhand's config directory"),
                    name);
        }
        assertTrue(refusal(s.check("/proc/self/environ", everything)).contains("/proc"));
        assertTrue(refusal(s.check("/sys/kernel/notes", everything)).contains("/sys"));
        assertTrue(refusal(s.check("/dev/zero", everything)).contains("/dev"));
        assertTrue(refusal(s.check("/run/user/0/keyring/control", everything)).contains("/run"));
        assertTrue(refusal(s.check(home().resolve("snap/firefox/common/x").toString(), everything))
                .contains("browser profile"));
    }

    /**
     * Round 11 (PF, PF2): Chromium started with {@code --user-data-dir=/tmp/chr11}; its History answered a verifier's
     * guesses, and a file in it was opened through an editor's Open dialog. A directory that holds what a browser keeps
     * at the top of its profile is a browser profile wherever it lies, for verifiers and for typed paths alike.
     */
    @Test
    void aBrowserProfileIsOneWhereverItLies() throws Exception {
        FileVerifierScope s = scope();
        PolicyConfig tmp = roots(dir);
        for (String mark : FileVerifierScope.PROFILE_MARKS) {
            Path profile = Files.createDirectories(dir.resolve("profile-" + mark.replace(' ', '-')));
            Files.writeString(profile.resolve(mark), "{}");
            for (String inside : List.of("Default/History", "Default/canary.txt", "not-there-yet", "")) {
                String path = profile.resolve(inside).toString();
                assertTrue(refusal(s.check(path, tmp)).contains("a browser profile"), path);
                assertEquals(
                        Optional.of("a browser profile"),
                        s.deniedPlaces().inText("open " + path, Optional.empty()),
                        path);
            }
        }
        // the control: a directory beside them that holds none of those files
        Path plain = Files.createDirectories(dir.resolve("plain/Default"));
        assertTrue(s.check(plain.resolve("notes.txt").toString(), tmp).isEmpty());
        assertEquals(
                Optional.empty(),
                s.deniedPlaces().inText(plain.resolve("notes.txt").toString(), Optional.empty()));
    }

    /**
     * Round 12's K1, K3 and PC1: the session moved its XDG base directories under /tmp, where the keyrings and the
     * person's config were read; a profile's {@code Default} copied away from its {@code Local State} was read too.
     */
    @Test
    void movedXdgDirectoriesAndACopiedProfileAreDenied() throws Exception {
        Path xdg = Files.createDirectories(dir.resolve("session"));
        java.util.Map<String, String> env = java.util.Map.of(
                "XDG_DATA_HOME", xdg.resolve("data").toString(),
                "XDG_CONFIG_HOME", xdg.resolve("config").toString(),
                "XDG_STATE_HOME", "relative/is/ignored");
        FileVerifierScope s = new FileVerifierScope(home(), config(), env);
        PolicyConfig tmp = roots(dir);
        assertTrue(refusal(s.check(xdg.resolve("data/keyrings/login.keyring").toString(), tmp))
                .contains("the keyrings"));
        assertTrue(refusal(s.check(xdg.resolve("data/recently-used.xbel").toString(), tmp))
                .contains("XDG_DATA_HOME"));
        assertTrue(refusal(s.check(xdg.resolve("config/abiword/profile").toString(), tmp))
                .contains("XDG_CONFIG_HOME"));
        assertEquals(
                Optional.of("the keyrings"),
                s.deniedPlaces()
                        .inText(xdg.resolve("data/keyrings/login.keyring").toString(), Optional.empty()));
        Path copy = Files.createDirectories(dir.resolve("backup/Default"));
        Files.writeString(copy.resolve("Login Data"), "");
        assertTrue(refusal(s.check(copy.resolve("canary.txt").toString(), tmp)).contains("a browser profile"));
        assertEquals(
                Optional.empty(),
                s.deniedPlaces().inText(dir.resolve("backup/notes.txt").toString(), Optional.empty()));
    }

    @Test
    void aLinkIntoTheConfigDirectoryIsRefusedTheSameWhetherItsTargetExists() throws Exception {
        FileVerifierScope s = scope();
        Files.writeString(config().resolve("owner-token"), "t");
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.createSymbolicLink(out.resolve("a"), config().resolve("owner-token"));
        Files.createSymbolicLink(out.resolve("b"), config().resolve("no-such-file"));
        Files.createSymbolicLink(out.resolve("dir"), config());
        Files.createSymbolicLink(out.resolve("chain"), out.resolve("dir"));
        PolicyConfig p = roots(out);
        String existing = refusal(s.check(out.resolve("a").toString(), p));
        String missing = refusal(s.check(out.resolve("b").toString(), p));
        assertEquals(existing.replace("/a\"", "/b\""), missing, "the same rule for an existing and a missing target");
        assertTrue(existing.contains("Deckhand's config directory"), existing);
        assertTrue(
                refusal(s.check(out.resolve("dir/owner-token").toString(), p)).contains("config directory"));
        assertTrue(
                refusal(s.check(out.resolve("chain/mcp-token").toString(), p)).contains("config directory"));
        Files.createSymbolicLink(out.resolve("relative"), Path.of("../state/deckhand/owner-token"));
        assertTrue(refusal(s.check(out.resolve("relative").toString(), p)).contains("config directory"));
    }

    @Test
    void aLinkOutOfTheRootsIsRefusedAndARootThatIsALinkStillAdmits() throws Exception {
        FileVerifierScope s = scope();
        Path out = Files.createDirectories(dir.resolve("out"));
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Files.createSymbolicLink(out.resolve("away"), elsewhere.resolve("f.txt"));
        assertTrue(refusal(s.check(out.resolve("away").toString(), roots(out))).contains("not under a verifier root"));
        Path linkedRoot = Files.createSymbolicLink(dir.resolve("linked-root"), out);
        assertTrue(
                s.check(out.resolve("f.txt").toString(), roots(linkedRoot)).isEmpty(),
                "the root's own link is followed too");
        assertTrue(s.check(out.resolve("f.txt").toString(), roots()).isPresent(), "an empty list admits nothing");
    }

    @Test
    void theSameDetailWhetherOrNotTheFileExists() throws Exception {
        FileVerifierScope s = scope();
        PolicyConfig p = roots(Files.createDirectories(dir.resolve("out")));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("there"), "x");
        assertEquals(
                refusal(s.check(outside.resolve("there").toString(), p)).replace("there", "X"),
                refusal(s.check(outside.resolve("never").toString(), p)).replace("never", "X"));
    }

    @Test
    void openableGivesTheRealPathAndRefusesWhatChangedSinceTheCheck() throws Exception {
        FileVerifierScope s = scope();
        Path out = Files.createDirectories(dir.resolve("out"));
        Path f = out.resolve("f.txt");
        PolicyConfig p = roots(out);
        assertEquals(Optional.empty(), s.openable(f.toString(), p), "nothing there yet");
        Files.writeString(f, "x");
        assertEquals(Optional.of(f.toRealPath()), s.openable(f.toString(), p));
        Files.delete(f);
        Files.createSymbolicLink(f, config().resolve("owner-token"));
        RefusedException e = assertThrows(RefusedException.class, () -> s.openable(f.toString(), p));
        assertTrue(
                e.refusal().detail().contains("config directory"), e.refusal().detail());
    }
}

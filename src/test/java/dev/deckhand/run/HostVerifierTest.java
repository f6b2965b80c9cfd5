package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.loop.verify.VerifierResult;
import dev.deckhand.loop.verify.VerifierSpec;
import dev.deckhand.policy.FileVerifierScope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host verifiers: files checked for real, commands run only when the person enabled that argv. */
@Tag("pure")
class HostVerifierTest {

    @TempDir
    Path dir;

    private VerifierResult check(PolicyConfig policy, String json) throws Exception {
        return new HostVerifier(policy, new FileVerifierScope(dir.resolve("home"), dir.resolve("config")))
                .verify(VerifierSpec.parse(json));
    }

    @Test
    void fileChecksReadTheFile() throws Exception {
        Path f = dir.resolve("out.txt");
        Files.writeString(f, "hello 84");
        PolicyConfig p = PolicyConfig.defaults().withVerifierRoots(List.of(dir.toString()));
        assertTrue(check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"exists\":true}")
                .passed());
        assertFalse(check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"exists\":false}")
                .passed());
        assertTrue(check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"contains\":\"84\"}")
                .passed());
        assertFalse(check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"contains\":\"85\"}")
                .passed());
        String sha = HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest("hello 84".getBytes(StandardCharsets.UTF_8)));
        assertTrue(check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"sha256\":\"" + sha + "\"}")
                .passed());
        assertFalse(check(p, "{\"kind\":\"file\",\"path\":\"" + dir.resolve("missing") + "\",\"contains\":\"x\"}")
                .passed());
    }

    @Test
    void aMismatchSaysOnlyThatItDiffers() throws Exception {
        Path f = dir.resolve("out.txt");
        Files.writeString(f, "secret-canary-31337");
        PolicyConfig p = PolicyConfig.defaults().withVerifierRoots(List.of(dir.toString()));
        String actual =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
        VerifierResult sha =
                check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"sha256\":\"" + "0".repeat(64) + "\"}");
        assertFalse(sha.passed());
        assertTrue(sha.detail().endsWith("differs from the expected sha256"), sha.detail());
        assertFalse(
                sha.detail().contains(actual) || sha.detail().matches(".*[0-9a-f]{64}.*"),
                "no hash in " + sha.detail());
        VerifierResult text = check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"contains\":\"nope\"}");
        assertFalse(text.detail().contains("canary"), text.detail());
    }

    /** The scope is decided again where the file is opened: a link swapped in after the run's check is not followed. */
    @Test
    void aLinkSwappedAfterTheCheckIsNotFollowed() throws Exception {
        Path config = Files.createDirectories(dir.resolve("config"));
        Files.writeString(config.resolve("owner-token"), "the-owner-token");
        Path roots = Files.createDirectories(dir.resolve("out"));
        Path f = roots.resolve("result.txt");
        Files.writeString(f, "fine");
        PolicyConfig p = PolicyConfig.defaults().withVerifierRoots(List.of(roots.toString()));
        FileVerifierScope scope = new FileVerifierScope(dir.resolve("home"), config);
        assertTrue(scope.check(f.toString(), p).isEmpty(), "in scope when the run starts");
        Files.delete(f);
        Files.createSymbolicLink(f, config.resolve("owner-token"));
        VerifierResult r = new HostVerifier(p, scope)
                .verify(VerifierSpec.parse("{\"kind\":\"file\",\"path\":\"" + f + "\",\"contains\":\"the-owner\"}"));
        assertFalse(r.passed());
        assertTrue(r.detail().startsWith("not read:") && r.detail().contains("config directory"), r.detail());
    }

    @Test
    void aCommandRunsOnlyWhenEnabledAndItsExitCodeDecides() throws Exception {
        Path f = dir.resolve("flag");
        Files.writeString(f, "");
        List<String> test = List.of("/usr/bin/test", "-f", f.toString());
        String json = "{\"kind\":\"command\",\"argv\":[\"/usr/bin/test\",\"-f\",\"" + f + "\"]}";
        VerifierResult notEnabled = check(PolicyConfig.defaults(), json);
        assertFalse(notEnabled.passed());
        assertTrue(notEnabled.detail().contains("not enabled"), notEnabled.detail());
        PolicyConfig enabled = PolicyConfig.defaults().withEnabledCommands(List.of(test));
        assertTrue(check(enabled, json).passed());
        Files.delete(f);
        VerifierResult failed = check(enabled, json);
        assertFalse(failed.passed());
        assertTrue(failed.detail().contains("exited 1"), failed.detail());
    }

    /**
     * Round 12's O1: a person's note holding the owner token answered {@code contains} guesses of a few characters, one
     * character at a time. A file that holds one of Deckhand's secrets is not compared: every guess gets the same fail.
     */
    @Test
    void aFileHoldingOneOfDeckhandsSecretsIsNotCompared() throws Exception {
        String token = "Vq3xR8mTz1Kp0sLw7YbN4cJd9HfGa2Ue5iOo6Pq8Rr";
        Path note = dir.resolve("notes.txt");
        Files.writeString(note, "owner token: " + token + "\n");
        PolicyConfig p = PolicyConfig.defaults().withVerifierRoots(List.of(dir.toString()));
        HostVerifier v = new HostVerifier(
                p,
                new FileVerifierScope(dir.resolve("home"), dir.resolve("config")),
                () -> dev.deckhand.grant.OwnSecrets.named(java.util.Map.of(token, "owner token")));
        String sha =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(note)));
        java.util.Set<String> details = new java.util.HashSet<>();
        for (String check : List.of(
                "\"contains\":\"Vq3\"",
                "\"contains\":\"Xq3\"",
                "\"contains\":\"" + token.substring(5, 18) + "\"",
                "\"sha256\":\"" + sha + "\"")) {
            VerifierResult r =
                    v.verify(VerifierSpec.parse("{\"kind\":\"file\",\"path\":\"" + note + "\"," + check + "}"));
            assertFalse(r.passed(), check);
            assertFalse(r.detail().contains(token.substring(0, 12)), r.detail());
            details.add(r.detail());
        }
        org.junit.jupiter.api.Assertions.assertEquals(1, details.size(), "one answer for every guess: " + details);
        assertTrue(details.iterator().next().contains("holds one of Deckhand's own secrets"), details.toString());
        // the control: a file with no secret is compared
        Path plain = dir.resolve("plain.txt");
        Files.writeString(plain, "hello 84");
        assertTrue(v.verify(VerifierSpec.parse("{\"kind\":\"file\",\"path\":\"" + plain + "\",\"contains\":\"84\"}"))
                .passed());
    }
}

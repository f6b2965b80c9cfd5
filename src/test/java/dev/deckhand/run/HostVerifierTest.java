package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.loop.verify.VerifierResult;
import dev.deckhand.loop.verify.VerifierSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host verifiers: files checked for real, commands run only when the person enabled that argv. */
class HostVerifierTest {

    @TempDir
    Path dir;

    private static VerifierResult check(PolicyConfig policy, String json) throws Exception {
        return new HostVerifier(policy).verify(VerifierSpec.parse(json));
    }

    @Test
    void fileChecksReadTheFile() throws Exception {
        Path f = dir.resolve("out.txt");
        Files.writeString(f, "hello 84");
        PolicyConfig p = PolicyConfig.defaults();
        assertTrue(check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"exists\":true}").passed());
        assertFalse(check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"exists\":false}").passed());
        assertTrue(check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"contains\":\"84\"}").passed());
        assertFalse(check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"contains\":\"85\"}").passed());
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest("hello 84".getBytes(StandardCharsets.UTF_8)));
        assertTrue(check(p, "{\"kind\":\"file\",\"path\":\"" + f + "\",\"sha256\":\"" + sha + "\"}").passed());
        assertFalse(check(p, "{\"kind\":\"file\",\"path\":\"" + dir.resolve("missing") + "\",\"contains\":\"x\"}").passed());
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
}

package dev.deckhand.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.home.DeckhandHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The policy file across versions: one written before {@code verifierRoots} existed still loads. */
@Tag("pure")
class PolicyStoreTest {

    @TempDir
    Path dir;

    /** A policy.json exactly as the previous release wrote it (no verifierRoots). */
    static final String BEFORE_VERIFIER_ROOTS = """
            {
              "permissionMode" : "ask",
              "credentialApps" : [ "keepassxc" ],
              "commsApps" : [ "slack" ],
              "deniedHosts" : [ "accounts.google.com" ],
              "allowedHosts" : [ ],
              "caps" : { "maxSteps" : 60, "wallClockSeconds" : 600, "budget" : 100, "idleExpirySeconds" : 900 },
              "pollIntervalMs" : 1000,
              "enabledCommands" : [ ]
            }
            """;

    @Test
    void aPolicyFileWrittenBeforeVerifierRootsLoadsWithTheDefault() throws Exception {
        Files.writeString(dir.resolve(DeckhandHome.POLICY), BEFORE_VERIFIER_ROOTS);
        PolicyStore store = new PolicyStore(dir);
        PolicyConfig config = store.current();
        assertEquals(null, config.verifierRoots(), "absent: the default roots");
        assertTrue(new FileVerifierScope(dir, dir.resolve("cfg")).roots(config).contains(Path.of("/tmp")));
    }

    @Test
    void verifierRootsRoundTripAndTheDefaultIsNotWrittenOut() throws Exception {
        Files.writeString(dir.resolve(DeckhandHome.POLICY), BEFORE_VERIFIER_ROOTS);
        PolicyStore store = new PolicyStore(dir);
        store.save(PolicyDocument.of(store.current()));
        assertFalse(
                Files.readString(dir.resolve(DeckhandHome.POLICY)).contains("verifierRoots"),
                "a default stays a default: nothing is frozen into the file");
        String withRoots = BEFORE_VERIFIER_ROOTS.replace(
                "\"enabledCommands\" : [ ]", "\"enabledCommands\" : [ ], \"verifierRoots\" : [ \"/srv/reports\" ]");
        store.save(store.parse(withRoots));
        assertEquals(List.of("/srv/reports"), store.current().verifierRoots());
        assertTrue(Files.readString(dir.resolve(DeckhandHome.POLICY)).contains("/srv/reports"));
    }

    @Test
    void aRelativeVerifierRootMakesTheFileInvalidNamingTheField() throws Exception {
        String bad = BEFORE_VERIFIER_ROOTS.replace(
                "\"enabledCommands\" : [ ]", "\"enabledCommands\" : [ ], \"verifierRoots\" : [ \"reports\" ]");
        Files.writeString(dir.resolve(DeckhandHome.POLICY), bad);
        dev.deckhand.grant.RefusedException e = org.junit.jupiter.api.Assertions.assertThrows(
                dev.deckhand.grant.RefusedException.class, () -> new PolicyStore(dir).current());
        assertEquals(dev.deckhand.grant.RefusalCode.CONFIG_MISSING, e.code());
        assertTrue(e.refusal().detail().contains("verifierRoots"), e.refusal().detail());
    }
}

package dev.deckhand.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.audit.AuditSettings;
import dev.deckhand.audit.AuditStore;
import dev.deckhand.audit.GrantEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code deckhand verify-audit} on the packaged application: 0 for an intact chain, 1 once a record is edited. */
@Tag("e2e")
class AuditVerifyIT {

    private static int verify(Path home, StringBuilder output) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(PackagedApp.command("verify-audit")).redirectErrorStream(true);
        pb.environment().put("DECKHAND_HOME", home.toString());
        Process p = pb.start();
        output.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return p.exitValue();
    }

    @Test
    void exitsZeroForAnIntactChainAndOneForAnEditedRecord() throws Exception {
        Path home = Files.createTempDirectory("deckhand-verify-home");
        Path db = home.resolve("audit.db");
        try (AuditStore store =
                AuditStore.open(db, home.resolve("audit-seal.key"), AuditSettings.defaults(), Clock.systemUTC())) {
            for (int i = 0; i < 5; i++)
                store.append(new GrantEvent(GrantEvent.Kind.MINT, "g-" + i, i + 1, "42", "mousepad"));
        }
        StringBuilder out = new StringBuilder();
        assertEquals(0, verify(home, out), out::toString);
        try (var c = new org.sqlite.JDBC().connect("jdbc:sqlite:" + db, new java.util.Properties());
                var s = c.createStatement()) {
            s.execute("UPDATE audit_record SET grant_id = 'g-forged' WHERE seq = 3");
        }
        StringBuilder broken = new StringBuilder();
        assertEquals(1, verify(home, broken), broken::toString);
        assertTrue(broken.toString().contains("3"), () -> "names the first broken link: " + broken);
    }
}

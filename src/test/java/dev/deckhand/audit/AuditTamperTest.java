package dev.deckhand.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each tampering an attacker with write access to the database (but not to the key) can do is
 * detected, with its kind and the seq where it shows.
 */
@Tag("app")
class AuditTamperTest {
    static final Instant T0 = Instant.parse("2026-11-29T20:00:00Z");

    @TempDir
    Path dir;

    Path db;
    Path key;

    /** 35 records, sealed at 10, 20, 30 and (on close) 35. */
    @BeforeEach
    void writeLog() {
        db = dir.resolve("audit.db");
        key = dir.resolve("audit.key");
        Fixtures.MutableClock clock = new Fixtures.MutableClock(T0);
        try (AuditStore store =
                AuditStore.open(db, key, AuditSettings.defaults().withSealEvery(10), clock)) {
            store.append(Fixtures.mint("g-1"));
            for (int i = 1; i <= 17; i++) {
                clock.advance(Duration.ofSeconds(1));
                ActionIntent in = i % 3 == 0 ? Fixtures.typing("r-1", i, 10 + i) : Fixtures.click("r-1", i);
                store.append(in);
                store.append(
                        i == 17
                                ? ActionResult.refused(in, RefusalCode.BASIS_STALE)
                                : ActionResult.of(in, ActionOutcome.DONE));
            }
            assertEquals(35, store.headSeq());
        }
        VerifyResult r = verify();
        assertTrue(r.ok(), r.describe());
        assertEquals(35, r.sealedSeq());
    }

    VerifyResult verify() {
        return AuditVerifier.verify(db, key);
    }

    void sql(String... statements) throws SQLException {
        try (Connection c = AuditStore.connect(db);
                Statement s = c.createStatement()) {
            for (String st : statements) {
                s.execute(st);
            }
        }
    }

    static void assertBreak(VerifyResult r, VerifyResult.Kind kind, long seq) {
        assertNotNull(r.firstBreak(), "expected a break, got " + r.describe());
        assertEquals(kind, r.firstBreak().kind(), r.describe());
        assertEquals(seq, r.firstBreak().seq(), r.describe());
    }

    @Test
    void editing_a_field_is_detected_at_that_record() throws Exception {
        sql("UPDATE audit_record SET role = 'menu item' WHERE seq = 17");
        assertBreak(verify(), VerifyResult.Kind.EDITED, 17);
    }

    @Test
    void editing_a_text_length_is_detected() throws Exception {
        sql("UPDATE audit_record SET text_len = 0 WHERE seq = 6");
        assertBreak(verify(), VerifyResult.Kind.EDITED, 6);
    }

    @Test
    void editing_a_field_and_rehashing_only_that_record_is_detected_at_that_record() throws Exception {
        rewrite(17, 17, "UPDATE audit_record SET role = 'label' WHERE seq = 17");
        assertBreak(verify(), VerifyResult.Kind.EDITED, 17);
    }

    @Test
    void deleting_a_middle_record_is_detected_at_the_missing_seq() throws Exception {
        sql("DELETE FROM audit_record WHERE seq = 17");
        assertBreak(verify(), VerifyResult.Kind.DELETED, 17);
    }

    @Test
    void truncating_the_tail_is_detected_against_the_last_seal() throws Exception {
        sql("DELETE FROM audit_record WHERE seq > 28");
        VerifyResult r = verify();
        assertBreak(r, VerifyResult.Kind.TRUNCATED, 29);
        assertEquals(28, r.headSeq());
    }

    @Test
    void truncating_the_tail_with_its_seals_is_detected_against_the_head_anchor() throws Exception {
        sql("DELETE FROM audit_record WHERE seq > 28", "DELETE FROM audit_seal WHERE seq > 28");
        assertBreak(verify(), VerifyResult.Kind.TRUNCATED, 29);
    }

    @Test
    void swapping_two_adjacent_records_is_detected_as_reordering() throws Exception {
        swap(17, 18);
        assertBreak(verify(), VerifyResult.Kind.REORDERED, 17);
    }

    @Test
    void swapping_two_distant_records_is_detected_as_reordering() throws Exception {
        swap(12, 27);
        assertBreak(verify(), VerifyResult.Kind.REORDERED, 12);
    }

    @Test
    void rewriting_the_chain_and_resealing_with_another_key_is_detected_at_the_first_reseal() throws Exception {
        SealKey other = SealKey.of(new byte[32]);
        rewrite(17, 35, "UPDATE audit_record SET refusal_code = NULL, outcome = 'done' WHERE seq = 35");
        // the forger re-seals everything from 17 on with a key of their own, and the anchor too
        reseal(other, 17);
        new HeadAnchor(35, hashAt(35), other.mac(SealKey.SEAL, 35, hashAt(35))).write(HeadAnchor.pathFor(key));
        assertBreak(verify(), VerifyResult.Kind.RESEALED, 20);
    }

    @Test
    void rewriting_the_chain_without_the_key_is_detected_at_the_first_seal_after_the_edit() throws Exception {
        rewrite(17, 35, "UPDATE audit_record SET role = 'menu item' WHERE seq = 17");
        assertBreak(verify(), VerifyResult.Kind.EDITED, 20);
    }

    /**
     * Round 9's P4: a command in a granted terminal copied the seal key. The key is replaced for every record after the
     * head; a forger holding the copy who rewrites the log and seals it all again, anchor included, is caught at the
     * first seal of the new epoch, while the log as written verifies, old epoch and new.
     */
    @Test
    void a_copy_of_a_replaced_key_cannot_reseal_the_log_after_the_replacement() throws Exception {
        SealKey copy = SealKey.read(key);
        String before = Files.readString(key);
        try (AuditStore store = AuditStore.open(
                db, key, AuditSettings.defaults().withSealEvery(10), new Fixtures.MutableClock(T0.plusSeconds(60)))) {
            store.rotateSealKey();
            for (int i = 1; i <= 5; i++) store.append(Fixtures.click("r-2", i));
        }
        List<String> lines = Files.readAllLines(key);
        assertEquals(2, lines.size(), "one key per epoch");
        assertEquals(before.strip(), lines.get(0), "the first epoch's key stays, for the seals made with it");
        assertTrue(lines.get(1).startsWith("36 "), "the new key seals from the record after the head: " + lines.get(1));
        assertEquals(
                java.util.Set.of(
                        java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                        java.nio.file.attribute.PosixFilePermission.OWNER_WRITE),
                Files.getPosixFilePermissions(key));
        VerifyResult ok = verify();
        assertTrue(ok.ok(), ok.describe());
        assertEquals(40, ok.sealedSeq());
        // the forger rewrites a record of the old epoch, re-hashes the chain and re-seals all of it with the copy
        rewrite(17, 40, "UPDATE audit_record SET refusal_code = NULL, outcome = 'done' WHERE seq = 35");
        reseal(copy, 17);
        new HeadAnchor(40, hashAt(40), copy.mac(SealKey.SEAL, 40, hashAt(40))).write(HeadAnchor.pathFor(key));
        assertBreak(verify(), VerifyResult.Kind.RESEALED, 40);
    }

    @Test
    void appending_and_sealing_with_another_key_file_is_detected() throws Exception {
        Path otherKey = dir.resolve("other.key");
        try (AuditStore store = AuditStore.open(
                db,
                otherKey,
                AuditSettings.defaults().withSealEvery(10),
                new Fixtures.MutableClock(T0.plusSeconds(100)))) {
            for (int i = 0; i < 3; i++) {
                store.append(Fixtures.click("r-forged", i + 1));
            }
        }
        // chain links are fine; the seal made at close (seq 38) is under the wrong key
        assertBreak(verify(), VerifyResult.Kind.RESEALED, 38);
    }

    @Test
    void a_forged_checkpoint_that_hides_a_deleted_prefix_is_detected() throws Exception {
        // copy the seal at 20 into the checkpoint table: same bytes, different domain tag → no match
        sql(
                "INSERT INTO audit_checkpoint (seq, hash, mac, pruned_at, pruned_records) "
                        + "SELECT seq, hash, mac, 0, 20 FROM audit_seal WHERE seq = 20",
                "DELETE FROM audit_record WHERE seq <= 20",
                "DELETE FROM audit_seal WHERE seq <= 20");
        assertBreak(verify(), VerifyResult.Kind.RESEALED, 20);
    }

    @Test
    void deleting_a_prefix_without_a_checkpoint_is_detected_at_seq_one() throws Exception {
        sql("DELETE FROM audit_record WHERE seq <= 20");
        assertBreak(verify(), VerifyResult.Kind.DELETED, 1);
    }

    @Test
    void the_verify_command_exits_one_and_names_the_break() throws Exception {
        sql("DELETE FROM audit_record WHERE seq = 5");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = AuditVerifyCommand.run(
                new String[] {db.toString(), key.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(1, code);
        assertTrue(
                out.toString(StandardCharsets.UTF_8).startsWith("audit BROKEN at seq 5 (DELETED)"),
                out.toString(StandardCharsets.UTF_8));
    }

    private void swap(long a, long b) throws SQLException {
        sql(
                "UPDATE audit_record SET seq = -1 WHERE seq = " + a,
                "UPDATE audit_record SET seq = " + a + " WHERE seq = " + b,
                "UPDATE audit_record SET seq = " + b + " WHERE seq = -1");
    }

    private byte[] hashAt(long seq) throws SQLException {
        try (Connection c = AuditStore.connect(db);
                PreparedStatement ps = c.prepareStatement("SELECT hash FROM audit_record WHERE seq = ?")) {
            ps.setLong(1, seq);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBytes(1);
            }
        }
    }

    /** Applies {@code edit}, then recomputes prev_hash/hash for seq {@code from..to} as a forger would. */
    private void rewrite(long from, long to, String edit) throws SQLException {
        sql(edit);
        try (Connection c = AuditStore.connect(db)) {
            byte[] prev;
            try (PreparedStatement ps = c.prepareStatement("SELECT hash FROM audit_record WHERE seq = ?")) {
                ps.setLong(1, from - 1);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    prev = rs.getBytes(1);
                }
            }
            List<Row> rows = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT " + Schema.selectColumns() + " FROM audit_record WHERE seq BETWEEN ? AND ? ORDER BY seq")) {
                ps.setLong(1, from);
                ps.setLong(2, to);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(AuditStore.readRow(rs));
                    }
                }
            }
            try (PreparedStatement up =
                    c.prepareStatement("UPDATE audit_record SET prev_hash = ?, hash = ? WHERE seq = ?")) {
                for (Row row : rows) {
                    byte[] h = row.hash(prev);
                    up.setBytes(1, prev);
                    up.setBytes(2, h);
                    up.setLong(3, row.seq);
                    up.executeUpdate();
                    prev = h;
                }
            }
        }
    }

    private void reseal(SealKey other, long from) throws SQLException {
        try (Connection c = AuditStore.connect(db);
                PreparedStatement up = c.prepareStatement("UPDATE audit_seal SET hash = ?, mac = ? WHERE seq = ?")) {
            List<Long> seals = new ArrayList<>();
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT seq FROM audit_seal WHERE seq >= " + from)) {
                while (rs.next()) {
                    seals.add(rs.getLong(1));
                }
            }
            for (long seq : seals) {
                byte[] h = hashAt(seq);
                up.setBytes(1, h);
                up.setBytes(2, other.mac(SealKey.SEAL, seq, h));
                up.setLong(3, seq);
                up.executeUpdate();
            }
        }
        assertTrue(Files.exists(db));
    }
}

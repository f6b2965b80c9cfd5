package dev.deckhand.audit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * Walks the chain in seq order and reports the first broken link.
 *
 * <ul>
 *   <li>a missing seq → {@link VerifyResult.Kind#DELETED} at the missing seq;</li>
 *   <li>a record whose stored link points at another record still in the log →
 *       {@link VerifyResult.Kind#REORDERED};</li>
 *   <li>a record whose fields no longer hash to its stored hash, or whose predecessor was
 *       re-hashed, or a chain rewritten under a seal → {@link VerifyResult.Kind#EDITED};</li>
 *   <li>a seal, checkpoint or head anchor whose HMAC does not verify under the key →
 *       {@link VerifyResult.Kind#RESEALED};</li>
 *   <li>the head behind the last seal or the head anchor → {@link VerifyResult.Kind#TRUNCATED}.</li>
 * </ul>
 * Records after the last seal are protected by the chain against edits, deletion in the middle and
 * reordering, but cutting them off cannot be told from never having written them: seal often.
 */
public final class AuditVerifier {
    private AuditVerifier() {}

    /**
     * Verifies the database at {@code database} with the key in {@code sealKeyFile} and the head
     * anchor beside it ({@code <key>.head}, checked when present).
     *
     * @throws AuditException when the database or key cannot be read
     */
    public static VerifyResult verify(Path database, Path sealKeyFile) {
        if (!Files.isRegularFile(database)) {
            throw new AuditException("no audit database at " + database);
        }
        if (!Files.isRegularFile(sealKeyFile)) {
            throw new AuditException("no audit seal key at " + sealKeyFile);
        }
        SealKey key = SealKey.read(sealKeyFile);
        HeadAnchor anchor = HeadAnchor.read(HeadAnchor.pathFor(sealKeyFile));
        try (Connection c = AuditStore.connect(database)) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout = 5000");
            }
            return verify(c, key, anchor);
        } catch (SQLException e) {
            throw new AuditException("cannot read the audit database " + database, e);
        }
    }

    private record Mark(long seq, byte[] hash, byte[] mac) {}

    static VerifyResult verify(Connection c, SealKey key, HeadAnchor anchor) throws SQLException {
        long startSeq = 1;
        byte[] prev = Row.GENESIS;
        long sealed = 0;
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT seq, hash, mac FROM audit_checkpoint ORDER BY seq DESC LIMIT 1")) {
            if (rs.next()) {
                Mark cp = new Mark(rs.getLong(1), rs.getBytes(2), rs.getBytes(3));
                if (!MessageDigest.isEqual(cp.mac(), key.mac(SealKey.CHECKPOINT, cp.seq(), cp.hash()))) {
                    return broken(
                            0,
                            0,
                            0,
                            0,
                            anchor,
                            VerifyResult.Kind.RESEALED,
                            cp.seq(),
                            "checkpoint at seq " + cp.seq() + " does not verify under this key");
                }
                startSeq = cp.seq() + 1;
                prev = cp.hash();
                sealed = cp.seq();
            }
        }
        TreeMap<Long, Mark> seals = new TreeMap<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT seq, hash, mac FROM audit_seal WHERE seq >= ? ORDER BY seq")) {
            ps.setLong(1, startSeq);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    seals.put(rs.getLong(1), new Mark(rs.getLong(1), rs.getBytes(2), rs.getBytes(3)));
                }
            }
        }
        long expected = startSeq;
        long records = 0;
        long firstSeq = 0;
        byte[] anchorHashSeen = null;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT " + Schema.selectColumns(c) + " FROM audit_record WHERE seq >= ? ORDER BY seq")) {
            ps.setLong(1, startSeq);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Row row = AuditStore.readRow(rs);
                    byte[] storedPrev = rs.getBytes(2);
                    byte[] stored = rs.getBytes(3);
                    long head = expected - 1;
                    if (row.seq != expected) {
                        return broken(
                                records,
                                firstSeq,
                                head,
                                sealed,
                                anchor,
                                VerifyResult.Kind.DELETED,
                                expected,
                                "record " + expected + " is missing (next present is " + row.seq + ")");
                    }
                    if (firstSeq == 0) {
                        firstSeq = row.seq;
                    }
                    byte[] computed = row.hash(prev);
                    if (!MessageDigest.isEqual(computed, stored)) {
                        VerifyResult.Break b = classify(c, row, prev, storedPrev, stored, startSeq);
                        return broken(records, firstSeq, head, sealed, anchor, b.kind(), b.seq(), b.detail());
                    }
                    if (!MessageDigest.isEqual(storedPrev, prev)) {
                        return broken(
                                records,
                                firstSeq,
                                head,
                                sealed,
                                anchor,
                                VerifyResult.Kind.EDITED,
                                row.seq,
                                "record " + row.seq + "'s stored link was edited");
                    }
                    Mark seal = seals.get(row.seq);
                    if (seal != null) {
                        if (!MessageDigest.isEqual(seal.mac(), key.mac(SealKey.SEAL, seal.seq(), seal.hash()))) {
                            return broken(
                                    records,
                                    firstSeq,
                                    head,
                                    sealed,
                                    anchor,
                                    VerifyResult.Kind.RESEALED,
                                    row.seq,
                                    "seal at seq " + row.seq + " does not verify under this key");
                        }
                        if (!MessageDigest.isEqual(seal.hash(), stored)) {
                            return broken(
                                    records,
                                    firstSeq,
                                    head,
                                    sealed,
                                    anchor,
                                    VerifyResult.Kind.EDITED,
                                    row.seq,
                                    "the chain through seq " + row.seq
                                            + " was rewritten: its hash differs from the sealed one");
                        }
                        sealed = row.seq;
                    }
                    if (anchor != null && anchor.seq() == row.seq) {
                        anchorHashSeen = stored;
                    }
                    prev = stored;
                    records++;
                    expected++;
                }
            }
        }
        long head = expected - 1;
        if (!seals.isEmpty() && seals.lastKey() > head) {
            Map.Entry<Long, Mark> last = seals.lastEntry();
            return broken(
                    records,
                    firstSeq,
                    head,
                    sealed,
                    anchor,
                    VerifyResult.Kind.TRUNCATED,
                    head + 1,
                    "the log ends at seq " + head + " but a seal covers seq " + last.getKey());
        }
        if (anchor != null) {
            if (!MessageDigest.isEqual(anchor.mac(), key.mac(SealKey.SEAL, anchor.seq(), anchor.hash()))) {
                return broken(
                        records,
                        firstSeq,
                        head,
                        sealed,
                        anchor,
                        VerifyResult.Kind.RESEALED,
                        anchor.seq(),
                        "the head anchor does not verify under this key");
            }
            if (anchor.seq() > head) {
                return broken(
                        records,
                        firstSeq,
                        head,
                        sealed,
                        anchor,
                        VerifyResult.Kind.TRUNCATED,
                        head + 1,
                        "the log ends at seq " + head + " but the head anchor covers seq " + anchor.seq());
            }
            if (anchorHashSeen != null && !MessageDigest.isEqual(anchorHashSeen, anchor.hash())) {
                return broken(
                        records,
                        firstSeq,
                        head,
                        sealed,
                        anchor,
                        VerifyResult.Kind.EDITED,
                        anchor.seq(),
                        "the chain through seq " + anchor.seq()
                                + " was rewritten: its hash differs from the head anchor");
            }
            if (anchor.seq() >= startSeq && anchorHashSeen != null) {
                sealed = Math.max(sealed, anchor.seq());
            }
        }
        return new VerifyResult(records, firstSeq, head, sealed, anchor != null, null);
    }

    /** Tells a reordered record from an edited one, once its hash failed to link. */
    private static VerifyResult.Break classify(
            Connection c, Row row, byte[] prev, byte[] storedPrev, byte[] stored, long startSeq) throws SQLException {
        boolean linkMoved = storedPrev == null || !MessageDigest.isEqual(storedPrev, prev);
        if (linkMoved && storedPrev != null) {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT seq FROM audit_record WHERE hash = ? AND seq <> ? LIMIT 1")) {
                ps.setBytes(1, storedPrev);
                ps.setLong(2, row.seq - 1);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return new VerifyResult.Break(
                                VerifyResult.Kind.REORDERED,
                                row.seq,
                                "record " + row.seq + " follows record " + rs.getLong(1) + " in the chain, not "
                                        + (row.seq - 1));
                    }
                }
            }
            boolean selfConsistent = MessageDigest.isEqual(row.hash(storedPrev), stored);
            if (selfConsistent && row.seq - 1 >= startSeq) {
                return new VerifyResult.Break(
                        VerifyResult.Kind.EDITED,
                        row.seq - 1,
                        "record " + (row.seq - 1) + " was re-hashed: record " + row.seq + " links to "
                                + HexFormat.of().formatHex(storedPrev, 0, 8) + "...");
            }
        }
        return new VerifyResult.Break(
                VerifyResult.Kind.EDITED, row.seq, "record " + row.seq + "'s fields do not match its hash");
    }

    private static VerifyResult broken(
            long records,
            long firstSeq,
            long head,
            long sealed,
            HeadAnchor anchor,
            VerifyResult.Kind kind,
            long seq,
            String detail) {
        return new VerifyResult(
                records, firstSeq, head, sealed, anchor != null, new VerifyResult.Break(kind, seq, detail));
    }
}

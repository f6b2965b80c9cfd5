package dev.deckhand.audit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The audit log on embedded SQLite: one connection, WAL, {@code synchronous=FULL}, a busy
 * timeout, the schema created on open. Every record gets the next seq (1..n, no gaps) and
 * {@code hash = SHA-256(prev_hash || canonical bytes)}; every {@link AuditSettings#sealEvery()}
 * records, on {@link #seal()}, before {@link #prune()} and on {@link #close()} the head is sealed
 * with HMAC-SHA256 under a key kept in a file outside the database, and the seal is copied to
 * {@code <key file>.head}.
 *
 * <p>All methods are thread-safe (one lock around the one connection). {@link #append} returns
 * only after the record is committed with a full sync: an acknowledged seq survives a crash.
 * {@link #defer} keeps a record to be committed with the next append (one commit instead of two).
 * Nothing is logged but counts and seq numbers.
 */
public final class AuditStore implements AuditAppender, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(AuditStore.class.getName());

    private final Path database;
    private final Path keyFile;
    private final Path anchorFile;
    /** The seal key; replaced by {@link #rotateSealKey}, under this store's lock. */
    private SealKey key;

    private final AuditSettings settings;
    private final Clock clock;
    private final Connection conn;
    private final PreparedStatement insert;

    /** Stored values of the deferred records, in call order, their time taken when deferred. */
    private final List<Object[]> deferred = new ArrayList<>();

    private long headSeq;
    private byte[] headHash;
    private long headTs;
    private long sealedSeq;
    private boolean closed;

    private java.nio.channels.FileChannel lockChannel;

    private AuditStore(Path database, Path keyFile, SealKey key, AuditSettings settings, Clock clock, Connection conn)
            throws SQLException {
        this.database = database;
        this.keyFile = keyFile;
        this.anchorFile = HeadAnchor.pathFor(keyFile);
        this.key = key;
        this.settings = settings;
        this.clock = clock;
        this.conn = conn;
        this.insert = conn.prepareStatement(Schema.insertRecord());
        loadHead();
    }

    /**
     * Opens (creating when missing, with mode 0600) the database and the seal key file.
     *
     * @param database the SQLite file
     * @param sealKeyFile the key file; must not be inside the database; created 0600 if missing
     * @param settings seal interval, retention, busy timeout
     * @param clock decides record times and retention
     */
    public static AuditStore open(Path database, Path sealKeyFile, AuditSettings settings, Clock clock) {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(sealKeyFile, "sealKeyFile");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(clock, "clock");
        SealKey key = SealKey.loadOrCreate(sealKeyFile);
        java.nio.channels.FileChannel lock = lockExclusively(database);
        Connection c = null;
        try {
            createPrivately(database);
            c = connect(database);
            Schema.pragmas(c, settings.busyTimeoutMillis());
            Schema.create(c);
            c.setAutoCommit(false);
            c.commit();
            AuditStore store = new AuditStore(database, sealKeyFile, key, settings, clock, c);
            store.lockChannel = lock;
            return store;
        } catch (SQLException | RuntimeException e) {
            closeQuietly(c);
            closeQuietly(lock);
            throw e instanceof AuditException a
                    ? a
                    : new AuditException("cannot open the audit database " + database, e);
        }
    }

    /**
     * One writer per database: the chain's head is kept in memory, so a second process appending to
     * the same file would fork the chain. The lock ({@code <database>.lock}) is released by the
     * operating system when the process dies, so a crash never leaves it held.
     */
    private static java.nio.channels.FileChannel lockExclusively(Path database) {
        Path lockFile = database.resolveSibling(database.getFileName() + ".lock");
        java.nio.channels.FileChannel channel = null;
        try {
            Files.createDirectories(database.toAbsolutePath().getParent());
            channel = java.nio.channels.FileChannel.open(
                    lockFile, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
            if (channel.tryLock() == null) {
                throw new AuditException(
                        "the audit log " + database + " is in use by another Deckhand process "
                                + "with this config directory; use that server (its MCP endpoint or page) or stop it first",
                        null);
            }
            return channel;
        } catch (java.nio.channels.OverlappingFileLockException e) {
            closeQuietly(channel);
            throw new AuditException("the audit log " + database + " is already open in this process", null);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new AuditException("cannot lock the audit log " + database, e);
        }
    }

    /**
     * Whether another process holds {@code database}'s writer lock right now (a Deckhand server on the
     * same config directory). Checked by {@code deckhand run} before it starts a second server.
     */
    public static boolean heldElsewhere(Path database) {
        try {
            lockExclusively(database).close();
            return false;
        } catch (AuditException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        if (c == null) return;
        try {
            c.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /**
     * Opens a connection through the driver class itself, not {@link DriverManager}: a Quarkus
     * application that stops in the same JVM (tests) deregisters the drivers it loaded.
     */
    static Connection connect(Path database) throws SQLException {
        Connection c =
                new org.sqlite.JDBC().connect("jdbc:sqlite:" + database.toAbsolutePath(), new java.util.Properties());
        if (c == null) throw new SQLException("the SQLite driver refused " + database);
        return c;
    }

    private static void createPrivately(Path database) {
        try {
            Path dir = database.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            if (!Files.exists(database)) {
                try {
                    Files.createFile(
                            database,
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                } catch (UnsupportedOperationException e) {
                    Files.createFile(database);
                }
            }
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // created concurrently; fine
        } catch (IOException e) {
            throw new AuditException("cannot create the audit database " + database, e);
        }
    }

    private void loadHead() throws SQLException {
        headSeq = 0;
        headHash = Row.GENESIS;
        headTs = 0;
        sealedSeq = 0;
        try (Statement s = conn.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT seq, hash, ts FROM audit_record ORDER BY seq DESC LIMIT 1")) {
                if (rs.next()) {
                    headSeq = rs.getLong(1);
                    headHash = rs.getBytes(2);
                    headTs = rs.getLong(3);
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT seq, hash FROM audit_checkpoint ORDER BY seq DESC LIMIT 1")) {
                if (rs.next()) {
                    sealedSeq = rs.getLong(1);
                    if (headSeq == 0) {
                        headSeq = rs.getLong(1);
                        headHash = rs.getBytes(2);
                    }
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT max(seq) FROM audit_seal")) {
                if (rs.next()) {
                    sealedSeq = Math.max(sealedSeq, rs.getLong(1));
                }
            }
        }
        conn.commit();
    }

    /**
     * Appends one record and commits it durably, in the same transaction as every deferred record
     * before it.
     *
     * @return the record's seq; once this returns the record (and every record deferred before it)
     *         survives a crash
     */
    @Override
    public synchronized long append(AuditEvent event) {
        Objects.requireNonNull(event, "event");
        return appendAll(List.of(event));
    }

    /**
     * Appends records in one transaction (all or none), after the deferred ones, with the same chain
     * as single appends. Seals afterwards if the interval was crossed.
     *
     * @return the seq of the last record, or the current head when {@code events} is empty
     */
    public synchronized long appendAll(List<? extends AuditEvent> events) {
        Objects.requireNonNull(events, "events");
        ensureOpen();
        List<Object[]> rows = new ArrayList<>(deferred.size() + events.size());
        for (Object[] d : deferred) {
            rows.add(d.clone());
        }
        for (AuditEvent event : events) {
            rows.add(AuditRows.toValues(Objects.requireNonNull(event, "events element"), clock.millis()));
        }
        if (rows.isEmpty()) {
            return headSeq;
        }
        long seq = headSeq;
        byte[] prev = headHash;
        long ts = headTs;
        try {
            for (Object[] values : rows) {
                seq++;
                ts = Math.max((Long) values[Row.TS], ts);
                values[Row.TS] = ts;
                Row row = new Row(seq, values);
                byte[] hash = row.hash(prev);
                bind(row, prev, hash);
                insert.addBatch();
                prev = hash;
            }
            insert.executeBatch();
            conn.commit();
        } catch (SQLException e) {
            rollbackQuietly();
            throw new AuditException("cannot append " + rows.size() + " audit records after " + headSeq, e);
        }
        deferred.clear();
        headSeq = seq;
        headHash = prev;
        headTs = ts;
        if (headSeq - sealedSeq >= settings.sealEvery()) {
            seal();
        }
        return seq;
    }

    /**
     * Keeps a record in memory, timed now, to be committed first in the next {@link #append} or
     * {@link #appendAll} (of any record, from any caller), by {@link #flush()} or on {@link #close()}.
     * The order of seqs stays the order of the calls. A crash loses what is still deferred, so only a
     * record that nothing has acted on yet may wait: an action's result, never its intent.
     */
    @Override
    public synchronized void defer(AuditEvent event) {
        Objects.requireNonNull(event, "event");
        ensureOpen();
        deferred.add(AuditRows.toValues(event, clock.millis()));
    }

    /** Commits the deferred records now (a no-op when none wait). */
    public synchronized void flush() {
        appendAll(List.of());
    }

    /** How many records wait in memory for the next commit. */
    public synchronized int deferredCount() {
        return deferred.size();
    }

    private void bind(Row row, byte[] prev, byte[] hash) throws SQLException {
        insert.setLong(1, row.seq);
        insert.setBytes(2, prev);
        insert.setBytes(3, hash);
        for (int i = 0; i < Row.COLUMNS.length; i++) {
            Object v = row.values[i];
            int p = i + 4;
            if (v == null) {
                insert.setNull(p, Row.TYPES[i] == 'L' ? Types.INTEGER : Types.VARCHAR);
            } else if (Row.TYPES[i] == 'L') {
                insert.setLong(p, (Long) v);
            } else {
                insert.setString(p, (String) v);
            }
        }
    }

    /** Seals the current head now (no-op when it is already sealed). */
    public synchronized void seal() {
        ensureOpen();
        if (headSeq <= sealedSeq) {
            return;
        }
        byte[] mac = key.mac(SealKey.SEAL, headSeq, headHash);
        try (PreparedStatement ps = conn.prepareStatement(
                "INSERT OR REPLACE INTO audit_seal (seq, hash, mac, sealed_at) VALUES (?, ?, ?, ?)")) {
            ps.setLong(1, headSeq);
            ps.setBytes(2, headHash);
            ps.setBytes(3, mac);
            ps.setLong(4, clock.millis());
            ps.executeUpdate();
            conn.commit();
        } catch (SQLException e) {
            rollbackQuietly();
            throw new AuditException("cannot seal the audit head at " + headSeq, e);
        }
        sealedSeq = headSeq;
        new HeadAnchor(headSeq, headHash, mac).write(anchorFile);
    }

    /**
     * Replaces the seal key for every record after the head, as a copy of it may have left (docs/audit.md, "Seal key
     * epochs"): the waiting records are committed and the head sealed with the old key, and the new key, written to the
     * key file as a new epoch from the next seq, makes every later seal and anchor. The first seal of the new epoch
     * covers the whole chain before it, so an old key's holder who rewrites the log and seals it again is caught there.
     */
    public synchronized void rotateSealKey() {
        ensureOpen();
        flush();
        seal();
        key = key.rotated(keyFile, headSeq + 1);
    }

    /** The seq of the last appended record (0 when none yet). */
    public synchronized long headSeq() {
        return headSeq;
    }

    /** The highest seq covered by a seal or checkpoint. */
    public synchronized long sealedSeq() {
        return sealedSeq;
    }

    /** Pages records with the query's filters, newest first. */
    public synchronized AuditPage page(AuditQuery query) {
        Objects.requireNonNull(query, "query");
        ensureOpen();
        List<Object> filterArgs = new ArrayList<>();
        StringBuilder where = new StringBuilder();
        eq(where, filterArgs, "run_id", query.runId());
        eq(where, filterArgs, "grant_id", query.grantId());
        eq(
                where,
                filterArgs,
                "action_kind",
                query.actionKind() == null ? null : query.actionKind().wire());
        eq(where, filterArgs, "outcome", query.outcome());
        eq(
                where,
                filterArgs,
                "refusal_code",
                query.refusalCode() == null ? null : query.refusalCode().name());
        // Record times never decrease along seq (append clamps them), so a time range is a seq
        // range, found through the ts index; the page itself then walks one (column, seq) index.
        if (query.from() != null) {
            where.append(
                    " AND seq >= coalesce((SELECT seq FROM audit_record WHERE ts >= ? ORDER BY ts, seq LIMIT 1), 9223372036854775807)");
            filterArgs.add(query.from().toEpochMilli());
        }
        if (query.to() != null) {
            where.append(
                    " AND seq <= coalesce((SELECT seq FROM audit_record WHERE ts < ? ORDER BY ts DESC, seq DESC LIMIT 1), 0)");
            filterArgs.add(query.to().toEpochMilli());
        }
        if (query.beforeSeq() != null) {
            where.append(" AND seq < ?");
            filterArgs.add(query.beforeSeq());
        }
        String cols = Schema.selectColumns();
        List<Object> args = new ArrayList<>();
        String sql;
        if (query.kinds().size() <= 1) {
            String kindFilter = "";
            if (query.kinds().size() == 1) {
                kindFilter = " AND kind = ?";
                args.add(query.kinds().iterator().next().name());
            }
            args.addAll(filterArgs);
            sql = "SELECT " + cols + " FROM audit_record WHERE 1=1" + kindFilter + where + " ORDER BY seq DESC LIMIT ?";
        } else {
            // One (kind, seq) index walk per kind, each stopping at the limit, merged: "kind IN (..)
            // ORDER BY seq" would otherwise sort every matching row.
            List<String> branches = new ArrayList<>();
            for (RecordKind k : RecordKind.values()) {
                if (query.kinds().contains(k)) {
                    branches.add("SELECT * FROM (SELECT " + cols + " FROM audit_record WHERE kind = ?" + where
                            + " ORDER BY seq DESC LIMIT ?)");
                    args.add(k.name());
                    args.addAll(filterArgs);
                    args.add((long) query.limit());
                }
            }
            sql = "SELECT " + cols + " FROM (" + String.join(" UNION ALL ", branches) + ") ORDER BY seq DESC LIMIT ?";
        }
        args.add((long) query.limit());
        List<StoredRecord> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int i = 0; i < args.size(); i++) {
                Object a = args.get(i);
                if (a instanceof Long) {
                    ps.setLong(i + 1, (Long) a);
                } else {
                    ps.setString(i + 1, (String) a);
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Row row = readRow(rs);
                    out.add(new StoredRecord(
                            row.seq, Instant.ofEpochMilli(row.longAt(Row.TS)), AuditRows.toEvent(row)));
                }
            }
            conn.commit();
        } catch (SQLException e) {
            rollbackQuietly();
            throw new AuditException("cannot page audit records", e);
        }
        Long next = out.size() == query.limit() ? out.get(out.size() - 1).seq() : null;
        return new AuditPage(out, next);
    }

    /** {@link #page} restricted to run records. */
    public AuditPage runs(AuditQuery query) {
        return page(query.toBuilder().kinds(RecordKind.RUN).build());
    }

    /** {@link #page} restricted to action intents and results. */
    public AuditPage actions(AuditQuery query) {
        return page(query.toBuilder()
                .kinds(RecordKind.ACTION_INTENT, RecordKind.ACTION_RESULT)
                .build());
    }

    private static void eq(StringBuilder where, List<Object> args, String column, String value) {
        if (value != null) {
            where.append(" AND ").append(column).append(" = ?");
            args.add(value);
        }
    }

    static Row readRow(ResultSet rs) throws SQLException {
        Object[] v = Row.empty();
        for (int i = 0; i < Row.COLUMNS.length; i++) {
            int p = i + 4;
            if (Row.TYPES[i] == 'L') {
                long l = rs.getLong(p);
                v[i] = rs.wasNull() ? null : l;
            } else {
                v[i] = rs.getString(p);
            }
        }
        return new Row(rs.getLong(1), v);
    }

    /**
     * Applies retention: removes the longest sealed prefix whose records are all older than
     * {@code now - retention}, and records a checkpoint (seq and hash of the last removed record,
     * HMAC'd under the key) in the same transaction, so the rest still verifies from there.
     * Seals the head first. Does nothing when retention is null.
     */
    public synchronized PruneResult prune() {
        ensureOpen();
        if (settings.retention() == null) {
            return PruneResult.nothing();
        }
        seal();
        long cutoff = clock.instant().minus(settings.retention()).toEpochMilli();
        try {
            long firstKept;
            try (PreparedStatement ps = conn.prepareStatement("SELECT min(seq) FROM audit_record WHERE ts >= ?")) {
                ps.setLong(1, cutoff);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    long m = rs.getLong(1);
                    firstKept = rs.wasNull() ? headSeq + 1 : m;
                }
            }
            long cut;
            byte[] cutHash;
            try (PreparedStatement ps =
                    conn.prepareStatement("SELECT seq, hash FROM audit_seal WHERE seq < ? ORDER BY seq DESC LIMIT 1")) {
                ps.setLong(1, firstKept);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        conn.commit();
                        return PruneResult.nothing();
                    }
                    cut = rs.getLong(1);
                    cutHash = rs.getBytes(2);
                }
            }
            long deleted;
            try (PreparedStatement del = conn.prepareStatement("DELETE FROM audit_record WHERE seq <= ?")) {
                del.setLong(1, cut);
                deleted = del.executeUpdate();
            }
            if (deleted == 0) {
                conn.commit();
                return PruneResult.nothing();
            }
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO audit_checkpoint (seq, hash, mac, pruned_at, pruned_records) VALUES (?, ?, ?, ?, ?)")) {
                ps.setLong(1, cut);
                ps.setBytes(2, cutHash);
                ps.setBytes(3, key.mac(SealKey.CHECKPOINT, cut, cutHash));
                ps.setLong(4, clock.millis());
                ps.setLong(5, deleted);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = conn.prepareStatement("DELETE FROM audit_seal WHERE seq <= ?")) {
                ps.setLong(1, cut);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = conn.prepareStatement("DELETE FROM audit_checkpoint WHERE seq < ?")) {
                ps.setLong(1, cut);
                ps.executeUpdate();
            }
            conn.commit();
            LOG.log(System.Logger.Level.INFO, "audit retention removed {0} records through seq {1}", deleted, cut);
            return new PruneResult(cut, deleted);
        } catch (SQLException e) {
            rollbackQuietly();
            throw new AuditException("cannot prune the audit log", e);
        }
    }

    /** Verifies the whole chain through this store's connection (see {@link AuditVerifier}). */
    public synchronized VerifyResult verify() {
        ensureOpen();
        try {
            VerifyResult r = AuditVerifier.verify(conn, key, HeadAnchor.read(anchorFile));
            conn.commit();
            return r;
        } catch (SQLException e) {
            rollbackQuietly();
            throw new AuditException("cannot verify the audit log", e);
        }
    }

    /** The database file. */
    public Path database() {
        return database;
    }

    /** The seal key file. */
    public Path sealKeyFile() {
        return keyFile;
    }

    /** Seals the head and closes the connection. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            flush();
            seal();
        } finally {
            closed = true;
            try {
                insert.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
            closeQuietly(conn);
            closeQuietly(lockChannel);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("audit store is closed");
        }
    }

    private void rollbackQuietly() {
        try {
            conn.rollback();
        } catch (SQLException ignored) {
            // the original failure is what matters
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // nothing more to do
            }
        }
    }
}

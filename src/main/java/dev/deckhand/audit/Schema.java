package dev.deckhand.audit;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** DDL and connection settings shared by the store and the verifier. */
final class Schema {
    static final int VERSION = 3;

    private Schema() {}

    static String createRecordTable() {
        StringBuilder sb = new StringBuilder("CREATE TABLE IF NOT EXISTS audit_record ("
                + "seq INTEGER PRIMARY KEY, prev_hash BLOB NOT NULL, hash BLOB NOT NULL");
        for (int i = 0; i < Row.COLUMNS.length; i++) {
            sb.append(", ").append(Row.COLUMNS[i]).append(Row.TYPES[i] == 'L' ? " INTEGER" : " TEXT");
            if (i == Row.TS || i == Row.KIND) {
                sb.append(" NOT NULL");
            }
        }
        return sb.append(") STRICT").toString();
    }

    static final String[] DDL = {
        createRecordTable(),
        "CREATE TABLE IF NOT EXISTS audit_seal (seq INTEGER PRIMARY KEY, hash BLOB NOT NULL, "
                + "mac BLOB NOT NULL, sealed_at INTEGER NOT NULL) STRICT",
        "CREATE TABLE IF NOT EXISTS audit_checkpoint (seq INTEGER PRIMARY KEY, hash BLOB NOT NULL, "
                + "mac BLOB NOT NULL, pruned_at INTEGER NOT NULL, pruned_records INTEGER NOT NULL) STRICT",
        // (column, seq) indexes let "filter = ? ORDER BY seq DESC LIMIT n" walk one index range.
        "CREATE INDEX IF NOT EXISTS audit_by_run ON audit_record(run_id, seq)",
        "CREATE INDEX IF NOT EXISTS audit_by_grant ON audit_record(grant_id, seq)",
        "CREATE INDEX IF NOT EXISTS audit_by_kind ON audit_record(kind, seq)",
        "CREATE INDEX IF NOT EXISTS audit_by_action ON audit_record(action_kind, seq)",
        "CREATE INDEX IF NOT EXISTS audit_by_outcome ON audit_record(outcome, seq)",
        "CREATE INDEX IF NOT EXISTS audit_by_refusal ON audit_record(refusal_code, seq)",
        // ts is monotone in seq, so a time range becomes a seq range through this index.
        "CREATE INDEX IF NOT EXISTS audit_by_ts ON audit_record(ts)",
    };

    static void pragmas(Connection c, int busyTimeoutMillis) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout = " + busyTimeoutMillis);
            s.execute("PRAGMA journal_mode = WAL");
            s.execute("PRAGMA synchronous = FULL");
        }
    }

    static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String ddl : DDL) {
                s.execute(ddl);
            }
            java.util.Set<String> present = columns(c);
            for (int i = Row.LEGACY_COLUMNS; i < Row.COLUMNS.length; i++) {
                if (!present.contains(Row.COLUMNS[i])) {
                    s.execute("ALTER TABLE audit_record ADD COLUMN " + Row.COLUMNS[i]
                            + (Row.TYPES[i] == 'L' ? " INTEGER" : " TEXT"));
                }
            }
            s.execute("PRAGMA user_version = " + VERSION);
        }
    }

    /** The columns audit_record has (a database of an older version lacks the later ones). */
    static java.util.Set<String> columns(Connection c) throws SQLException {
        java.util.Set<String> out = new java.util.HashSet<>();
        try (Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("PRAGMA table_info(audit_record)")) {
            while (rs.next()) out.add(rs.getString("name"));
        }
        return out;
    }

    /** {@link #selectColumns()} for a database that may lack the later columns: those read as NULL. */
    static String selectColumns(Connection c) throws SQLException {
        java.util.Set<String> present = columns(c);
        StringBuilder sb = new StringBuilder("seq, prev_hash, hash");
        for (String col : Row.COLUMNS) sb.append(", ").append(present.contains(col) ? col : "NULL AS " + col);
        return sb.toString();
    }

    static String insertRecord() {
        StringBuilder cols = new StringBuilder("seq, prev_hash, hash");
        StringBuilder qs = new StringBuilder("?, ?, ?");
        for (String c : Row.COLUMNS) {
            cols.append(", ").append(c);
            qs.append(", ?");
        }
        return "INSERT INTO audit_record (" + cols + ") VALUES (" + qs + ")";
    }

    static String selectColumns() {
        return "seq, prev_hash, hash, " + String.join(", ", Row.COLUMNS);
    }
}

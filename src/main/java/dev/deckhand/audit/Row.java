package dev.deckhand.audit;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The flat, stored form of a record: the values of {@link #COLUMNS} in order (each a Long, a
 * String or null), plus seq. The canonical bytes, and so the hash, are defined over this form so
 * the verifier needs nothing but the table.
 */
final class Row {
    /** Stored columns after seq/prev_hash/hash, in canonical order. */
    static final String[] COLUMNS = {
        "ts",
        "kind",
        "event",
        "run_id",
        "grant_id",
        "grant_rev",
        "window_id",
        "app",
        "action_kind",
        "step",
        "role",
        "uid",
        "text_len",
        "outcome",
        "refusal_code",
        "approval_id",
        "approval_actions",
        "instruction",
        "route",
        "steps_run",
        "verifier_kind",
        "verifier_result",
        "verdict",
        "started_at",
        "ended_at",
        // added in schema version 2 (an action's effect and a run's model use, docs/audit.md): absent from older rows,
        // which hash exactly as before
        "effect",
        "provider",
        "model",
        "model_turns",
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "final_report",
        "timings",
        // added in schema version 3: a grant's settings as the person chose them (docs/audit.md)
        "grant_settings"
    };
    /** 'L' = INTEGER, 'T' = TEXT, parallel to COLUMNS. */
    static final char[] TYPES = "LTTTTLTTTLTTLTTTLTTLTTTLLTTTLLLTTTT".toCharArray();
    /** The columns of schema version 1; the later ones enter the canonical bytes only when one is set. */
    static final int LEGACY_COLUMNS = 25;
    /** The columns of schema versions 1 and 2; version 3's enter the canonical bytes only when one is set. */
    static final int V2_COLUMNS = 34;

    static final int TS = 0,
            KIND = 1,
            EVENT = 2,
            RUN_ID = 3,
            GRANT_ID = 4,
            GRANT_REV = 5,
            WINDOW_ID = 6,
            APP = 7,
            ACTION_KIND = 8,
            STEP = 9,
            ROLE = 10,
            UID = 11,
            TEXT_LEN = 12,
            OUTCOME = 13,
            REFUSAL_CODE = 14,
            APPROVAL_ID = 15,
            APPROVAL_ACTIONS = 16,
            INSTRUCTION = 17,
            ROUTE = 18,
            STEPS_RUN = 19,
            VERIFIER_KIND = 20,
            VERIFIER_RESULT = 21,
            VERDICT = 22,
            STARTED_AT = 23,
            ENDED_AT = 24,
            EFFECT = 25,
            PROVIDER = 26,
            MODEL = 27,
            MODEL_TURNS = 28,
            INPUT_TOKENS = 29,
            OUTPUT_TOKENS = 30,
            COST_USD = 31,
            FINAL_REPORT = 32,
            TIMINGS = 33,
            GRANT_SETTINGS = 34;

    static final byte[] GENESIS = new byte[32];
    private static final byte[] DOMAIN = "deckhand-audit-v1".getBytes(StandardCharsets.US_ASCII);

    static {
        if (COLUMNS.length != TYPES.length) {
            throw new AssertionError("COLUMNS and TYPES differ in length");
        }
    }

    final long seq;
    final Object[] values;

    Row(long seq, Object[] values) {
        if (values.length != COLUMNS.length) {
            throw new IllegalArgumentException("values must have " + COLUMNS.length + " entries");
        }
        this.seq = seq;
        this.values = values;
    }

    static Object[] empty() {
        return new Object[COLUMNS.length];
    }

    Long longAt(int i) {
        return (Long) values[i];
    }

    String textAt(int i) {
        return (String) values[i];
    }

    /**
     * Canonical bytes: domain tag, seq, then each column of version 1 as null (0), long (1) or text (2,
     * length, UTF-8); then, only when a column of version 2 or later is set, a 3 and every column of version 2
     * the same way; then, only when a column of version 3 is set, a 4 and every column of version 3. A row written
     * before a version's columns existed hashes exactly as it did.
     */
    byte[] canonical() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        out.writeBytes(DOMAIN);
        out.writeBytes(longBytes(seq));
        int last = -1;
        for (int i = 0; i < values.length; i++) if (values[i] != null) last = i;
        int end = last >= V2_COLUMNS ? values.length : last >= LEGACY_COLUMNS ? V2_COLUMNS : LEGACY_COLUMNS;
        for (int i = 0; i < end; i++) {
            if (i == LEGACY_COLUMNS) out.write(3);
            if (i == V2_COLUMNS) out.write(4);
            Object v = values[i];
            if (v == null) {
                out.write(0);
            } else if (TYPES[i] == 'L') {
                out.write(1);
                out.writeBytes(longBytes((Long) v));
            } else {
                byte[] b = ((String) v).getBytes(StandardCharsets.UTF_8);
                out.write(2);
                out.writeBytes(ByteBuffer.allocate(4).putInt(b.length).array());
                out.writeBytes(b);
            }
        }
        return out.toByteArray();
    }

    /** hash = SHA-256(prevHash || canonical()). */
    byte[] hash(byte[] prevHash) {
        MessageDigest md = sha256();
        md.update(prevHash);
        md.update(canonical());
        return md.digest();
    }

    static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    @Override
    public String toString() {
        return "Row[seq=" + seq + ", " + Arrays.toString(values) + "]";
    }
}

package dev.deckhand.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HexFormat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A row's hash never changes when the schema grows: rows of each earlier version hash as the code of that version
 * hashed them (the figures below were taken with that code), so a log written before a column existed verifies.
 */
@Tag("app")
class RowHashTest {

    /** A version-1 row (a grant's mint): no later column set. */
    private static Row v1() {
        Object[] v = Row.empty();
        v[Row.TS] = 1_700_000_000_000L;
        v[Row.KIND] = "GRANT";
        v[Row.EVENT] = "mint";
        v[Row.GRANT_ID] = "g-1";
        v[Row.GRANT_REV] = 3L;
        v[Row.WINDOW_ID] = "42";
        v[Row.APP] = "mousepad";
        return new Row(7, v);
    }

    /** A version-2 row (an action's result with its effect). */
    private static Row v2() {
        Object[] v = Row.empty();
        v[Row.TS] = 1_700_000_000_500L;
        v[Row.KIND] = "ACTION_RESULT";
        v[Row.RUN_ID] = "r-1";
        v[Row.STEP] = 0L;
        v[Row.ACTION_KIND] = "click";
        v[Row.OUTCOME] = "done";
        v[Row.EFFECT] = "changed";
        return new Row(8, v);
    }

    /** A version-3 row (a grant's mint with its settings). */
    private static Row v3() {
        Row r = v1();
        r.values[Row.GRANT_SETTINGS] = "scope window; input confirm_each; capture pixels; blind input";
        return r;
    }

    @Test
    void rowsOfEarlierVersionsHashAsTheyAlwaysDid() {
        assertEquals(
                "d3f6474f25586f28ad3b0d00b54c682e9b47ae428a14f476348fd006f7618937",
                HexFormat.of().formatHex(v1().hash(Row.GENESIS)));
        assertEquals(
                "f20c3b2021e3c5da47b0a6a1b13bc837a3b03c731f0554de2ef299209d11e948",
                HexFormat.of().formatHex(v2().hash(Row.GENESIS)));
        // a column of a later version enters the hash when set
        assertNotEquals(
                HexFormat.of().formatHex(v1().hash(Row.GENESIS)), HexFormat.of().formatHex(v3().hash(Row.GENESIS)));
    }
}

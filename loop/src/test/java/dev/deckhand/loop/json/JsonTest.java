package dev.deckhand.loop.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class JsonTest {

    @Test
    void readsEveryKindOfValue() {
        Object v = Json.parse(" {\"a\": [1, -2.5, true, false, null, \"x\\n\\u00e9\\\"\"], \"b\": {}} ");
        Map<?, ?> m = (Map<?, ?>) v;
        List<?> a = (List<?>) m.get("a");
        assertEquals(1L, a.get(0));
        assertEquals(new BigDecimal("-2.5"), a.get(1));
        assertEquals(true, a.get(2));
        assertEquals(false, a.get(3));
        assertNull(a.get(4));
        assertEquals("x\né\"", a.get(5));
        assertEquals(Map.of(), m.get("b"));
    }

    @Test
    void refusesWhatRfc8259Refuses() {
        for (String bad : new String[] {
            "",
            "  ",
            "{",
            "{\"a\":1,}",
            "[1,]",
            "{'a':1}",
            "{\"a\":01}",
            "{\"a\":1} x",
            "{\"a\":1}{\"b\":2}",
            "// c\n{}",
            "{\"a\":1,\"a\":2}",
            "{\"a\":\"\t\"}",
            "{\"a\":tru}",
            "{\"a\":.5}",
            "{\"a\":1.}",
            "{\"a\":\"\\x\"}",
            "NaN",
            "{\"a\" 1}"
        }) {
            assertThrows(WireFormatException.class, () -> Json.parse(bad), bad);
        }
    }

    @Test
    void refusesDeepNesting() {
        String deep = "[".repeat(Json.MAX_DEPTH + 2) + "]".repeat(Json.MAX_DEPTH + 2);
        WireFormatException e = assertThrows(WireFormatException.class, () -> Json.parse(deep));
        assertTrue(e.getMessage().contains("nesting"));
    }

    @Test
    void writesWhatItReads() {
        String text = "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"n\":[1,2.5,-3],\"t\":true,\"z\":null,\"o\":{\"k\":[]}}";
        assertEquals(text, Json.write(Json.parse(text)));
    }
}

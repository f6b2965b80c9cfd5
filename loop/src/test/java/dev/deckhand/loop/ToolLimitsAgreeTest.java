package dev.deckhand.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.json.WireFormatException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The {@code computer} tool's limits, one value each: the published schema ({@link InputSchema}), the reader
 * ({@link RunArguments}: the limit is taken, one more is refused naming the argument) and docs/contract.md's
 * input table (the numbers parsed out of it) agree on every one.
 */
@Tag("pure")
class ToolLimitsAgreeTest {

    /** The upper bound the contract's input table states for {@code field}: the number after "1..". */
    static long documented(String field) throws Exception {
        Path contract = Path.of("..", "docs", "contract.md");
        if (!Files.exists(contract)) contract = Path.of("docs", "contract.md");
        Pattern row = Pattern.compile("(?m)^\\| `" + Pattern.quote(field) + "` \\|([^|]*)\\|");
        Matcher m = row.matcher(Files.readString(contract));
        assertTrue(m.find(), "docs/contract.md has an input row for " + field);
        Matcher range = Pattern.compile("1\\.\\.([0-9][0-9,]*)").matcher(m.group(1));
        assertTrue(range.find(), "the row for " + field + " states its range 1..N: " + m.group(1));
        return Long.parseLong(range.group(1).replace(",", ""));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> property(String field) {
        return (Map<String, Object>) ((Map<String, Object>) InputSchema.tree().get("properties")).get(field);
    }

    static Map<String, Object> args(String field, Object value) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("instruction", "press OK");
        args.put(field, value);
        return args;
    }

    static String refused(Map<String, Object> args) {
        return assertThrows(WireFormatException.class, () -> RunArguments.read("run-1", args))
                .getMessage();
    }

    static List<Object> waits(int n) {
        List<Object> steps = new ArrayList<>();
        for (int i = 0; i < n; i++) steps.add(Map.of("action", "wait", "ms", 1L));
        return steps;
    }

    @Test
    void instruction() throws Exception {
        int max = ToolLimits.MAX_INSTRUCTION;
        assertEquals(max, documented("instruction"));
        assertEquals((long) max, property("instruction").get("maxLength"));
        assertEquals(
                max,
                RunArguments.read("run-1", Map.of("instruction", "a".repeat(max)))
                        .instruction()
                        .length());
        String message = refused(Map.of("instruction", "a".repeat(max + 1)));
        assertTrue(message.startsWith("instruction must be at most " + max), message);
    }

    @Test
    void steps() throws Exception {
        int max = ToolLimits.MAX_STEPS;
        assertEquals(max, documented("steps"));
        assertEquals((long) max, property("steps").get("maxItems"));
        assertEquals(
                max,
                RunArguments.read("run-1", args("steps", waits(max))).steps().size());
        String message = refused(args("steps", waits(max + 1)));
        assertTrue(message.startsWith("steps must have at most " + max), message);
    }

    @Test
    void maxSteps() throws Exception {
        int max = ToolLimits.MAX_MAX_STEPS;
        assertEquals(max, documented("maxSteps"));
        assertEquals((long) max, property("maxSteps").get("maximum"));
        assertEquals(1L, property("maxSteps").get("minimum"));
        assertEquals(
                max,
                RunArguments.read("run-1", args("maxSteps", (long) max))
                        .maxSteps()
                        .orElseThrow());
        assertEquals("maxSteps must be an integer in 1.." + max, refused(args("maxSteps", (long) max + 1)));
        assertEquals("maxSteps must be an integer in 1.." + max, refused(args("maxSteps", 0L)));
    }

    @Test
    void timeoutSeconds() throws Exception {
        int max = ToolLimits.MAX_TIMEOUT_SECONDS;
        assertEquals(max, documented("timeoutSeconds"));
        assertEquals((long) max, property("timeoutSeconds").get("maximum"));
        assertEquals(1L, property("timeoutSeconds").get("minimum"));
        assertEquals(
                max,
                RunArguments.read("run-1", args("timeoutSeconds", (long) max))
                        .timeoutSeconds()
                        .orElseThrow());
        assertEquals("timeoutSeconds must be an integer in 1.." + max, refused(args("timeoutSeconds", (long) max + 1)));
    }

    @Test
    void theSchemaPublishesTheStepFieldsTheParserReads() {
        @SuppressWarnings("unchecked")
        Map<String, Object> item = (Map<String, Object>) property("steps").get("items");
        @SuppressWarnings("unchecked")
        Map<String, Object> props = (Map<String, Object>) item.get("properties");
        assertEquals(
                List.of("action", "target", "text", "keys", "direction", "amount", "option", "x", "y", "ms"),
                new ArrayList<>(props.keySet()));
        @SuppressWarnings("unchecked")
        Map<String, Object> text = (Map<String, Object>) props.get("text");
        assertEquals((long) dev.deckhand.loop.action.Action.MAX_TEXT, text.get("maxLength"));
        assertEquals(false, item.get("additionalProperties"));
    }
}

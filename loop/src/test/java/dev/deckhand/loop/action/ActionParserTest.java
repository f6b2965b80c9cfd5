package dev.deckhand.loop.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.json.Json;
import dev.deckhand.loop.json.WireFormatException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class ActionParserTest {

    private static String refusal(String raw) {
        return assertThrows(WireFormatException.class, () -> ActionParser.parse(raw), raw)
                .getMessage();
    }

    @Test
    void readsEveryAction() {
        assertEquals(new Action.Click("u7Kq2"), ActionParser.parse("{\"action\": \"click\", \"uid\": \"u7Kq2\"}"));
        assertEquals(
                new Action.SetText("u1", ""),
                ActionParser.parse("{\"action\":\"set_text\",\"uid\":\"u1\",\"text\":\"\"}"));
        assertEquals(new Action.Type("hi"), ActionParser.parse("{\"action\":\"type\",\"text\":\"hi\"}"));
        assertEquals(new Action.Key("ctrl+s"), ActionParser.parse("{\"action\": \"key\", \"keys\": \"ctrl+s\"}"));
        assertEquals(new Action.Focus("u2"), ActionParser.parse("{\"action\":\"focus\",\"uid\":\"u2\"}"));
        assertEquals(
                new Action.Scroll("u3", "down", 5),
                ActionParser.parse("{\"action\":\"scroll\",\"uid\":\"u3\",\"direction\":\"down\",\"amount\":5}"));
        assertEquals(
                new Action.Select("u4", "Bold"),
                ActionParser.parse("{\"action\":\"select\",\"uid\":\"u4\",\"option\":\"Bold\"}"));
        assertEquals(
                new Action.ClickAt(10, 20, "c1"),
                ActionParser.parse("{\"action\":\"click_at\",\"x\":10,\"y\":20,\"basis\":\"c1\"}"));
        assertEquals(new Action.Wait(500), ActionParser.parse("{\"action\":\"wait\",\"ms\":500}"));
        assertEquals(new Action.Done("saved"), ActionParser.parse("\n{\"action\":\"done\",\"summary\":\"saved\"}\n"));
        assertEquals(new Action.Fail("no menu"), ActionParser.parse("{\"action\":\"fail\",\"reason\":\"no menu\"}"));
    }

    @Test
    void refusesMalformedJson() {
        assertTrue(refusal("{\"action\": \"click\", \"uid\": }").startsWith("malformed JSON"));
        assertTrue(refusal("{\"action\": \"click\"").startsWith("malformed JSON"));
        assertTrue(refusal("").contains("empty"));
    }

    @Test
    void refusesTextAroundTheObject() {
        assertTrue(refusal("Sure! {\"action\":\"click\",\"uid\":\"u1\"}").contains("exactly one JSON object"));
        assertTrue(
                refusal("```json\n{\"action\":\"click\",\"uid\":\"u1\"}\n```").contains("exactly one JSON object"));
        assertTrue(refusal("{\"action\":\"click\",\"uid\":\"u1\"} I clicked it").contains("unexpected text after"));
        assertTrue(refusal("{\"action\":\"click\",\"uid\":\"u1\"}{\"action\":\"done\",\"summary\":\"\"}")
                .contains("unexpected text after"));
        assertTrue(refusal("[{\"action\":\"click\",\"uid\":\"u1\"}]").contains("exactly one JSON object"));
    }

    @Test
    void refusesUnknownAction() {
        String m = refusal("{\"action\": \"double_click\", \"uid\": \"u1\"}");
        assertTrue(m.startsWith("unknown action \"double_click\""), m);
        assertEquals("action is required for action", refusal("{\"uid\": \"u1\"}"));
        assertEquals("action must be a string for action", refusal("{\"action\": 3}"));
        assertEquals("action is required for action", refusal("{\"action\": null, \"uid\": \"u1\"}"));
    }

    @Test
    void refusesUnknownField() {
        assertEquals(
                "unknown field \"button\" for click",
                refusal("{\"action\":\"click\",\"uid\":\"u1\",\"button\":\"left\"}"));
        assertEquals("uid is not a field of wait", refusal("{\"action\":\"wait\",\"ms\":5,\"uid\":\"u1\"}"));
    }

    @Test
    void refusesMissingFieldsNamingTheFieldAndAction() {
        assertEquals("uid is required for click", refusal("{\"action\":\"click\"}"));
        assertEquals("uid is required for click", refusal("{\"action\":\"click\",\"uid\":null}"));
        assertEquals("text is required for set_text", refusal("{\"action\":\"set_text\",\"uid\":\"u1\"}"));
        assertEquals("basis is required for click_at", refusal("{\"action\":\"click_at\",\"x\":1,\"y\":2}"));
        assertEquals(
                "amount is required for scroll", refusal("{\"action\":\"scroll\",\"uid\":\"u\",\"direction\":\"up\"}"));
    }

    @Test
    void refusesWrongTypes() {
        assertEquals("uid must be a string for click", refusal("{\"action\":\"click\",\"uid\":7}"));
        assertEquals(
                "x must be an integer for click_at",
                refusal("{\"action\":\"click_at\",\"x\":1.5,\"y\":2,\"basis\":\"c1\"}"));
        assertEquals(
                "x must be an integer for click_at",
                refusal("{\"action\":\"click_at\",\"x\":\"1\",\"y\":2,\"basis\":\"c1\"}"));
        assertEquals("ms must be an integer for wait", refusal("{\"action\":\"wait\",\"ms\":true}"));
    }

    @Test
    void refusesOutOfRangeValues() {
        assertEquals(
                "amount must be between 1 and 50 for scroll",
                refusal("{\"action\":\"scroll\",\"uid\":\"u\",\"direction\":\"up\",\"amount\":51}"));
        assertEquals(
                "amount must be between 1 and 50 for scroll",
                refusal("{\"action\":\"scroll\",\"uid\":\"u\",\"direction\":\"up\",\"amount\":0}"));
        assertEquals(
                "direction must be one of up, down, left, right for scroll",
                refusal("{\"action\":\"scroll\",\"uid\":\"u\",\"direction\":\"sideways\",\"amount\":1}"));
        assertEquals("ms must be between 1 and 10000 for wait", refusal("{\"action\":\"wait\",\"ms\":10001}"));
        assertEquals(
                "ms must be between 1 and 10000 for wait",
                refusal("{\"action\":\"wait\",\"ms\":99999999999999999999999}"));
        assertEquals(
                "x must be between 0 and 100000 for click_at",
                refusal("{\"action\":\"click_at\",\"x\":-1,\"y\":2,\"basis\":\"c1\"}"));
        assertEquals("uid must not be empty for click", refusal("{\"action\":\"click\",\"uid\":\"\"}"));
        assertEquals("keys must not be empty for key", refusal("{\"action\":\"key\",\"keys\":\"\"}"));
        assertEquals("text must not be empty for type", refusal("{\"action\":\"type\",\"text\":\"\"}"));
        assertEquals(
                "text must be at most 10000 characters for type",
                refusal("{\"action\":\"type\",\"text\":\"" + "a".repeat(10_001) + "\"}"));
        assertTrue(refusal("{\"action\":\"type\",\"text\":\"" + "a".repeat(70_000) + "\"}")
                .contains("longer than"));
    }

    @Test
    void keyChordGrammar() {
        for (String ok : new String[] {
            "ctrl+s",
            "Enter",
            "ctrl+shift+Tab",
            "alt+F4",
            "F12",
            "super+a",
            "space",
            "Page_Down",
            "shift+Up",
            "BackSpace",
            "7",
            "meta+s",
            "Return",
            "KP_Enter",
            "Print",
            "XF86AudioMute",
            "hyper+x"
        }) {
            assertTrue(KeyChord.valid(ok), ok);
            assertEquals(new Action.Key(ok), ActionParser.parse("{\"action\":\"key\",\"keys\":\"" + ok + "\"}"));
        }
        for (String bad : new String[] {
            "ctrl",
            "ctrl+",
            "+s",
            "Ctrl+s",
            "ctrl+ctrl+s",
            "F13",
            "F0",
            "enter",
            "ctrl+s+a",
            "ctrl s",
            "win+s",
            "esc",
            "ab",
            "Pause",
            "ctrl+\u00e9"
        }) {
            assertFalse(KeyChord.valid(bad), bad);
            String m = refusal("{\"action\":\"key\",\"keys\":\"" + bad + "\"}");
            assertTrue(m.startsWith("keys ") && m.endsWith("for key"), m);
        }
    }

    @Test
    void typeCarriesPrintableTextOnlyAndNamesTheReplacement() {
        String[][] cases = {
            {"alice\\thunter2", "key Tab"},
            {"line\\nnext", "key Enter"},
            {"a\\rb", "key Enter"},
            {"\\u001b", "key Escape"},
            {"\\b", "key BackSpace"},
            {"x\\u007f", "key Delete"},
            {"\\u2028", "key Enter"},
            {"\\u2029", "key Enter"},
            {"\\u0085", "key Enter"},
            {"\\u009b[2J", "remove it"},
            {"\\u0000", "remove it"}
        };
        for (String[] c : cases) {
            String m = refusal("{\"action\":\"type\",\"text\":\"" + c[0] + "\"}");
            assertTrue(m.contains("printable") && m.contains(c[1]), c[0] + " -> " + m);
        }
        assertEquals(
                new Action.Type("Grüße \u200b 👋 ok"),
                ActionParser.parse("{\"action\":\"type\",\"text\":\"Grüße \\u200b 👋 ok\"}"));
        assertTrue(ActionSchema.json().contains("No control characters"), "the schema says so");
    }

    @Test
    void refusesKindsOutsideThePermittedSet() {
        WireFormatException e = assertThrows(
                WireFormatException.class,
                () -> ActionParser.parse("{\"action\":\"click\",\"uid\":\"u1\"}", Set.of("wait", "done", "fail")));
        assertTrue(e.getMessage().startsWith("click is not permitted here"), e.getMessage());
    }

    @Test
    void schemaRootIsOneFlatClosedObjectWithEveryPropertyRequiredAndNullable() {
        String text = ActionSchema.json();
        for (String keyword : new String[] {"oneOf", "anyOf", "allOf", "$ref", "const", "minLength", "maxLength"}) {
            assertFalse(text.contains("\"" + keyword + "\""), keyword + " in " + text);
        }
        Map<?, ?> root = (Map<?, ?>) Json.parse(text);
        assertEquals("object", root.get("type"));
        assertEquals(false, root.get("additionalProperties"));
        Map<?, ?> props = (Map<?, ?>) root.get("properties");
        assertEquals(List.copyOf(props.keySet()), root.get("required"), "required lists every property, in order");
        assertEquals(
                List.of(
                        "action",
                        "uid",
                        "text",
                        "keys",
                        "direction",
                        "amount",
                        "option",
                        "x",
                        "y",
                        "basis",
                        "ms",
                        "summary",
                        "reason"),
                List.copyOf(props.keySet()));
        Map<?, ?> action = (Map<?, ?>) props.get("action");
        assertEquals("string", action.get("type"), "action is the one property that is never null");
        assertEquals(
                List.copyOf(ActionSchema.specs().stream()
                        .map(ActionSchema.ActionSpec::kind)
                        .toList()),
                action.get("enum"));
        for (Map.Entry<?, ?> e : props.entrySet()) {
            if (e.getKey().equals("action")) continue;
            Map<?, ?> p = (Map<?, ?>) e.getValue();
            List<?> type = (List<?>) p.get("type");
            assertEquals(2, type.size(), e.getKey() + " " + type);
            assertTrue(type.contains("null"), e.getKey() + " is nullable");
            String description = (String) p.get("description");
            assertTrue(
                    description.startsWith("Required for ") && description.contains("; null otherwise."), description);
            if (p.containsKey("enum"))
                assertTrue(((List<?>) p.get("enum")).contains(null), e.getKey() + "'s enum admits null");
        }
        assertEquals(
                "Required for click, set_text, focus, scroll, select; null otherwise."
                        + " The uid of an element in the current observation, 1 to 128 characters.",
                ((Map<?, ?>) props.get("uid")).get("description"));
        Map<?, ?> direction = (Map<?, ?>) props.get("direction");
        assertEquals(Arrays.asList("up", "down", "left", "right", null), direction.get("enum"));
        Map<?, ?> amount = (Map<?, ?>) props.get("amount");
        assertEquals(List.of("integer", "null"), amount.get("type"));
        assertEquals(1L, amount.get("minimum"));
        assertEquals(50L, amount.get("maximum"));
    }

    @Test
    void readsTheStrictFormWithEveryOtherFieldNull() {
        String nulls = "\"uid\":null,\"text\":null,\"keys\":null,\"direction\":null,\"amount\":null,\"option\":null,"
                + "\"x\":null,\"y\":null,\"basis\":null,\"ms\":null,\"summary\":null,\"reason\":null";
        assertEquals(
                new Action.Done("saved"),
                ActionParser.parse(
                        "{\"action\":\"done\"," + nulls.replace("\"summary\":null", "\"summary\":\"saved\"") + "}"));
        assertEquals(
                new Action.Scroll("u3", "down", 5),
                ActionParser.parse("{\"action\":\"scroll\","
                        + nulls.replace("\"uid\":null", "\"uid\":\"u3\"")
                                .replace("\"direction\":null", "\"direction\":\"down\"")
                                .replace("\"amount\":null", "\"amount\":5")
                        + "}"));
        assertEquals("uid is required for click", refusal("{\"action\":\"click\"," + nulls + "}"));
        assertEquals(
                "direction is required for scroll",
                refusal("{\"action\":\"scroll\","
                        + nulls.replace("\"uid\":null", "\"uid\":\"u3\"").replace("\"amount\":null", "\"amount\":5")
                        + "}"));
    }

    @Test
    void refusesANonNullFieldOfAnotherAction() {
        assertEquals("text is not a field of click", refusal("{\"action\":\"click\",\"uid\":\"u1\",\"text\":\"x\"}"));
        assertEquals("text is not a field of click", refusal("{\"action\":\"click\",\"uid\":\"u1\",\"text\":\"\"}"));
        assertEquals("amount is not a field of done", refusal("{\"action\":\"done\",\"summary\":\"s\",\"amount\":0}"));
        assertEquals(
                "basis is not a field of set_text",
                refusal("{\"action\":\"set_text\",\"uid\":\"u1\",\"text\":\"a\",\"x\":null,\"basis\":\"c1\"}"));
        // the same field null is fine
        assertEquals(new Action.Click("u1"), ActionParser.parse("{\"action\":\"click\",\"uid\":\"u1\",\"text\":null}"));
    }

    @Test
    void thePermittedKindsShapeBothTheSchemaAndTheParser() {
        Set<String> readOnly = Set.of("wait", "done", "fail");
        Map<?, ?> root = (Map<?, ?>) Json.parse(ActionSchema.json(readOnly));
        Map<?, ?> props = (Map<?, ?>) root.get("properties");
        assertEquals(List.of("action", "ms", "summary", "reason"), List.copyOf(props.keySet()));
        assertEquals(List.of("action", "ms", "summary", "reason"), root.get("required"));
        assertEquals(List.of("wait", "done", "fail"), ((Map<?, ?>) props.get("action")).get("enum"));
        assertEquals(List.of("action", "ms", "summary", "reason"), List.copyOf(ActionSchema.properties(readOnly)));

        assertEquals(
                new Action.Done("ok"),
                ActionParser.parse("{\"action\":\"done\",\"ms\":null,\"summary\":\"ok\",\"reason\":null}", readOnly));
        assertEquals(new Action.Wait(20), ActionParser.parse("{\"action\":\"wait\",\"ms\":20}", readOnly));
        // a field of the full set that this route's schema does not have is unknown here, even when null
        WireFormatException e = assertThrows(
                WireFormatException.class,
                () -> ActionParser.parse("{\"action\":\"done\",\"summary\":\"ok\",\"uid\":null}", readOnly));
        assertEquals("unknown field \"uid\" for done", e.getMessage());
        // while with every kind permitted the same null uid is just absent
        assertEquals(
                new Action.Done("ok"), ActionParser.parse("{\"action\":\"done\",\"summary\":\"ok\",\"uid\":null}"));
        e = assertThrows(
                WireFormatException.class,
                () -> ActionParser.parse(
                        "{\"action\":\"click\",\"uid\":\"u1\",\"ms\":null,\"summary\":null,\"reason\":null}",
                        readOnly));
        assertTrue(e.getMessage().startsWith("click is not permitted here"), e.getMessage());

        assertThrows(IllegalArgumentException.class, () -> ActionSchema.json(Set.of("double_click")));
        assertThrows(IllegalArgumentException.class, () -> ActionSchema.json(Set.of()));
    }

    @Test
    void typedTextNeverAppearsInToString() {
        assertFalse(new Action.Type("hunter2").toString().contains("hunter2"));
        assertFalse(new Action.SetText("u", "hunter2").toString().contains("hunter2"));
    }
}

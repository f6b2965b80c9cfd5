package dev.deckhand.loop.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.json.WireFormatException;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ActionParserTest {

    private static String refusal(String raw) {
        return assertThrows(WireFormatException.class, () -> ActionParser.parse(raw), raw).getMessage();
    }

    @Test
    void readsEveryAction() {
        assertEquals(new Action.Click("u7Kq2"), ActionParser.parse("{\"action\": \"click\", \"uid\": \"u7Kq2\"}"));
        assertEquals(new Action.SetText("u1", ""), ActionParser.parse("{\"action\":\"set_text\",\"uid\":\"u1\",\"text\":\"\"}"));
        assertEquals(new Action.Type("hi"), ActionParser.parse("{\"action\":\"type\",\"text\":\"hi\"}"));
        assertEquals(new Action.Key("ctrl+s"), ActionParser.parse("{\"action\": \"key\", \"keys\": \"ctrl+s\"}"));
        assertEquals(new Action.Focus("u2"), ActionParser.parse("{\"action\":\"focus\",\"uid\":\"u2\"}"));
        assertEquals(new Action.Scroll("u3", "down", 5),
                ActionParser.parse("{\"action\":\"scroll\",\"uid\":\"u3\",\"direction\":\"down\",\"amount\":5}"));
        assertEquals(new Action.Select("u4", "Bold"), ActionParser.parse("{\"action\":\"select\",\"uid\":\"u4\",\"option\":\"Bold\"}"));
        assertEquals(new Action.ClickAt(10, 20, "c1"), ActionParser.parse("{\"action\":\"click_at\",\"x\":10,\"y\":20,\"basis\":\"c1\"}"));
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
        assertTrue(refusal("```json\n{\"action\":\"click\",\"uid\":\"u1\"}\n```").contains("exactly one JSON object"));
        assertTrue(refusal("{\"action\":\"click\",\"uid\":\"u1\"} I clicked it").contains("unexpected text after"));
        assertTrue(refusal("{\"action\":\"click\",\"uid\":\"u1\"}{\"action\":\"done\",\"summary\":\"\"}").contains("unexpected text after"));
        assertTrue(refusal("[{\"action\":\"click\",\"uid\":\"u1\"}]").contains("exactly one JSON object"));
    }

    @Test
    void refusesUnknownAction() {
        String m = refusal("{\"action\": \"double_click\", \"uid\": \"u1\"}");
        assertTrue(m.startsWith("unknown action \"double_click\""), m);
        assertEquals("action is required for action", refusal("{\"uid\": \"u1\"}"));
        assertEquals("action must be a string for action", refusal("{\"action\": 3}"));
    }

    @Test
    void refusesUnknownField() {
        assertEquals("unknown field \"button\" for click", refusal("{\"action\":\"click\",\"uid\":\"u1\",\"button\":\"left\"}"));
        assertEquals("unknown field \"uid\" for wait", refusal("{\"action\":\"wait\",\"ms\":5,\"uid\":\"u1\"}"));
    }

    @Test
    void refusesMissingFieldsNamingTheFieldAndAction() {
        assertEquals("uid is required for click", refusal("{\"action\":\"click\"}"));
        assertEquals("uid is required for click", refusal("{\"action\":\"click\",\"uid\":null}"));
        assertEquals("text is required for set_text", refusal("{\"action\":\"set_text\",\"uid\":\"u1\"}"));
        assertEquals("basis is required for click_at", refusal("{\"action\":\"click_at\",\"x\":1,\"y\":2}"));
        assertEquals("amount is required for scroll", refusal("{\"action\":\"scroll\",\"uid\":\"u\",\"direction\":\"up\"}"));
    }

    @Test
    void refusesWrongTypes() {
        assertEquals("uid must be a string for click", refusal("{\"action\":\"click\",\"uid\":7}"));
        assertEquals("x must be an integer for click_at", refusal("{\"action\":\"click_at\",\"x\":1.5,\"y\":2,\"basis\":\"c1\"}"));
        assertEquals("x must be an integer for click_at", refusal("{\"action\":\"click_at\",\"x\":\"1\",\"y\":2,\"basis\":\"c1\"}"));
        assertEquals("ms must be an integer for wait", refusal("{\"action\":\"wait\",\"ms\":true}"));
    }

    @Test
    void refusesOutOfRangeValues() {
        assertEquals("amount must be between 1 and 50 for scroll",
                refusal("{\"action\":\"scroll\",\"uid\":\"u\",\"direction\":\"up\",\"amount\":51}"));
        assertEquals("amount must be between 1 and 50 for scroll",
                refusal("{\"action\":\"scroll\",\"uid\":\"u\",\"direction\":\"up\",\"amount\":0}"));
        assertEquals("direction must be one of up, down, left, right for scroll",
                refusal("{\"action\":\"scroll\",\"uid\":\"u\",\"direction\":\"sideways\",\"amount\":1}"));
        assertEquals("ms must be between 1 and 10000 for wait", refusal("{\"action\":\"wait\",\"ms\":10001}"));
        assertEquals("ms must be between 1 and 10000 for wait", refusal("{\"action\":\"wait\",\"ms\":99999999999999999999999}"));
        assertEquals("x must be between 0 and 100000 for click_at", refusal("{\"action\":\"click_at\",\"x\":-1,\"y\":2,\"basis\":\"c1\"}"));
        assertEquals("uid must not be empty for click", refusal("{\"action\":\"click\",\"uid\":\"\"}"));
        assertEquals("keys must not be empty for key", refusal("{\"action\":\"key\",\"keys\":\"\"}"));
        assertEquals("text must not be empty for type", refusal("{\"action\":\"type\",\"text\":\"\"}"));
        assertEquals("text must be at most 10000 characters for type",
                refusal("{\"action\":\"type\",\"text\":\"" + "a".repeat(10_001) + "\"}"));
        assertTrue(refusal("{\"action\":\"type\",\"text\":\"" + "a".repeat(70_000) + "\"}").contains("longer than"));
    }

    @Test
    void keyChordGrammar() {
        for (String ok : new String[] {"ctrl+s", "Enter", "ctrl+shift+Tab", "alt+F4", "F12", "super+a", "space", "Page_Down",
                "shift+Up", "BackSpace", "7"}) {
            assertTrue(KeyChord.valid(ok), ok);
            assertEquals(new Action.Key(ok), ActionParser.parse("{\"action\":\"key\",\"keys\":\"" + ok + "\"}"));
        }
        for (String bad : new String[] {"ctrl", "ctrl+", "+s", "Ctrl+s", "ctrl+ctrl+s", "F13", "F0", "enter", "ctrl+s+a",
                "ctrl s", "meta+s", "Return", "ab"}) {
            assertFalse(KeyChord.valid(bad), bad);
            String m = refusal("{\"action\":\"key\",\"keys\":\"" + bad + "\"}");
            assertTrue(m.startsWith("keys ") && m.endsWith("for key"), m);
        }
    }

    @Test
    void refusesKindsOutsideThePermittedSet() {
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> ActionParser.parse("{\"action\":\"click\",\"uid\":\"u1\"}", Set.of("wait", "done", "fail")));
        assertTrue(e.getMessage().startsWith("click is not permitted here"), e.getMessage());
    }

    @Test
    void typedTextNeverAppearsInToString() {
        assertFalse(new Action.Type("hunter2").toString().contains("hunter2"));
        assertFalse(new Action.SetText("u", "hunter2").toString().contains("hunter2"));
    }
}

package dev.deckhand.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ActionParser;
import dev.deckhand.loop.desktop.Landing;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** Each action names the events that show it landed; settling returns on the first of them. */
class LandingsTest {

    private static Action parse(String json) {
        return ActionParser.parse(json);
    }

    @Test
    void setTextLandsAsText() {
        assertEquals(EnumSet.of(Landing.TEXT), ComputerLoop.landings(parse("{\"action\":\"set_text\",\"uid\":\"u1abc\",\"text\":\"x\"}")));
    }

    @Test
    void focusLandsAsAStateChange() {
        assertEquals(EnumSet.of(Landing.STATE), ComputerLoop.landings(parse("{\"action\":\"focus\",\"uid\":\"u1abc\"}")));
    }

    @Test
    void aClickAKeyAndTypedTextMayChangeTextValueStateChildrenOrATitle() {
        for (String a : new String[] {"{\"action\":\"click\",\"uid\":\"u1abc\"}", "{\"action\":\"key\",\"keys\":\"ctrl+s\"}",
                "{\"action\":\"type\",\"text\":\"hi\"}"}) {
            var l = ComputerLoop.landings(parse(a));
            assertTrue(l.containsAll(EnumSet.of(Landing.TEXT, Landing.VALUE, Landing.STATE, Landing.CHILDREN, Landing.NAME)), a + ": " + l);
            assertFalse(l.contains(Landing.VISIBLE), a + ": a redraw alone does not show that an input landed");
        }
    }

    @Test
    void aScrollLandsAsAValueOrWhatIsShown() {
        var l = ComputerLoop.landings(parse("{\"action\":\"scroll\",\"uid\":\"u1abc\",\"direction\":\"down\",\"amount\":3}"));
        assertTrue(l.contains(Landing.VALUE) && l.contains(Landing.VISIBLE), l.toString());
    }
}

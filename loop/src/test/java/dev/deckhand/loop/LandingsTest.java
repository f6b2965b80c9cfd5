package dev.deckhand.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ActionParser;
import dev.deckhand.loop.desktop.Landing;
import java.util.EnumSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Each action names the events that show it landed; settling returns on the first of them. */
@Tag("pure")
class LandingsTest {

    private static Action parse(String json) {
        return ActionParser.parse(json);
    }

    @Test
    void setTextLandsAsText() {
        assertEquals(
                EnumSet.of(Landing.TEXT),
                ComputerLoop.landings(parse("{\"action\":\"set_text\",\"uid\":\"u1abc\",\"text\":\"x\"}")));
    }

    @Test
    void focusLandsAsTheElementGainingFocus() {
        assertEquals(
                EnumSet.of(Landing.FOCUS), ComputerLoop.landings(parse("{\"action\":\"focus\",\"uid\":\"u1abc\"}")));
    }

    @Test
    void aClickAKeyAndAChosenOptionMayChangeTextValueChildrenOrATitleButNoStateIsTheirEffect() {
        for (String a : new String[] {
            "{\"action\":\"click\",\"uid\":\"u1abc\"}",
            "{\"action\":\"key\",\"keys\":\"ctrl+s\"}",
            "{\"action\":\"select\",\"uid\":\"u1abc\",\"option\":\"b\"}",
            "{\"action\":\"click_at\",\"x\":3,\"y\":4,\"basis\":\"c1\"}"
        }) {
            var l = ComputerLoop.landings(parse(a));
            assertEquals(EnumSet.of(Landing.TEXT, Landing.VALUE, Landing.CHILDREN, Landing.NAME), l, a);
            assertFalse(l.contains(Landing.FOCUS), a + ": focus is a press's by-product, not its effect");
            assertFalse(l.contains(Landing.VISIBLE), a + ": a redraw alone does not show that an input landed");
        }
    }

    @Test
    void typedTextNamesNoLandingAndSettlesOnQuiet() {
        assertTrue(
                ComputerLoop.landings(parse("{\"action\":\"type\",\"text\":\"hi\"}"))
                        .isEmpty(),
                "one event per key: the first is not the last");
    }

    @Test
    void aScrollLandsAsAValueOrWhatIsShown() {
        var l = ComputerLoop.landings(
                parse("{\"action\":\"scroll\",\"uid\":\"u1abc\",\"direction\":\"down\",\"amount\":3}"));
        assertTrue(l.contains(Landing.VALUE) && l.contains(Landing.VISIBLE), l.toString());
    }
}

package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Landing;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which AT-SPI event types show which kind of landing (the settle returns on them), and which never do. */
@Tag("pure")
class LandingEventsTest {

    @Test
    void eachEffectShowsItsLanding() {
        assertEquals(Landing.TEXT, AtspiBus.landing("object:text-changed:insert"));
        assertEquals(Landing.TEXT, AtspiBus.landing("object:text-changed:insert:system"));
        assertEquals(Landing.VALUE, AtspiBus.landing("object:value-changed"));
        assertEquals(Landing.VALUE, AtspiBus.landing("object:property-change:accessible-value"));
        assertEquals(Landing.FOCUS, AtspiBus.landing("object:state-changed:focused"));
        assertEquals(Landing.CHILDREN, AtspiBus.landing("object:children-changed:add"));
        assertEquals(Landing.CHILDREN, AtspiBus.landing("object:children-changed:add:system"));
        assertEquals(Landing.NAME, AtspiBus.landing("object:property-change:accessible-name"));
        assertEquals(Landing.VISIBLE, AtspiBus.landing("object:visible-data-changed"));
    }

    /** What a press announces on its way (galculator: checked; FeatherPad: Undo's enabled and sensitive). */
    @Test
    void aPressesOwnStatesAndOtherControlsSensitivityShowNothing() {
        for (String state : new String[] {
            "checked",
            "pressed",
            "armed",
            "active",
            "showing",
            "visible",
            "selected",
            "expanded",
            "sensitive",
            "enabled",
            "focusable",
            "defunct",
            "indeterminate",
            "horizontal"
        }) {
            assertNull(AtspiBus.landing("object:state-changed:" + state), state);
        }
    }

    /** A replacement is a deletion then an insertion; an emptied list is refilled. */
    @Test
    void aDeletionOrRemovalIsAFirstHalfNotALanding() {
        for (String type : new String[] {
            "object:text-changed:delete",
            "object:text-changed:delete:system",
            "object:children-changed:remove",
            "object:children-changed:remove:system"
        }) {
            assertNull(AtspiBus.landing(type), type);
            assertTrue(AtspiBus.firstHalf(type), type);
        }
        assertFalse(AtspiBus.firstHalf("object:text-changed:insert"));
        assertFalse(AtspiBus.firstHalf("object:children-changed:add"));
    }

    @Test
    void otherPropertiesShowNothing() {
        assertNull(AtspiBus.landing("object:property-change:accessible-description"));
        assertNull(AtspiBus.landing("object:property-change:accessible-parent"));
        assertNull(AtspiBus.landing("object:property-change:accessible-role"));
        assertNull(AtspiBus.landing(""));
    }
}

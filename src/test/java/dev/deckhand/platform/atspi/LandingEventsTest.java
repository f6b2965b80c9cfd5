package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.deckhand.loop.desktop.Landing;
import org.junit.jupiter.api.Test;

/** Which AT-SPI event types show which kind of landing (the settle returns on them). */
class LandingEventsTest {

    @Test
    void eachRegisteredEventTypeShowsItsLanding() {
        assertEquals(Landing.TEXT, AtspiBus.landing("object:text-changed:insert"));
        assertEquals(Landing.TEXT, AtspiBus.landing("object:text-changed:delete:system"));
        assertEquals(Landing.VALUE, AtspiBus.landing("object:value-changed"));
        assertEquals(Landing.VALUE, AtspiBus.landing("object:property-change:accessible-value"));
        assertEquals(Landing.STATE, AtspiBus.landing("object:state-changed:checked"));
        assertEquals(Landing.CHILDREN, AtspiBus.landing("object:children-changed:add"));
        assertEquals(Landing.NAME, AtspiBus.landing("object:property-change:accessible-name"));
        assertEquals(Landing.VISIBLE, AtspiBus.landing("object:visible-data-changed"));
    }

    @Test
    void otherPropertiesShowNothing() {
        assertNull(AtspiBus.landing("object:property-change:accessible-description"));
        assertNull(AtspiBus.landing("object:property-change:accessible-parent"));
        assertNull(AtspiBus.landing(""));
    }
}

package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.GrabHolder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Who holds the keyboard grab, followed from grab requests and replies in the server's order (unit test: no X). */
@Tag("pure")
class GrabLedgerTest {

    private static final long OWN = 0x1000000;
    private static final long APP = 0xc00000;
    private static final long OTHER = 0x1400000;
    private static final int ALREADY_GRABBED = 1;

    private final GrabLedger ledger = new GrabLedger(OWN);
    private long ownSeq = 100;

    /** Deckhand's probe: its request and the server's answer, as the record shows them. */
    private GrabHolder probe(int status) {
        long seq = ownSeq++;
        ledger.grabRequested(OWN, seq, 0xc00004, true, false);
        ledger.replied(OWN, seq, status, 0);
        return ledger.atLastProbe();
    }

    private void xiGrab(long client, long seq, int status) {
        ledger.grabRequested(client, seq, client + 3, true, true);
        ledger.replied(client, seq, 51, status); // an XI reply carries its minor opcode in byte 1, its status in byte 8
    }

    @Test
    void theAppsGrabAfterDeckhandsActionIsTheAppsAndOpenedByThatAction() {
        assertNull(probe(GrabLedger.SUCCESS), "nobody holds the keyboard");
        ledger.marked(true);
        xiGrab(APP, 6344, GrabLedger.SUCCESS); // galculator's View menu: the grab, before its popup maps
        ledger.marked(false);
        GrabHolder h = probe(ALREADY_GRABBED);
        assertEquals(new GrabHolder.Client(APP, APP + 3, true), h);
        assertTrue(ledger.grabbedAtLastProbe());
        assertEquals(2, ledger.probesAnswered());
        ledger.ungrabbed(APP);
        assertNull(probe(GrabLedger.SUCCESS));
    }

    @Test
    void aGrabAfterThePersonsPressIsNotOpenedByDeckhand() {
        ledger.marked(true);
        ledger.marked(false);
        ledger.pressed(); // the person clicks the app's menu bar
        xiGrab(APP, 7, GrabLedger.SUCCESS);
        assertEquals(new GrabHolder.Client(APP, APP + 3, false), probe(ALREADY_GRABBED));
    }

    @Test
    void pressesInsideDeckhandsOwnActionAreDeckhands() {
        ledger.marked(true);
        ledger.pressed(); // Deckhand's own XTEST click
        ledger.marked(false);
        xiGrab(APP, 7, GrabLedger.SUCCESS);
        assertEquals(new GrabHolder.Client(APP, APP + 3, true), probe(ALREADY_GRABBED));
    }

    @Test
    void noActionYetMeansNotOpenedByDeckhand() {
        ledger.grabRequested(APP, 9, APP + 3, true, false);
        ledger.replied(APP, 9, GrabLedger.SUCCESS, 0);
        assertEquals(new GrabHolder.Client(APP, APP + 3, false), probe(ALREADY_GRABBED));
    }

    @Test
    void aFailedGrabRequestChangesNothing() {
        ledger.marked(true);
        xiGrab(APP, 1, GrabLedger.SUCCESS);
        ledger.grabRequested(OTHER, 5, OTHER + 1, true, false);
        ledger.replied(OTHER, 5, ALREADY_GRABBED, 0); // another client asked while the app held it
        assertEquals(APP, ((GrabHolder.Client) probe(ALREADY_GRABBED)).client());
    }

    @Test
    void anotherClientsGrabAfterTheAppsReleaseIsThatClients() {
        ledger.marked(true);
        xiGrab(APP, 1, GrabLedger.SUCCESS);
        ledger.ungrabbed(APP);
        ledger.grabRequested(OTHER, 5, OTHER + 1, true, false);
        ledger.replied(OTHER, 5, GrabLedger.SUCCESS, 0);
        GrabHolder.Client c = (GrabHolder.Client) probe(ALREADY_GRABBED);
        assertEquals(OTHER, c.client());
    }

    @Test
    void aGrabNoRecordedRequestExplainsIsUnknown() {
        assertInstanceOf(GrabHolder.Unknown.class, probe(ALREADY_GRABBED), "a passive key grab that a press activated");
        ledger.marked(true);
        xiGrab(APP, 1, GrabLedger.SUCCESS);
        ledger.died(APP); // the app's grab ended with its connection
        assertInstanceOf(GrabHolder.Unknown.class, probe(ALREADY_GRABBED));
    }

    @Test
    void aStaleHolderIsDroppedWhenTheProbeGetsTheKeyboard() {
        ledger.marked(true);
        xiGrab(APP, 1, GrabLedger.SUCCESS); // released without an ungrab: its window was unmapped
        assertNull(probe(GrabLedger.SUCCESS));
        assertInstanceOf(GrabHolder.Unknown.class, probe(ALREADY_GRABBED), "a grab after that is not the app's");
    }

    @Test
    void aGrabOfADeviceNotKnownAsAKeyboardIsUnknown() {
        ledger.marked(true);
        ledger.grabRequested(APP, 3, APP + 3, false, true);
        ledger.replied(APP, 3, 51, GrabLedger.SUCCESS);
        assertInstanceOf(GrabHolder.Unknown.class, probe(ALREADY_GRABBED));
    }

    @Test
    void aProbeAnsweredByAnErrorIsCountedAndConcludesNothing() {
        ledger.grabRequested(OWN, 1, 0x42, true, false);
        ledger.failed(OWN, 1);
        assertEquals(1, ledger.probesAnswered());
        assertFalse(ledger.grabbedAtLastProbe());
        assertInstanceOf(GrabHolder.Unknown.class, ledger.atLastProbe());
    }

    @Test
    void repliesAreMatchedOnTheSixteenBitSequence() {
        ledger.marked(true);
        ledger.grabRequested(APP, 0x1_2345, APP + 3, true, false);
        ledger.replied(APP, 0x2345, GrabLedger.SUCCESS, 0);
        assertEquals(APP, ((GrabHolder.Client) probe(ALREADY_GRABBED)).client());
    }
}

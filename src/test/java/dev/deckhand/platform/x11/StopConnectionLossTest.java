package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Any client of the display may close another's connection: a granted shell listed the X clients (X-Resource) and
 * closed Deckhand's Stop connections with {@code XKillClient}, and Stop stayed dead. Here the test does the same to a
 * running grab: the loss is Stop itself, the grab connects again, and the chord stops once more.
 */
@Tag("desktop")
class StopConnectionLossTest {

    private static final String CHORD = "ctrl+alt+shift+Escape";

    /** What the attacker used: libXRes's client list and libX11's KillClient. */
    interface Kill extends Library {
        Kill X11 = Native.load("X11", Kill.class);

        int XKillClient(Pointer display, long resource);
    }

    interface Clients extends Library {
        Clients XRES = Native.load("XRes", Clients.class);

        /** {@code XResClient}s: an XID base and mask, 8 bytes each. */
        int XResQueryClients(Pointer display, IntByReference count, PointerByReference clients);
    }

    @Test
    void aClosedConnectionStopsAndTheGrabComesBack() {
        TestApps.requireDisplay();
        AtomicInteger presses = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        try (XConnection c = XConnection.open(System.getenv())) {
            Set<Long> before = clients(c);
            try (StopKeyGrab grab =
                    StopKeyGrab.start(CHORD, System.getenv(), presses::incrementAndGet, lost::incrementAndGet)) {
                assertTrue(grab.status().registered(), grab.status().toString());
                Set<Long> theGrabs = clients(c);
                theGrabs.removeAll(before);
                assertFalse(theGrabs.isEmpty(), "the grab's connections are listed");
                for (long base : theGrabs) kill(c, base);

                assertTrue(TestApps.await(() -> lost.get() >= 1, Duration.ofSeconds(5)), "the loss was Stop");
                assertEquals(0, presses.get(), "a loss is not counted as a press");
                assertTrue(
                        TestApps.await(() -> grab.status().registered(), Duration.ofSeconds(10)),
                        "connected again: " + grab.status());
                assertTrue(
                        grab.status().detail().contains("connected again after"),
                        grab.status().detail());

                assertEquals(0, TestApps.run("xdotool", "key", CHORD));
                assertTrue(
                        TestApps.await(() -> presses.get() == 1, Duration.ofSeconds(5)),
                        "the chord stops again after the loss: " + presses);
                int losses = lost.get();
                TestApps.sleep(500);
                assertEquals(losses, lost.get(), "a held connection is not lost again");
            }
        }
    }

    private static Set<Long> clients(XConnection c) {
        IntByReference n = new IntByReference();
        PointerByReference list = new PointerByReference();
        assertTrue(Clients.XRES.XResQueryClients(c.dpy, n, list) != 0, "X-Resource lists the clients");
        Set<Long> out = new HashSet<>();
        Pointer p = list.getValue();
        if (p == null) return out;
        for (int i = 0; i < n.getValue(); i++) out.add(p.getLong(i * 16L));
        Xlib.X.XFree(p);
        return out;
    }

    /** KillClient needs a resource the client made: the ids of its range are tried until one is accepted. */
    private static void kill(XConnection c, long base) {
        for (long k = 0; k < 0x800; k++) {
            int errors = c.errors();
            Kill.X11.XKillClient(c.dpy, base + k);
            c.sync();
            if (c.errors() == errors) return;
        }
        throw new AssertionError("no resource of client 0x" + Long.toHexString(base) + " was found to close it by");
    }
}

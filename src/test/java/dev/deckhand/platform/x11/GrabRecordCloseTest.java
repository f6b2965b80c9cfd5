package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Closing the grab record while its thread is late, as under load: the thread reads the data connection
 * ({@code XRecordProcessReplies}), and {@link GrabRecord#close} used to close that connection itself once a bounded
 * join ran out, freeing the display under a thread that could still be in it. Here the thread is held in its
 * callback (on the monitor it takes for every record) while {@code close()} runs: {@code close()} returns, the data
 * connection stays open while the thread is inside it, and the thread closes it as it ends.
 */
@Tag("desktop")
class GrabRecordCloseTest {

    @Test
    void aRecordLateInItsCallbackIsNotClosedUnderIt() throws Exception {
        Map<String, String> env = System.getenv();
        assumeTrue(env.get("DISPLAY") != null, "needs the virtual desktop's display");
        Optional<GrabRecord> started = GrabRecord.start(env, 0);
        assertTrue(started.isPresent(), "RECORD starts on the virtual desktop's Xvfb");
        GrabRecord record = started.get();
        Thread reader = thread("deckhand-grab-record");
        try (XConnection other = XConnection.open(env)) {
            Thread closer = new Thread(record::close, "closer");
            synchronized (record.monitor()) {
                // Recorded from any client; the round trip makes the server flush what it recorded. The callback runs
                // and waits for the monitor.
                Xlib.X.XNoOp(other.dpy);
                Xlib.X.XSync(other.dpy, Xlib.False);
                assertTrue(
                        await(() -> reader.getState() == Thread.State.BLOCKED, 5_000),
                        "the record thread reached its callback; state " + reader.getState());
                closer.start();
                closer.join(10_000);
                assertFalse(closer.isAlive(), "close() returned while the record thread was held");
                assertTrue(reader.isAlive(), "the record thread is still held in its callback");
                assertFalse(record.dataClosed(), "the data connection stays open while its thread is inside it");
            }
            assertTrue(await(() -> !reader.isAlive(), 10_000), "the record thread ended once let go");
            assertTrue(record.dataClosed(), "the record thread closed its connection as it ended");
            assertFalse(record.running());
        }
    }

    private static Thread thread(String name) {
        Thread[] all = new Thread[Thread.activeCount() + 8];
        int n = Thread.enumerate(all);
        Thread found = null;
        for (int i = 0; i < n; i++) if (all[i].getName().equals(name)) found = all[i];
        assertEquals(name, found == null ? null : found.getName(), "the record runs a thread named " + name);
        return found;
    }

    private static boolean await(java.util.function.BooleanSupplier condition, long millis)
            throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) return false;
            Thread.sleep(20);
        }
        return true;
    }
}

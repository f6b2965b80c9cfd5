package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.deckhand.loop.desktop.GrabHolder;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Who holds the keyboard grab, measured: the X RECORD extension hands this class, on a connection and a thread of
 * its own, the grab requests and their answers of every client, in the order the server processed them — core
 * {@code GrabKeyboard}/{@code UngrabKeyboard}, XInput 2 {@code XIGrabDevice}/{@code XIUngrabDevice} (of master
 * keyboards, known from {@code XIQueryDevice}), the replies to them, errors, clients that closed, key and button
 * presses, and Deckhand's own marks ({@code NoOperation} requests of its probing connection). {@link GrabLedger}
 * keeps the state; this class decodes.
 *
 * <p>Why RECORD: X does not say who holds a grab, and GTK 3 takes its menu's grab before it maps the menu
 * (galculator's View menu: the grab, then the popup 180-575 ms later on a loaded machine), so a rule that looks for
 * the app's popup refused the app's own menu in that gap ({@code SECURE_INPUT}). The focus events a grab
 * causes do not tell either: GTK grabs on its top-level while the X focus is on its focus child, and a grab on the
 * focused window itself causes none.
 *
 * <p>Synchronised with the probe, not with time: {@link KeyboardGrab}'s probe is itself a grab request of the
 * probing connection, recorded in the same order; {@link #holderAfter} waits until the ledger has seen the answer
 * to the probe just made and returns the holder as the stream stood then.
 */
final class GrabRecord implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(GrabRecord.class);
    /** How long a caller waits for the recorded answer of its probe before the holder counts as unknown. */
    static final Duration CATCH_UP = Duration.ofMillis(500);

    private static final int POLL_MILLIS = 50;
    private static final long JOIN_MILLIS = 1000;
    private static final int GRAB_KEYBOARD = 31, UNGRAB_KEYBOARD = 32, NO_OPERATION = 127;
    private static final int XI_GRAB_DEVICE = 51, XI_UNGRAB_DEVICE = 52;
    private static final int KEY_PRESS = 2, BUTTON_PRESS = 4;

    private final XConnection control;
    private final XConnection data;
    private final long context;
    private final int xiOpcode;
    private final Set<Integer> masterKeyboards;
    private final Set<Integer> devices;
    private final long ownClient;
    private final GrabLedger ledger;
    private final Queue<Boolean> marks = new ConcurrentLinkedQueue<>();
    private final CountDownLatch started = new CountDownLatch(1);
    /** Held by the thread: a collected callback would crash the JVM at the next record. */
    private final Xtst.InterceptProc callback = this::intercepted;

    private volatile boolean closing;
    private Thread thread;

    private GrabRecord(
            XConnection control,
            XConnection data,
            long context,
            int xiOpcode,
            Set<Integer> masterKeyboards,
            Set<Integer> devices,
            long ownClient) {
        this.control = control;
        this.data = data;
        this.context = context;
        this.xiOpcode = xiOpcode;
        this.masterKeyboards = masterKeyboards;
        this.devices = devices;
        this.ownClient = ownClient;
        this.ledger = new GrabLedger(ownClient);
    }

    /**
     * Starts recording on the display named by {@code env}, for the probing connection whose resource base is
     * {@code ownClient}; empty, with the reason logged, when the server has no RECORD extension or it cannot be
     * used (the holder is then {@link GrabHolder#UNMEASURED}).
     */
    static Optional<GrabRecord> start(Map<String, String> env, long ownClient) {
        XConnection control = null;
        XConnection data = null;
        GrabRecord r = null;
        try {
            control = XConnection.open(env);
            IntByReference major = new IntByReference();
            if (Xlib.X.XQueryExtension(control.dpy, "RECORD", major, new IntByReference(), new IntByReference()) == 0) {
                LOG.info("the X server has no RECORD extension: who holds a keyboard grab is not measured");
                control.close();
                return Optional.empty();
            }
            IntByReference xi = new IntByReference();
            int xiOpcode = Xlib.X.XQueryExtension(
                                    control.dpy, "XInputExtension", xi, new IntByReference(), new IntByReference())
                            != 0
                    ? xi.getValue()
                    : -1;
            Set<Integer> masters = new HashSet<>();
            Set<Integer> devices = new HashSet<>();
            if (xiOpcode > 0) readDevices(control, masters, devices);
            Xtst.X.XRecordQueryVersion(control.dpy, new IntByReference(), new IntByReference());
            Pointer[] ranges = ranges(xiOpcode);
            long context = Xtst.X.XRecordCreateContext(
                    control.dpy, Xtst.FROM_CLIENT_SEQUENCE, new long[] {Xtst.ALL_CLIENTS}, 1, ranges, ranges.length);
            for (Pointer range : ranges) Xlib.X.XFree(range);
            int errors = control.errors();
            control.sync();
            if (context == 0 || control.errors() != errors) {
                LOG.infof(
                        "RECORD context refused (%s): who holds a keyboard grab is not measured", control.lastError());
                control.close();
                return Optional.empty();
            }
            data = XConnection.open(env);
            GrabRecord made = new GrabRecord(
                    control, data, context, xiOpcode, Set.copyOf(masters), Set.copyOf(devices), ownClient);
            if (Xtst.X.XRecordEnableContextAsync(data.dpy, context, made.callback, null) == 0) {
                throw new IllegalStateException("XRecordEnableContextAsync failed");
            }
            made.thread = new Thread(made::run, "deckhand-grab-record");
            made.thread.setDaemon(true);
            made.thread.start();
            r = made; // from here the thread owns the data connection, and r.close() ends both
            if (!r.started.await(3, TimeUnit.SECONDS)) {
                r.close();
                LOG.info("RECORD did not start within 3 s: who holds a keyboard grab is not measured");
                return Optional.empty();
            }
            return Optional.of(r);
        } catch (RuntimeException | LinkageError | InterruptedException e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            LOG.infof("RECORD unusable (%s): who holds a keyboard grab is not measured", e.toString());
            if (r != null) {
                r.close();
            } else {
                if (data != null) data.close();
                if (control != null) control.close();
            }
            return Optional.empty();
        }
    }

    /** The ranges recorded: grabs and ungrabs with their replies, no-ops, errors, presses, clients that closed. */
    private static Pointer[] ranges(int xiOpcode) {
        Pointer core = Xtst.X.XRecordAllocRange();
        core.setByte(Xtst.RANGE_CORE_REQUESTS, (byte) GRAB_KEYBOARD);
        core.setByte(Xtst.RANGE_CORE_REQUESTS + 1, (byte) UNGRAB_KEYBOARD);
        core.setByte(Xtst.RANGE_CORE_REPLIES, (byte) GRAB_KEYBOARD);
        core.setByte(Xtst.RANGE_CORE_REPLIES + 1, (byte) GRAB_KEYBOARD);
        core.setByte(Xtst.RANGE_DEVICE_EVENTS, (byte) KEY_PRESS);
        core.setByte(Xtst.RANGE_DEVICE_EVENTS + 1, (byte) BUTTON_PRESS);
        core.setByte(Xtst.RANGE_ERRORS, (byte) 1); // every error code: a probe answered by an error
        core.setByte(Xtst.RANGE_ERRORS + 1, (byte) 255);
        core.setInt(Xtst.RANGE_CLIENT_DIED, 1);
        Pointer noop = Xtst.X.XRecordAllocRange();
        noop.setByte(Xtst.RANGE_CORE_REQUESTS, (byte) NO_OPERATION);
        noop.setByte(Xtst.RANGE_CORE_REQUESTS + 1, (byte) NO_OPERATION);
        if (xiOpcode <= 0) return new Pointer[] {core, noop};
        Pointer xi = Xtst.X.XRecordAllocRange();
        for (int at : new int[] {Xtst.RANGE_EXT_REQUESTS, Xtst.RANGE_EXT_REPLIES}) {
            xi.setByte(at + Xtst.EXT_MAJOR, (byte) xiOpcode);
            xi.setByte(at + Xtst.EXT_MAJOR + 1, (byte) xiOpcode);
            xi.setShort(at + Xtst.EXT_MINOR, (short) XI_GRAB_DEVICE);
            xi.setShort(at + Xtst.EXT_MINOR + 2, (short)
                    (at == Xtst.RANGE_EXT_REQUESTS ? XI_UNGRAB_DEVICE : XI_GRAB_DEVICE));
        }
        return new Pointer[] {core, noop, xi};
    }

    private static void readDevices(XConnection c, Set<Integer> masters, Set<Integer> all) {
        IntByReference n = new IntByReference();
        Pointer info = Xi.X.XIQueryDevice(c.dpy, Xi.XIAllDevices, n);
        if (info == null) return;
        try {
            for (int i = 0; i < n.getValue(); i++) {
                int id = info.getInt((long) i * Xi.DEVICE_INFO_SIZE + Xi.DEVICE_ID);
                int use = info.getInt((long) i * Xi.DEVICE_INFO_SIZE + Xi.DEVICE_USE);
                all.add(id);
                if (use == Xi.XIMasterKeyboard) masters.add(id);
            }
        } finally {
            Xi.X.XIFreeDeviceInfo(info);
        }
    }

    private void run() {
        Memory pfd = new Memory(8);
        int fd = Xlib.X.XConnectionNumber(data.dpy);
        try {
            while (!closing && !data.dead()) {
                pfd.setInt(0, fd);
                pfd.setShort(4, LibC.POLLIN);
                pfd.setShort(6, (short) 0);
                LibC.C.poll(pfd, 1, POLL_MILLIS);
                Xtst.X.XRecordProcessReplies(data.dpy);
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.warnf("the grab record stopped: %s", e.toString());
        } finally {
            synchronized (ledger) {
                closing = true;
                ledger.notifyAll();
            }
            data.close(); // here, never from another thread while this one may still be reading it
        }
    }

    private void intercepted(Pointer closure, Pointer d) {
        try {
            int category = d.getInt(Xtst.CATEGORY);
            long client = d.getLong(Xtst.ID_BASE);
            long seq = d.getLong(Xtst.CLIENT_SEQ);
            boolean swapped = d.getInt(Xtst.CLIENT_SWAPPED) != 0;
            Pointer p = d.getPointer(Xtst.DATA);
            long len = d.getLong(Xtst.DATA_LEN) * 4;
            synchronized (ledger) {
                if (category == Xtst.START_OF_DATA) started.countDown();
                else if (category == Xtst.CLIENT_DIED) ledger.died(client);
                else if (category == Xtst.FROM_CLIENT && p != null && len >= 4) request(client, seq, p, len, swapped);
                else if (category == Xtst.FROM_SERVER && p != null && len >= 8) fromServer(client, p, len, swapped);
                ledger.notifyAll();
            }
        } finally {
            Xtst.X.XRecordFreeData(d);
        }
    }

    private void request(long client, long seq, Pointer p, long len, boolean swapped) {
        int op = p.getByte(0) & 0xff;
        if (op == GRAB_KEYBOARD && len >= 16) {
            ledger.grabRequested(client, seq, u32(p, 4, swapped), true, false);
        } else if (op == UNGRAB_KEYBOARD) {
            ledger.ungrabbed(client);
        } else if (op == NO_OPERATION) {
            if (client == ownClient) {
                Boolean begins = marks.poll();
                if (begins != null) ledger.marked(begins);
            }
        } else if (op == xiOpcode && xiOpcode > 0) {
            int minor = p.getByte(1) & 0xff;
            if (minor == XI_GRAB_DEVICE && len >= 20) {
                int device = u16(p, 16, swapped);
                boolean keyboard = masterKeyboards.contains(device);
                // a known device that is no master keyboard (a pointer, a slave) does not hold the core keyboard
                if (keyboard || !devices.contains(device))
                    ledger.grabRequested(client, seq, u32(p, 4, swapped), keyboard, true);
            } else if (minor == XI_UNGRAB_DEVICE && len >= 12) {
                if (masterKeyboards.contains(u16(p, 8, swapped))) ledger.ungrabbed(client);
            }
        }
    }

    private void fromServer(long client, Pointer p, long len, boolean swapped) {
        int type = p.getByte(0) & 0xff;
        if (type == 1) {
            ledger.replied(client, u16(p, 2, swapped), p.getByte(1) & 0xff, len >= 12 ? p.getByte(8) & 0xff : -1);
        } else if (type == 0) {
            ledger.failed(client, u16(p, 2, swapped));
        } else if (type == KEY_PRESS || type == BUTTON_PRESS) {
            ledger.pressed();
        }
    }

    private static int u16(Pointer p, long at, boolean swapped) {
        int v = p.getShort(at) & 0xffff;
        return swapped ? Integer.reverseBytes(v) >>> 16 : v;
    }

    private static long u32(Pointer p, long at, boolean swapped) {
        int v = p.getInt(at);
        return (swapped ? Integer.reverseBytes(v) : v) & 0xffffffffL;
    }

    /** Announces Deckhand's next mark (a {@code NoOperation} its probing connection is about to send). */
    void expectMark(boolean begins) {
        marks.add(begins);
    }

    /**
     * Who held the keyboard grab when the server answered the {@code probes}-th probe of the probing connection
     * (the one just made): null when nobody did. Waits at most {@link #CATCH_UP} for the record to get there;
     * past it, or once the record stopped, the holder is unknown.
     */
    GrabHolder holderAfter(long probes) {
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        synchronized (ledger) {
            while (ledger.probesAnswered() < probes) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || closing) {
                    return new GrabHolder.Unknown(
                            closing
                                    ? "the grab record stopped"
                                    : "the grab record did not catch up within " + CATCH_UP.toMillis() + " ms");
                }
                try {
                    ledger.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return new GrabHolder.Unknown("interrupted");
                }
            }
            return ledger.atLastProbe();
        }
    }

    /** How many keyboard grabs other clients took since the record began, as far as the record has read. */
    long grabsTaken() {
        synchronized (ledger) {
            return ledger.grabsTaken();
        }
    }

    /** The monitor the record's callback takes for every record (tests stall the thread on it). */
    Object monitor() {
        return ledger;
    }

    /** Whether the data connection, the one the thread reads, is closed (tests). */
    boolean dataClosed() {
        return data.closed();
    }

    /** Whether the record still runs. */
    boolean running() {
        return !closing && !data.dead();
    }

    @Override
    public void close() {
        closing = true;
        try {
            if (!control.dead()) {
                Xtst.X.XRecordDisableContext(control.dpy, context);
                Xtst.X.XRecordFreeContext(control.dpy, context);
                Xlib.X.XSync(control.dpy, Xlib.False);
            }
        } catch (RuntimeException ignored) {
            // the connections go anyway
        }
        Thread t = thread;
        if (t == null) {
            data.close();
        } else {
            try {
                t.join(JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            // The thread closes the data connection as it ends. Closing it here while the thread is still in
            // XRecordProcessReplies on it (late under load) freed the display under it.
            if (t.isAlive())
                LOG.infof(
                        "the grab record had not ended after %d ms; it closes its connection when it ends",
                        JOIN_MILLIS);
        }
        control.close();
    }
}

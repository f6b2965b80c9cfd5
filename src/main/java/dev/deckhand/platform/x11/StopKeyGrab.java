package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.deckhand.grant.RefusedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * A global key chord grabbed on the root window ({@code XGrabKey}) on a connection and a thread of its
 * own; each press runs the callback (on that thread). The chord is grabbed with every combination of
 * CapsLock, NumLock and ScrollLock added, so it fires whatever lock keys are on.
 *
 * <p>A passive grab is dead while another client holds the keyboard — the granted app's own open menu
 * included, and the agent can open one whenever it likes. So the chord is also read from XInput 2 raw key
 * events on the root window, which the server delivers whatever client holds the keyboard (XI 2.1 and
 * later): a raw press of the chord's key with exactly the chord's modifiers held (the keys held are followed
 * from the raw presses and releases themselves, in the server's order, seeded with {@code XQueryKeymap};
 * lock keys ignored) is Stop. The passive grab stays, so the app never receives the
 * chord; with raw events on, every press is counted from its raw event alone, so none counts twice.
 *
 * <p>Registration fails, never fatally, when the display cannot be opened, the chord cannot be parsed
 * or has no key on this keyboard, or another client already grabs it (BadAccess): {@link #status()}
 * says which. A running grab ends with {@link #close()} (the thread ends within one poll interval).
 */
public final class StopKeyGrab implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(StopKeyGrab.class);
    private static final int POLL_MILLIS = 200;
    private static final int BAD_ACCESS = 10;

    /** What registration found: registered, or why not. */
    public record Status(boolean registered, String chord, String detail) {
    }

    /** The registered grab, for key presses another probe of this process received instead of it. */
    private static volatile StopKeyGrab active;

    private final String chord;
    private final Runnable onPress;
    private volatile List<int[]> grabbed = List.of();
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile Status status;
    private volatile boolean closing;
    private Thread thread;
    /** The XInput extension's opcode while raw key events are selected, else -1. */
    private volatile int rawOpcode = -1;
    /** The keys held now, followed from raw presses and releases (loop thread only). */
    private final boolean[] down = new boolean[256];
    private volatile Map<String, String> env = Map.of();

    private StopKeyGrab(String chord, Runnable onPress) {
        this.chord = chord;
        this.onPress = onPress;
        this.status = new Status(false, chord, "not started");
    }

    /**
     * Starts grabbing {@code chord} (grammar of {@link KeyChord}: {@code ctrl+alt+shift+Escape}) on the
     * display named by {@code env}; waits at most {@code 3 s} for the registration result. Never throws
     * for the world: a failure is in {@link #status()}.
     */
    public static StopKeyGrab start(String chord, Map<String, String> env, Runnable onPress) {
        Objects.requireNonNull(chord, "chord");
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(onPress, "onPress");
        StopKeyGrab grab = new StopKeyGrab(chord, onPress);
        Thread t = new Thread(() -> grab.run(env), "deckhand-stop-shortcut");
        t.setDaemon(true);
        grab.thread = t;
        t.start();
        try {
            if (!grab.ready.await(3, TimeUnit.SECONDS)) {
                grab.status = new Status(false, chord, "the X server did not answer within 3 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return grab;
    }

    /** Whether the chord is grabbed, and the detail (the reason when not). */
    public Status status() {
        return status;
    }

    private void run(Map<String, String> env) {
        this.env = env;
        XConnection c;
        try {
            c = XConnection.open(env);
        } catch (RefusedException | LinkageError e) {
            fail("the display could not be opened: " + e.getMessage());
            return;
        }
        try {
            List<int[]> grabs = grab(c);
            if (grabs.isEmpty()) return;
            loop(c, grabs.get(0)[0], grabs);
        } catch (RuntimeException | LinkageError e) {
            fail("the key grab stopped: " + e);
        } finally {
            c.close();
        }
    }

    /** Grabs every lock-key variant; returns {keycode, modifiers} per grab, or empty after a failure. */
    private List<int[]> grab(XConnection c) {
        Xlib x = Xlib.X;
        KeyChord k;
        try {
            k = KeyChord.grabbed(dev.deckhand.grant.Chord.parseLenient(chord), x::XStringToKeysym);
        } catch (IllegalArgumentException e) {
            fail("the chord '" + chord + "' cannot be read: " + e.getMessage());
            return List.of();
        }
        int keycode = x.XKeysymToKeycode(c.dpy, k.keysym());
        if (keycode == 0) {
            fail("the keyboard has no key for '" + chord + "'");
            return List.of();
        }
        int[] locks = lockMasks(c);
        List<int[]> grabs = new ArrayList<>();
        int before = c.errors();
        for (int extra : lockCombinations(locks)) {
            int mods = k.modifiers() | extra;
            x.XGrabKey(c.dpy, keycode, mods, c.root, Xlib.True, Xlib.GrabModeAsync, Xlib.GrabModeAsync);
            grabs.add(new int[] {keycode, mods});
        }
        c.sync();
        if (c.errors() != before) {
            boolean taken = c.lastErrorCode() == BAD_ACCESS;
            for (int[] g : grabs) x.XUngrabKey(c.dpy, g[0], g[1], c.root);
            c.sync();
            fail(taken ? "another program already grabs " + chord + " (BadAccess); choose another chord in "
                    + "deckhand.presence.stop-shortcut.keys" : "XGrabKey failed: " + c.lastError());
            return List.of();
        }
        grabbed = List.copyOf(grabs);
        active = this;
        boolean raw = startRaw(grabs.get(0)[0], grabs.get(0)[1]);
        status = new Status(true, chord, "grabbed on the root window (" + grabs.size() + " lock-key variants)"
                + (raw ? " and read from XInput 2 raw key events, whatever holds the keyboard"
                        : "; no XInput 2 raw key events here, so a client holding the keyboard (an open menu) silences it"));
        LOG.infof("Stop shortcut %s registered", chord);
        ready.countDown();
        return grabs;
    }

    /**
     * Reads raw key events on a connection of their own: the server does not send them to the connection
     * whose passive grab a press activated (measured: the releases of the chord's keys never came on the
     * grab's connection, so a modifier stayed held). True when the server delivers them.
     */
    private boolean startRaw(int keycode, int modifiers) {
        XConnection rc;
        try {
            rc = XConnection.open(env);
        } catch (RefusedException | LinkageError e) {
            return false;
        }
        if (!selectRawKeys(rc)) {
            rc.close();
            return false;
        }
        Thread t = new Thread(() -> {
            try {
                rawLoop(rc, keycode, modifiers);
            } catch (RuntimeException | LinkageError e) {
                LOG.errorf("the Stop shortcut's raw key reader stopped: %s", e);
            } finally {
                rc.close();
            }
        }, "deckhand-stop-shortcut-raw");
        t.setDaemon(true);
        t.start();
        return true;
    }

    private void rawLoop(XConnection c, int keycode, int modifiers) {
        int lockBits = 0;
        for (int l : lockMasks(c)) lockBits |= l;
        int locks = lockBits;
        eachEvent(c, event -> {
            if (event.getInt(Xlib.EV_TYPE) == Xi.GenericEvent && rawPress(c, event, keycode, modifiers, locks)) {
                fire(" (raw key event)");
            }
        });
    }

    /** Hands each event of {@code c} to {@code onEvent} until close or the connection is lost (polling meanwhile). */
    private void eachEvent(XConnection c, java.util.function.Consumer<Memory> onEvent) {
        Xlib x = Xlib.X;
        Memory pfd = new Memory(8);
        Memory event = new Memory(Xlib.EV_SIZE);
        int fd = x.XConnectionNumber(c.dpy);
        while (!closing && !c.dead()) {
            if (x.XPending(c.dpy) == 0) {
                pfd.setInt(0, fd);
                pfd.setShort(4, LibC.POLLIN);
                pfd.setShort(6, (short) 0);
                LibC.C.poll(pfd, 1, POLL_MILLIS);
                continue;
            }
            x.XNextEvent(c.dpy, event);
            onEvent.accept(event);
        }
    }

    /** Selects XI_RawKeyPress on the root for all master devices; true when the server delivers them. */
    private boolean selectRawKeys(XConnection c) {
        try {
            IntByReference opcode = new IntByReference(), event = new IntByReference(), error = new IntByReference();
            if (Xlib.X.XQueryExtension(c.dpy, "XInputExtension", opcode, event, error) == 0) return false;
            IntByReference major = new IntByReference(2), minor = new IntByReference(2);
            if (Xi.X.XIQueryVersion(c.dpy, major, minor) != 0 || major.getValue() < 2
                    || (major.getValue() == 2 && minor.getValue() < 1)) {
                return false; // XI 2.0 gives raw events only to the grabbing client
            }
            Memory bits = new Memory(4);
            bits.clear();
            bits.setByte(Xi.XI_RawKeyPress >> 3, (byte) (1 << (Xi.XI_RawKeyPress & 7) | 1 << (Xi.XI_RawKeyRelease & 7)));
            Memory mask = new Memory(Xi.MASK_SIZE);
            mask.clear();
            mask.setInt(Xi.MASK_DEVICE, Xi.XIAllMasterDevices);
            mask.setInt(Xi.MASK_LEN, 4);
            mask.setPointer(Xi.MASK_PTR, bits);
            int before = c.errors();
            Xi.X.XISelectEvents(c.dpy, c.root, mask, 1);
            c.sync();
            if (c.errors() != before) return false;
            byte[] keys = new byte[32];
            Xlib.X.XQueryKeymap(c.dpy, keys);
            for (int kc = 0; kc < 256; kc++) down[kc] = (keys[kc >> 3] & (1 << (kc & 7))) != 0;
            rawOpcode = opcode.getValue();
            return true;
        } catch (UnsatisfiedLinkError noLibXi) {
            return false;
        }
    }

    /** Whether exactly {@code modifiers} are held (lock keys ignored), by the keys followed in {@link #down}. */
    private boolean onlyModifiersHeld(XConnection c, int modifiers, int locks) {
        Pointer map = Xlib.X.XGetModifierMapping(c.dpy);
        if (map == null) return false;
        int held = 0;
        try {
            int per = map.getInt(Xlib.MODMAP_MAX);
            Pointer codes = map.getPointer(Xlib.MODMAP_MAP);
            for (int mod = 0; mod < 8; mod++) {
                for (int i = 0; i < per; i++) {
                    int kc = codes.getByte((long) mod * per + i) & 0xff;
                    if (kc != 0 && down[kc]) held |= 1 << mod;
                }
            }
        } finally {
            Xlib.X.XFreeModifiermap(map);
        }
        return (held & ~locks) == modifiers;
    }

    private void fire(String how) {
        LOG.infof("Stop shortcut %s pressed%s", chord, how);
        try {
            onPress.run();
        } catch (RuntimeException e) {
            LOG.errorf(e, "the Stop shortcut's action failed");
        }
    }

    private void loop(XConnection c, int keycode, List<int[]> grabs) {
        Xlib x = Xlib.X;
        eachEvent(c, event -> {
            if (event.getInt(Xlib.EV_TYPE) == Xlib.KeyPress && event.getInt(Xlib.EV_KEYCODE) == keycode && rawOpcode < 0) {
                // with raw events on, every press of the chord is counted there, once
                fire("");
            }
        });
        if (!c.dead()) {
            for (int[] g : grabs) x.XUngrabKey(c.dpy, g[0], g[1], c.root);
            c.sync();
        } else {
            status = new Status(false, chord, "the connection to the X display was lost");
        }
    }

    /**
     * Follows a raw key event into {@link #down}; true when it is XInput 2's raw press of {@code keycode} with
     * exactly the chord's modifiers held.
     */
    private boolean rawPress(XConnection c, Memory cookie, int keycode, int modifiers, int locks) {
        if (cookie.getInt(Xi.COOKIE_EXTENSION) != rawOpcode) return false;
        int evtype = cookie.getInt(Xi.COOKIE_EVTYPE);
        if (evtype != Xi.XI_RawKeyPress && evtype != Xi.XI_RawKeyRelease) return false;
        if (Xlib.X.XGetEventData(c.dpy, cookie) == 0) return false;
        int detail;
        try {
            Pointer data = cookie.getPointer(Xi.COOKIE_DATA);
            if (data == null) return false;
            detail = data.getInt(Xi.RAW_DETAIL);
        } finally {
            Xlib.X.XFreeEventData(c.dpy, cookie);
        }
        if (detail < 0 || detail > 255) return false;
        down[detail] = evtype == Xi.XI_RawKeyPress;
        if (evtype != Xi.XI_RawKeyPress || detail != keycode) return false;
        return onlyModifiersHeld(c, modifiers, locks);
    }

    /**
     * A key press that reached another connection of this process instead of the grab: the keyboard-grab
     * probe ({@link KeyboardGrab}) holds the keyboard for a moment, and a press in that moment is reported
     * to it. When it is the Stop chord (its key with exactly one grabbed modifier set), Stop runs on a
     * thread of its own — never on the caller's, which may be the run's own thread.
     */
    static void swallowed(int keycode, int state) {
        StopKeyGrab g = active;
        // with raw events on, the press was counted from its raw event already
        if (g == null || g.closing || g.rawOpcode >= 0) return;
        int mods = state & 0xff; // modifier bits only, not the pointer buttons
        for (int[] grab : g.grabbed) {
            if (grab[0] == keycode && grab[1] == mods) {
                Thread t = new Thread(() -> g.fire(" while a keyboard-grab probe held the keyboard"),
                        "deckhand-stop-shortcut-swallowed");
                t.setDaemon(true);
                t.start();
                return;
            }
        }
    }

    /** {CapsLock, NumLock, ScrollLock} masks as this keyboard maps them (0 for a lock it lacks). */
    static int[] lockMasks(XConnection c) {
        Xlib x = Xlib.X;
        int num = modifierOf(c, x.XKeysymToKeycode(c.dpy, 0xff7fL)); // Num_Lock
        int scroll = modifierOf(c, x.XKeysymToKeycode(c.dpy, 0xff14L)); // Scroll_Lock
        return new int[] {Xlib.LockMask, num, scroll};
    }

    private static int modifierOf(XConnection c, int keycode) {
        if (keycode == 0) return 0;
        Pointer map = Xlib.X.XGetModifierMapping(c.dpy);
        if (map == null) return 0;
        try {
            int per = map.getInt(Xlib.MODMAP_MAX);
            Pointer codes = map.getPointer(Xlib.MODMAP_MAP);
            for (int mod = 0; mod < 8; mod++) {
                for (int i = 0; i < per; i++) {
                    if ((codes.getByte((long) mod * per + i) & 0xff) == keycode) return 1 << mod;
                }
            }
            return 0;
        } finally {
            Xlib.X.XFreeModifiermap(map);
        }
    }

    /** Every subset of the distinct non-zero lock masks (always including 0). */
    static List<Integer> lockCombinations(int[] locks) {
        List<Integer> distinct = new ArrayList<>();
        for (int m : locks) if (m != 0 && !distinct.contains(m)) distinct.add(m);
        List<Integer> out = new ArrayList<>();
        for (int bits = 0; bits < 1 << distinct.size(); bits++) {
            int mask = 0;
            for (int i = 0; i < distinct.size(); i++) if ((bits & 1 << i) != 0) mask |= distinct.get(i);
            out.add(mask);
        }
        return out;
    }

    private void fail(String why) {
        status = new Status(false, chord, why);
        LOG.warnf("Stop shortcut %s not registered: %s", chord, why);
        ready.countDown();
    }

    /** Releases the grab and ends the thread (within one poll interval). Idempotent. */
    @Override
    public void close() {
        closing = true;
        if (active == this) active = null;
        Thread t = thread;
        if (t != null) {
            try {
                t.join(POLL_MILLIS * 3L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The chord as given. */
    public String chord() {
        return chord;
    }

    /** True while the grab is held. */
    public boolean registered() {
        return status.registered();
    }
}

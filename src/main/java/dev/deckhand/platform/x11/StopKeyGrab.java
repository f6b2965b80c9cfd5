package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.deckhand.grant.RefusedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>A program may change the keyboard map (a granted terminal runs {@code setxkbmap -option ctrl:swapcaps}):
 * a press is judged twice ({@link StopChord}), by the keys the chord had when Stop was set up — keycodes, the
 * physical keys the person's fingers know — and by the keyboard's map now, read again on every XKB new-keyboard
 * or map notification (and core {@code MappingNotify}), in the server's order with the raw key events, every
 * reading of the last 2 s counting (a map read late may already be past a short-lived one); either is Stop. The passive grabs are grabbed again for both readings after every change.
 *
 * <p>Registration fails, never fatally, when the display cannot be opened, the chord cannot be parsed
 * or has no key on this keyboard, or another client already grabs it (BadAccess): {@link #status()}
 * says which. A running grab ends with {@link #close()} (the thread ends within one poll interval).
 *
 * <p>Any client of the display may close another's connection ({@code XKillClient}), a granted shell included.
 * A lost connection — the grab's or the raw keys' — is therefore Stop itself: {@code onLost} runs (the owner
 * revokes the grant, so no run goes on without Stop, and none starts until the person mints again), and the grab
 * connects again every second, with the keys the chord had at start kept; a passive grab another client took
 * meanwhile is logged, not fatal, while raw key events read the chord.
 */
public final class StopKeyGrab implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(StopKeyGrab.class);
    private static final int POLL_MILLIS = 200;
    private static final int BAD_ACCESS = 10;

    /** What registration found: registered, or why not. */
    public record Status(boolean registered, String chord, String detail) {}

    /** The registered grab, for key presses another probe of this process received instead of it. */
    private static volatile StopKeyGrab active;

    private final String chord;
    private final Runnable onPress;
    private final Runnable onLost;
    /** Connections lost since the start. */
    private final AtomicLong losses = new AtomicLong();
    /** Set when one of the current pair of connections is lost or the grab closes: both end. */
    private volatile AtomicBoolean over = new AtomicBoolean();

    private volatile Thread rawThread;
    /** The passive grabs held now, {keycode, modifiers} each (the grab thread's). */
    private volatile List<int[]> grabbed = List.of();
    /** The passive grabs the readings want; the grab thread takes them when they differ from {@link #grabbed}. */
    private volatile List<int[]> wanted = List.of();

    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile Status status;
    private volatile boolean closing;
    private Thread thread;
    /** The XInput extension's opcode while raw key events are selected, else -1. */
    private volatile int rawOpcode = -1;
    /** The keys held now, followed from raw presses and releases (raw thread only). */
    private final boolean[] down = new boolean[256];

    private volatile Map<String, String> env = Map.of();
    /** The chord's modifiers and key, parsed once. */
    private volatile Set<dev.deckhand.grant.Chord.Modifier> chordModifiers = Set.of();

    private volatile long keysym;
    /** The chord's keys when Stop was set up: the physical keys. */
    private volatile StopChord atStart;
    /** The chord's keys as the keyboard maps them now. */
    private volatile StopChord now;
    /**
     * The readings of the last {@link #RECENT} (the latest always kept), raw thread only: a map is read when its
     * notification is handled, which may be after the server has already moved on (xdotool maps a spare keycode,
     * presses it and undoes the mapping within milliseconds, and each change comes as an XKB and a core
     * notification), so a press is judged by every reading of that moment, not only the last.
     */
    private final java.util.ArrayDeque<Reading> recent = new java.util.ArrayDeque<>();

    private static final long RECENT = TimeUnit.SECONDS.toNanos(2);

    private record Reading(long nanos, StopChord chord) {}
    /** Keyboard changes followed since the start. */
    private final AtomicLong remaps = new AtomicLong();

    private StopKeyGrab(String chord, Runnable onPress, Runnable onLost) {
        this.chord = chord;
        this.onPress = onPress;
        this.onLost = onLost;
        this.status = new Status(false, chord, "not started");
    }

    /**
     * Starts grabbing {@code chord} (grammar of {@link KeyChord}: {@code ctrl+alt+shift+Escape}) on the
     * display named by {@code env}; waits at most {@code 3 s} for the registration result. Never throws
     * for the world: a failure is in {@link #status()}.
     */
    public static StopKeyGrab start(String chord, Map<String, String> env, Runnable onPress) {
        return start(chord, env, onPress, onPress);
    }

    /**
     * As {@link #start(String, Map, Runnable)}, with {@code onLost} run (on the grab's thread) each time a
     * connection of a registered grab is lost, before it connects again.
     */
    public static StopKeyGrab start(String chord, Map<String, String> env, Runnable onPress, Runnable onLost) {
        Objects.requireNonNull(chord, "chord");
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(onPress, "onPress");
        Objects.requireNonNull(onLost, "onLost");
        StopKeyGrab grab = new StopKeyGrab(chord, onPress, onLost);
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
        // registration at start: a failure there is final (status says why)
        if (!hold(false)) return;
        while (!closing) {
            losses.incrementAndGet();
            status = new Status(false, chord, "the connection to the X display was lost; connecting again");
            LOG.warnf(
                    "Stop shortcut %s: a connection to the X display was lost (closed by another client, or the "
                            + "display ended): that is Stop",
                    chord);
            fire(" (connection lost)", onLost);
            while (!closing && !hold(true)) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /**
     * One pair of connections: opens, registers and follows the grab until a connection is lost or the grab
     * closes. False when it could not register ({@code again}: quietly, to be tried again).
     */
    private boolean hold(boolean again) {
        XConnection c;
        try {
            c = XConnection.open(env);
        } catch (RefusedException | LinkageError e) {
            if (!again) fail("the display could not be opened: " + e.getMessage());
            return false;
        }
        over = new AtomicBoolean();
        boolean registered = false;
        try {
            if (!grab(c, again)) return false;
            registered = true;
            // without raw key events the grab's own connection follows the keyboard's changes
            int xkb = rawOpcode < 0 ? c.selectKeyboardChanges(false) : -1;
            loop(c, xkb);
            return true;
        } catch (RuntimeException | LinkageError e) {
            // after registering, a failure is a lost connection like any other; before, it is the reason
            if (!registered && !again) fail("the key grab stopped: " + e);
            return registered;
        } finally {
            over.set(true);
            endRaw();
            c.close();
        }
    }

    /** Ends the raw key reader of the current pair, if any (it sees {@link #over} within one poll interval). */
    private void endRaw() {
        Thread t = rawThread;
        rawThread = null;
        if (t == null) return;
        try {
            t.join(POLL_MILLIS * 5L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Reads the keyboard, grabs every lock-key variant of the chord's keys; false after a failure. {@code again}
     * (after a lost connection): the keys at start are kept, and a key another client grabbed meanwhile is logged.
     */
    private boolean grab(XConnection c, boolean again) {
        Xlib x = Xlib.X;
        KeyChord k;
        dev.deckhand.grant.Chord parsed;
        try {
            parsed = dev.deckhand.grant.Chord.parseLenient(chord);
            k = KeyChord.grabbed(parsed, x::XStringToKeysym);
        } catch (IllegalArgumentException e) {
            fail("the chord '" + chord + "' cannot be read: " + e.getMessage());
            return false;
        }
        chordModifiers = Set.copyOf(parsed.modifiers());
        keysym = k.keysym();
        StopChord first = StopChord.of(chordModifiers, keysym, Keyboard.read(c));
        if (first.keys().isEmpty() && !again) {
            fail("the keyboard has no key for '" + chord + "'");
            return false;
        }
        if (!again) atStart = first;
        now = first;
        List<int[]> grabs = bothReadings(atStart, first);
        int before = c.errors();
        for (int[] g : grabs) {
            x.XGrabKey(c.dpy, g[0], g[1], c.root, Xlib.True, Xlib.GrabModeAsync, Xlib.GrabModeAsync);
        }
        c.sync();
        if (again && c.errors() != before) {
            LOG.warnf(
                    "Stop shortcut %s: %d of its keys are grabbed by another client now (%s)",
                    chord, c.errors() - before, c.lastError());
        } else if (c.errors() != before) {
            boolean taken = c.lastErrorCode() == BAD_ACCESS;
            for (int[] g : grabs) x.XUngrabKey(c.dpy, g[0], g[1], c.root);
            c.sync();
            fail(
                    taken
                            ? "another program already grabs " + chord + " (BadAccess); choose another chord in "
                                    + "deckhand.presence.stop-shortcut.keys"
                            : "XGrabKey failed: " + c.lastError());
            return false;
        }
        grabbed = grabs;
        wanted = grabbed;
        active = this;
        boolean raw = startRaw();
        if (again && !raw) {
            // without raw key events another client's passive grab would silence the chord: not registered
            for (int[] g : grabs) x.XUngrabKey(c.dpy, g[0], g[1], c.root);
            c.sync();
            return false;
        }
        long lost = losses.get();
        status = new Status(
                true,
                chord,
                "grabbed on the root window (" + grabs.size() + " lock-key variants)"
                        + (raw
                                ? " and read from XInput 2 raw key events, whatever holds the keyboard"
                                : "; no XInput 2 raw key events here, so a client holding the keyboard (an open menu) silences it")
                        + "; a press is judged by the keys the chord had at start and by the keyboard's map now"
                        + (lost == 0
                                ? ""
                                : "; connected again after " + lost + " lost connection" + (lost == 1 ? "" : "s")));
        LOG.infof("Stop shortcut %s registered%s", chord, again ? " again" : "");
        ready.countDown();
        return true;
    }

    /**
     * Reads raw key events on a connection of their own: the server does not send them to the connection
     * whose passive grab a press activated (measured: the releases of the chord's keys never came on the
     * grab's connection, so a modifier stayed held). The same connection follows the keyboard's changes, so a
     * remap and the presses after it are handled in the server's order. True when the server delivers them.
     */
    private boolean startRaw() {
        rawOpcode = -1;
        XConnection rc;
        try {
            rc = XConnection.open(env);
        } catch (RefusedException | LinkageError e) {
            return false;
        }
        int xkb;
        try {
            if (!selectRawKeys(rc)) {
                rc.close();
                return false;
            }
            xkb = rc.selectKeyboardChanges(false);
        } catch (RuntimeException e) {
            rawOpcode = -1;
            rc.close();
            return false;
        }
        AtomicBoolean pair = over;
        Thread t = new Thread(
                () -> {
                    try {
                        rawLoop(rc, xkb, pair);
                    } catch (RuntimeException | LinkageError e) {
                        LOG.errorf("the Stop shortcut's raw key reader stopped: %s", e);
                    } finally {
                        // the reader's end ends the pair: the grab connects both again
                        pair.set(true);
                        rc.close();
                    }
                },
                "deckhand-stop-shortcut-raw");
        t.setDaemon(true);
        rawThread = t;
        t.start();
        return true;
    }

    private void rawLoop(XConnection c, int xkb, AtomicBoolean pair) {
        c.eachEvent(
                () -> closing || pair.get(),
                POLL_MILLIS,
                event -> {
                    int type = event.getInt(Xlib.EV_TYPE);
                    if (type == Xi.GenericEvent) {
                        if (rawPress(c, event)) fire(" (raw key event)", onPress);
                    } else if (keyboardChange(event, xkb)) {
                        remapped(c);
                    }
                },
                () -> {});
    }

    /** Whether {@code event} says the keyboard changed: XKB's new keyboard or map notification, or a core MappingNotify. */
    private static boolean keyboardChange(com.sun.jna.Memory event, int xkb) {
        int type = event.getInt(Xlib.EV_TYPE);
        if (type == Xlib.MappingNotify) return true;
        if (xkb < 0 || type != xkb) return false;
        int kind = event.getInt(Xlib.XKB_TYPE);
        return kind == Xlib.XkbNewKeyboardNotify || kind == Xlib.XkbMapNotify;
    }

    /** The keyboard changed: the chord's keys are read again, and the passive grabs follow both readings. */
    private void remapped(XConnection c) {
        StopChord before = now;
        StopChord after;
        try {
            after = StopChord.of(chordModifiers, keysym, Keyboard.read(c));
        } catch (IllegalStateException unreadable) {
            LOG.warnf("the Stop shortcut could not read the changed keyboard: %s", unreadable.getMessage());
            return;
        }
        remaps.incrementAndGet();
        long t = System.nanoTime();
        recent.addLast(new Reading(t, after));
        while (recent.size() > 1 && t - recent.peekFirst().nanos() > RECENT) recent.removeFirst();
        if (after.equals(before)) return;
        now = after;
        wanted = bothReadings(atStart, after);
        LOG.infof(
                "Stop shortcut %s: the keyboard changed; its key is now keycode %s (at start %s)",
                chord, after.keys(), atStart.keys());
    }

    /** The passive grabs of both readings (the keys at start and the map now), each once. */
    private static List<int[]> bothReadings(StopChord atStart, StopChord now) {
        java.util.LinkedHashMap<String, int[]> both = new java.util.LinkedHashMap<>();
        for (int[] g : atStart.grabs()) both.put(g[0] + ":" + g[1], g);
        for (int[] g : now.grabs()) both.put(g[0] + ":" + g[1], g);
        return List.copyOf(both.values());
    }

    /** The grab thread takes the passive grabs the readings want (old ones released first). */
    private void regrab(XConnection c) {
        List<int[]> want = wanted;
        if (want == grabbed) return;
        Xlib x = Xlib.X;
        for (int[] g : grabbed) x.XUngrabKey(c.dpy, g[0], g[1], c.root);
        int before = c.errors();
        for (int[] g : want) x.XGrabKey(c.dpy, g[0], g[1], c.root, Xlib.True, Xlib.GrabModeAsync, Xlib.GrabModeAsync);
        c.sync();
        if (c.errors() != before) {
            // another client holds one of the new keys: the raw key events still read it
            LOG.warnf(
                    "Stop shortcut %s: %d of the keys after the keyboard change could not be grabbed (%s)",
                    chord, c.errors() - before, c.lastError());
        }
        grabbed = want;
    }

    /** Selects XI_RawKeyPress on the root for all master devices; true when the server delivers them. */
    private boolean selectRawKeys(XConnection c) {
        try {
            IntByReference opcode = new IntByReference(), event = new IntByReference(), error = new IntByReference();
            if (Xlib.X.XQueryExtension(c.dpy, "XInputExtension", opcode, event, error) == 0) return false;
            IntByReference major = new IntByReference(2), minor = new IntByReference(2);
            if (Xi.X.XIQueryVersion(c.dpy, major, minor) != 0
                    || major.getValue() < 2
                    || (major.getValue() == 2 && minor.getValue() < 1)) {
                return false; // XI 2.0 gives raw events only to the grabbing client
            }
            Memory bits = new Memory(4);
            bits.clear();
            bits.setByte(
                    Xi.XI_RawKeyPress >> 3, (byte) (1 << (Xi.XI_RawKeyPress & 7) | 1 << (Xi.XI_RawKeyRelease & 7)));
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

    private void fire(String how, Runnable action) {
        LOG.infof("Stop shortcut %s pressed%s", chord, how);
        try {
            action.run();
        } catch (RuntimeException e) {
            LOG.errorf(e, "the Stop shortcut's action failed");
        }
    }

    private void loop(XConnection c, int xkb) {
        Xlib x = Xlib.X;
        AtomicBoolean pair = over;
        c.eachEvent(
                () -> closing || pair.get(),
                POLL_MILLIS,
                event -> {
                    int type = event.getInt(Xlib.EV_TYPE);
                    // with raw events on, every press of the chord is counted there, once
                    if (type == Xlib.KeyPress
                            && rawOpcode < 0
                            && isGrabbed(event.getInt(Xlib.EV_KEYCODE), event.getInt(Xlib.EV_STATE))) {
                        fire("", onPress);
                    } else if (keyboardChange(event, xkb)) {
                        remapped(c);
                    }
                },
                () -> regrab(c));
        pair.set(true);
        if (!c.dead()) {
            for (int[] g : grabbed) x.XUngrabKey(c.dpy, g[0], g[1], c.root);
            c.sync();
        }
    }

    /** Whether a press of {@code keycode} with modifier {@code state} is one of the passive grabs held. */
    private boolean isGrabbed(int keycode, int state) {
        int mods = state & 0xff; // modifier bits only, not the pointer buttons
        for (int[] g : grabbed) if (g[0] == keycode && g[1] == mods) return true;
        return false;
    }

    /**
     * Follows a raw key event into {@link #down}; true when it is XInput 2's raw press of the chord's key with
     * exactly the chord's modifiers held, by the keys at start or by the map now.
     */
    private boolean rawPress(XConnection c, Memory cookie) {
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
        if (evtype != Xi.XI_RawKeyPress) return false;
        boolean stop = atStart.pressedBy(detail, down) || now.pressedBy(detail, down);
        for (Reading r : recent) stop |= r.chord().pressedBy(detail, down);
        if (!stop
                && LOG.isDebugEnabled()
                && (atStart.keys().contains(detail) || now.keys().contains(detail))) {
            StringBuilder held = new StringBuilder();
            for (int kc = 0; kc < 256; kc++)
                if (down[kc] && kc != detail) held.append(' ').append(kc);
            LOG.debugf("Stop shortcut %s: keycode %d pressed with keys%s held: not the chord", chord, detail, held);
        }
        return stop;
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
        if (g.isGrabbed(keycode, state)) {
            Thread t = new Thread(
                    () -> g.fire(" while a keyboard-grab probe held the keyboard", g.onPress),
                    "deckhand-stop-shortcut-swallowed");
            t.setDaemon(true);
            t.start();
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
        over.set(true);
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

    /** How many keyboard changes the grab has followed since it started (tests). */
    long keyboardChangesFollowed() {
        return remaps.get();
    }

    /** True while the grab is held. */
    public boolean registered() {
        return status.registered();
    }
}

package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import dev.deckhand.grant.RefusedException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Counts the changes made to the person's keyboard, on a connection and a thread of its own: XKB's new-keyboard
 * and map notifications (and core {@code MappingNotify}) after which the keysyms of a key, its XKB actions or key
 * behaviour (round 20's D3: a RedirectKey given and taken back, the keysyms unchanged), or the modifier map differ
 * from the reading before (two requests and the XKB map's one, on map notifications only), and controls
 * notifications that turn an XKB control on or off (AccessX's sticky, slow and bounce keys, mouse keys, key
 * repeat...). A task never needs any of these, and a remap can make the person's keys mean something else
 * (docs/presence.md, the Stop shortcut).
 *
 * <p>Keycodes that had no keysym in any reading are left out of the comparison: that is where Deckhand's own
 * {@code type} maps characters the layout lacks ({@link KeyboardMapping}), and xdotool its scratch keys; a change
 * there leaves every key the person has as it was.
 *
 * <p>{@link #count()} is -1 when nothing is watched (no display, no XKB, the connection lost). Never throws.
 */
final class KeyboardWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KeyboardWatch.class);
    private static final int POLL_MILLIS = 200;
    private static final String[] CONTROLS = {
        "key repeat",
        "slow keys",
        "bounce keys",
        "sticky keys",
        "mouse keys",
        "mouse keys acceleration",
        "AccessX keys",
        "AccessX timeout",
        "AccessX feedback",
        "audible bell",
        "overlay 1",
        "overlay 2",
        "ignore group lock"
    };

    private final AtomicLong count = new AtomicLong(-1);
    private volatile String last = "";
    private volatile boolean closing;
    private final Thread thread;

    private KeyboardWatch(XConnection c, int xkb) {
        Keyboard first = Keyboard.readWithActions(c);
        Set<Integer> spares = new HashSet<>(first.spares());
        count.set(0);
        thread = new Thread(
                () -> {
                    Keyboard[] seen = {first};
                    try {
                        c.eachEvent(
                                () -> closing,
                                POLL_MILLIS,
                                event -> {
                                    Optional<String> change = judge(c, event, xkb, seen, spares);
                                    change.ifPresent(what -> {
                                        last = what;
                                        long n = count.incrementAndGet();
                                        LOG.infof("the keyboard changed (%d since Deckhand started): %s", n, what);
                                    });
                                },
                                () -> {});
                    } catch (RuntimeException | LinkageError e) {
                        LOG.warnf("the keyboard watch stopped: %s", e);
                    } finally {
                        count.set(-1);
                        c.close();
                    }
                },
                "deckhand-keyboard-watch");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts watching the display named by {@code env}; a watch that cannot start counts -1. */
    static KeyboardWatch start(Map<String, String> env) {
        XConnection c;
        try {
            c = XConnection.open(env);
        } catch (RefusedException | LinkageError e) {
            return new KeyboardWatch();
        }
        try {
            int xkb = c.selectKeyboardChanges(true);
            if (xkb < 0) {
                c.close();
                return new KeyboardWatch();
            }
            return new KeyboardWatch(c, xkb);
        } catch (RuntimeException e) {
            c.close();
            return new KeyboardWatch();
        }
    }

    /** A watch that watches nothing. */
    private KeyboardWatch() {
        thread = null;
    }

    /** The change {@code event} made, if it made one: keysyms or the modifier map since the last reading, or a control. */
    private static Optional<String> judge(XConnection c, Memory event, int xkb, Keyboard[] seen, Set<Integer> spares) {
        int type = event.getInt(Xlib.EV_TYPE);
        boolean map = type == Xlib.MappingNotify;
        if (type == xkb) {
            int kind = event.getInt(Xlib.XKB_TYPE);
            if (kind == Xlib.XkbControlsNotify) {
                int changed = event.getInt(Xlib.XKB_ENABLED_CTRL_CHANGES);
                if (changed == 0) return Optional.empty();
                int enabled = event.getInt(Xlib.XKB_ENABLED_CTRLS);
                return Optional.of("the XKB controls " + controls(changed, enabled));
            }
            map = kind == Xlib.XkbNewKeyboardNotify || kind == Xlib.XkbMapNotify;
        }
        if (!map) return Optional.empty();
        Keyboard now = Keyboard.readWithActions(c);
        Optional<String> what = now.changedSince(seen[0], spares);
        spares.addAll(now.spares());
        seen[0] = now;
        return what;
    }

    /** The controls turned on and off, by name: "sticky keys on, slow keys off". */
    static String controls(int changed, int enabled) {
        List<String> out = new ArrayList<>();
        for (int bit = 0; bit < 32; bit++) {
            if ((changed & 1 << bit) == 0) continue;
            String name = bit < CONTROLS.length ? CONTROLS[bit] : "control " + bit;
            out.add(name + ((enabled & 1 << bit) != 0 ? " on" : " off"));
        }
        return String.join(", ", out);
    }

    /** Changes counted since the watch started; -1 when nothing is watched. */
    long count() {
        return count.get();
    }

    /** The last change counted, in words ("the keysyms of 3 keys and the modifier map"); empty before the first. */
    String last() {
        return last;
    }

    @Override
    public void close() {
        closing = true;
        Thread t = thread;
        if (t != null) {
            try {
                t.join(POLL_MILLIS * 3L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

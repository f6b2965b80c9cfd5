package dev.deckhand.platform.linux;

import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.GrabHolder;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.Processes;
import dev.deckhand.platform.atspi.AtspiBridge;
import dev.deckhand.platform.x11.WindowRelations;
import dev.deckhand.platform.x11.X11Display;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The policy facts of the X11 desktop, kept current by events. A whole read takes ~14 ms on an
 * idle machine (the window list, the process names, the X window relations, the keyboard-grab probe, the
 * password and focus walk, the application names, the browser-host walk), and a computer call looks at the
 * facts about six times (docs/performance.md#constants-that-moved-with-measurement).
 *
 * <p>The facts fall in two kinds. What the accessibility side tells — the focused element and whether it is
 * a password field, the registered applications, the browser host — is kept while no app sends an event
 * that can change it ({@code AtspiBus.changesFacts}: a focus, activation, visibility, role, name or
 * structure change; not a text, value or toggled-state change) and the top-level windows are the same (read
 * every time: the X side's change, and Deckhand's own windows), and at most {@link #ANNOUNCED_MAX_AGE} as a
 * safety net. What no event announces — the running processes, another client's keyboard grab, the X focus,
 * popups and screen lock — is read again once older than {@link #MAX_AGE}; the watcher's deny scan polls at a
 * similar interval.
 *
 * <p>{@link #fresh()}, for the last check right before a native call and before a capture, reads the facts
 * behind the absolute refusals now — the windows (Deckhand's own), the X focus, popups and lock, another
 * client's grab, the focused element and whether it is a password field — and keeps only the application
 * names, the browser host and (within {@link #MAX_AGE}) the process names.
 */
final class KeptFacts {

    private static final Logger LOG = Logger.getLogger(KeptFacts.class);

    /** The longest the facts no event announces (processes, a grab, X focus, popups, lock) are kept. */
    static final Duration MAX_AGE = Duration.ofMillis(500);
    /** The longest the accessibility side's facts are kept with no event: a safety net, not the rule. */
    static final Duration ANNOUNCED_MAX_AGE = Duration.ofSeconds(5);

    private final X11Display x11;
    private final AtspiBridge atspi;
    private final Supplier<List<WindowInfo>> windows;
    private final LongSupplier nanos;
    private Kept kept;
    private long wholeReads;

    /** What the bus told, with its event count and time; what no event announces, with its time. */
    private record Kept(
            List<WindowInfo> windows,
            long events,
            long announcedAt,
            AtspiBridge.Focus focus,
            Set<String> applicationNames,
            Optional<String> browserHost,
            long unannouncedAt,
            Set<String> processes,
            WindowRelations.Read relations,
            X11Display.GrabRead grab) {}

    KeptFacts(X11Display x11, AtspiBridge atspi, Supplier<List<WindowInfo>> windows, LongSupplier nanos) {
        this.x11 = x11;
        this.atspi = atspi;
        this.windows = windows;
        this.nanos = nanos;
    }

    /** The facts: the kept ones while nothing changed, re-reading only the kind that did (or aged). */
    synchronized DesktopFacts current() {
        List<WindowInfo> now = windows.get();
        long at = nanos.getAsLong();
        long events = atspi.events();
        Kept k = kept;
        if (!announcedHold(k, now, events, at)) {
            if (LOG.isDebugEnabled())
                LOG.debugf("facts read whole on %s: %s", Thread.currentThread().getName(), why(k, now, events));
            return whole(now, atspi.focusLater(), at, null, null, null);
        }
        if (at - k.unannouncedAt() >= MAX_AGE.toNanos()) {
            kept = k = new Kept(
                    now,
                    k.events(),
                    k.announcedAt(),
                    k.focus(),
                    k.applicationNames(),
                    k.browserHost(),
                    at,
                    Processes.names(),
                    x11.relations(now),
                    x11.keyboardGrab());
        }
        return facts(k);
    }

    /** The facts with those behind the absolute refusals read now, the others kept while nothing changed. */
    synchronized DesktopFacts fresh() {
        // the focus reads run on the libatspi thread while X and /proc are read here
        AtspiBridge.Pending<AtspiBridge.Focus> pending = atspi.focusLater();
        List<WindowInfo> now = windows.get();
        long at = nanos.getAsLong();
        Kept k = kept;
        boolean aged = k == null || at - k.unannouncedAt() >= MAX_AGE.toNanos();
        WindowRelations.Read relations = x11.relations(now);
        Set<String> processes = aged ? Processes.names() : k.processes();
        AtspiBridge.Focus focus = pending.get();
        // The grab probe comes after the focus reads: a probe that falls back to the root makes the focused app
        // drop its focus for a moment, and a focus read at that instant would read that.
        X11Display.GrabRead grabbed = x11.keyboardGrab();
        if (!announcedHold(k, now, focus.events(), at))
            return whole(now, () -> focus, at, relations, aged ? processes : null, grabbed);
        kept = k = new Kept(
                now,
                k.events(),
                k.announcedAt(),
                focus,
                k.applicationNames(),
                k.browserHost(),
                aged ? at : k.unannouncedAt(),
                processes,
                relations,
                grabbed);
        return facts(k);
    }

    /** How many reads went to the desktop for everything (the tests see what was kept). */
    synchronized long wholeReads() {
        return wholeReads;
    }

    private static boolean announcedHold(Kept k, List<WindowInfo> windows, long events, long at) {
        return k != null
                && k.events() == events
                && at - k.announcedAt() < ANNOUNCED_MAX_AGE.toNanos()
                && k.windows().equals(windows);
    }

    private static String why(Kept k, List<WindowInfo> windows, long events) {
        if (k == null) return "first read";
        if (k.events() != events) return (events - k.events()) + " accessibility events since";
        if (!k.windows().equals(windows)) return "the windows changed";
        return "older than " + ANNOUNCED_MAX_AGE.toMillis() + " ms";
    }

    /**
     * Everything read now; kept with the event count from before the reads, so an event during them counts.
     * The accessibility reads ({@code focus}, already submitted, and the context) run on the libatspi thread
     * while X and /proc are read here; the grab probe comes after them (see {@link #fresh()}).
     * {@code relations} and {@code grabbed} are what the fresh read already read now, or both null;
     * {@code processes} the process names read now, or null (they are not read twice).
     */
    private DesktopFacts whole(
            List<WindowInfo> now,
            AtspiBridge.Pending<AtspiBridge.Focus> focusRead,
            long at,
            WindowRelations.Read relations,
            Set<String> processes,
            X11Display.GrabRead grabbed) {
        wholeReads++;
        AtspiBridge.Pending<AtspiBridge.Context> contextRead = atspi.contextLater();
        boolean fresh = grabbed != null;
        Kept k = kept;
        boolean young = !fresh && k != null && at - k.unannouncedAt() < MAX_AGE.toNanos();
        Set<String> names = processes != null ? processes : Processes.names();
        WindowRelations.Read read = fresh ? relations : x11.relations(now);
        AtspiBridge.Focus focus = focusRead.get();
        AtspiBridge.Context context = contextRead.get();
        // A grab probe under MAX_AGE old is kept here, as for any unannounced fact, except for the fresh read,
        // which always probes: a probe that falls back to the root makes the focused app send focus events,
        // which would make the next read whole again.
        X11Display.GrabRead grab = fresh ? grabbed : young ? k.grab() : x11.keyboardGrab();
        kept = new Kept(
                now,
                focus.events(),
                at,
                focus,
                context.applicationNames(),
                context.browserHost(),
                young ? k.unannouncedAt() : at,
                names,
                read,
                grab);
        return facts(kept);
    }

    private static DesktopFacts facts(Kept k) {
        Set<String> running = new HashSet<>(k.applicationNames());
        k.windows().forEach(w -> running.add(w.app().toLowerCase(Locale.ROOT)));
        running.addAll(k.processes());
        X11Display.GrabRead g = k.grab();
        return new DesktopFacts(
                k.focus().passwordFocused(),
                g.grabbed(),
                running,
                k.windows(),
                k.browserHost(),
                k.relations().focusedWindow(),
                k.focus().element(),
                k.relations().popups(),
                k.relations().screenLock(),
                g.grabbed() ? g.holder() : GrabHolder.UNMEASURED);
    }
}

package dev.deckhand.platform.linux;

import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.Processes;
import dev.deckhand.platform.atspi.AtspiBridge;
import dev.deckhand.platform.x11.WindowRelations;
import dev.deckhand.platform.x11.X11Display;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The policy facts of the X11 desktop, kept current by events (issue 15). A full read takes ~14 ms on an idle
 * machine (the window list, the process names, the X window relations, the keyboard-grab probe, the password
 * and focus walk, the application names, the browser-host walk) and a computer call used to take six.
 *
 * <p>{@link #current()} serves the last read again while nothing says it changed: no accessibility event of
 * any app since it (the bridge's event count is the same), the same top-level windows (read every time: the
 * X side's change, and Deckhand's own windows), and not older than {@link #MAX_AGE} — the bound on the
 * facts no event announces: a process that starts without a window or an accessible app, and another
 * client's keyboard grab. The watcher's deny scan polls at a similar interval.
 *
 * <p>{@link #fresh()}, for the last check right before a native call and before a capture, reads the facts
 * behind the absolute refusals now — the window list (Deckhand's own windows), the X focus, popups and
 * screen lock, another client's keyboard grab, the focused element and whether it is a password field — and
 * keeps only the application names, the process names and the browser host from a read nothing has changed.
 */
final class KeptFacts {

    /** The longest a read is served again without any event: for the facts no event announces. */
    static final Duration MAX_AGE = Duration.ofMillis(500);

    private final X11Display x11;
    private final AtspiBridge atspi;
    private final Supplier<List<WindowInfo>> windows;
    private final LongSupplier nanos;
    private Kept kept;
    private long fullReads;

    private record Kept(DesktopFacts facts, long events, long readAt) {
    }

    KeptFacts(X11Display x11, AtspiBridge atspi, Supplier<List<WindowInfo>> windows, LongSupplier nanos) {
        this.x11 = x11;
        this.atspi = atspi;
        this.windows = windows;
        this.nanos = nanos;
    }

    /** The facts: the last read while nothing changed, else read now (and kept). */
    synchronized DesktopFacts current() {
        List<WindowInfo> now = windows.get();
        long started = nanos.getAsLong();
        Kept k = kept;
        if (k != null && unchanged(k, now, atspi.events(), started)) return k.facts();
        return read(now, atspi.focus(), null, started);
    }

    /** The facts with those behind the absolute refusals read now, the others kept while nothing changed. */
    synchronized DesktopFacts fresh() {
        List<WindowInfo> now = windows.get();
        long started = nanos.getAsLong();
        AtspiBridge.Focus focus = atspi.focus();
        Kept k = kept;
        return read(now, focus, k != null && unchanged(k, now, focus.events(), started) ? k.facts() : null, started);
    }

    /** How many reads went to the desktop for everything (the tests see what was served again). */
    synchronized long fullReads() {
        return fullReads;
    }

    private static boolean unchanged(Kept k, List<WindowInfo> windows, long events, long now) {
        return k.events() == events && now - k.readAt() < MAX_AGE.toNanos() && k.facts().windows().equals(windows);
    }

    /** Reads the facts, taking the names and the browser host from {@code same} when it is not null. */
    private DesktopFacts read(List<WindowInfo> now, AtspiBridge.Focus focus, DesktopFacts same, long started) {
        Set<String> running;
        java.util.Optional<String> host;
        if (same != null) {
            running = same.runningApps();
            host = same.browserHost();
        } else {
            fullReads++;
            AtspiBridge.Context context = atspi.context();
            running = new HashSet<>(context.applicationNames());
            now.forEach(w -> running.add(w.app().toLowerCase(Locale.ROOT)));
            running.addAll(Processes.names());
            host = context.browserHost();
        }
        WindowRelations.Read relations = x11.relations(now);
        DesktopFacts facts = new DesktopFacts(focus.passwordFocused(), x11.keyboardGrabbed(), running, now, host,
                relations.focusedWindow(), focus.element(), relations.popups(), relations.screenLock());
        // kept with the count before the reads: an event during them makes the next call read again
        kept = new Kept(facts, focus.events(), same != null ? kept.readAt() : started);
        return facts;
    }
}

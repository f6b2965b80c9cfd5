package dev.deckhand.platform.atspi;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;

/**
 * One bridge's state on the libatspi thread: the {@linkplain AtspiBus bus}, the
 * {@linkplain AtspiTree tree}, the {@linkplain AtspiActions actions} and the {@linkplain AtspiFacts
 * facts}, over one set of {@linkplain AtspiCalls call conventions} and one {@linkplain RevisionUids
 * uid table}, and whether the bridge is closed. Built on that thread and reachable only through the
 * bridge's {@link Confined}.
 */
final class AtspiSession {

    private final AtspiThread thread;
    private final AtspiBus bus;
    private final RevisionUids uids = new RevisionUids();
    private final AtspiTree tree;
    private final AtspiActions actions;
    private final AtspiFacts facts;
    private final Descendants descendants;
    private final AtspiFrames frames;
    private final AtspiMenus menus;
    private final LatestNodes latest;
    private boolean closed;

    /** On the libatspi thread, after {@code atspi_init}: registers the bus's event listener. */
    AtspiSession(AtspiThread thread, LatestNodes latest) {
        this.thread = thread;
        this.latest = latest;
        AtspiCalls calls = new AtspiCalls();
        this.bus = new AtspiBus(thread, calls);
        this.descendants = new Descendants(calls);
        this.frames = new AtspiFrames(calls, bus);
        this.tree = new AtspiTree(calls, bus, frames, uids, latest, descendants);
        this.actions = new AtspiActions(calls, bus, uids);
        this.facts = new AtspiFacts(calls, bus, descendants);
        this.menus = new AtspiMenus(calls, bus, frames);
    }

    /**
     * This session, checked open.
     *
     * @throws RefusedException {@code A11Y_UNAVAILABLE} once the bridge is closed
     */
    AtspiSession open() {
        if (closed) throw new RefusedException(Refusal.a11yUnavailable("the AT-SPI bridge is closed"));
        return this;
    }

    /** {@link #open()}, then the GLib main loop pumped so that libatspi's cache and events are current. */
    AtspiSession pumped() {
        open();
        thread.pump();
        return this;
    }

    /** {@link #open()}, then the GLib main loop pumped; whether it had nothing left pending after that pump. */
    boolean pumpedDry() {
        open();
        return thread.pump();
    }

    AtspiBus bus() {
        return bus;
    }

    RevisionUids uids() {
        return uids;
    }

    AtspiTree tree() {
        return tree;
    }

    AtspiActions actions() {
        return actions;
    }

    AtspiFacts facts() {
        return facts;
    }

    AtspiMenus menus() {
        return menus;
    }

    AtspiFrames frames() {
        return frames;
    }

    /** Drops every uid and native reference and the event listener. Idempotent. */
    void close() {
        if (closed) return;
        closed = true;
        uids.release();
        bus.close();
        descendants.close();
        latest.clear();
    }
}

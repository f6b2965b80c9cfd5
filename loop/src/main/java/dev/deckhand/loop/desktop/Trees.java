package dev.deckhand.loop.desktop;

import java.time.Duration;
import java.util.Set;

/**
 * The accessibility side of a window: its scoped tree, its menu accelerators, whether its app is still
 * registering on the bus, and waiting for the app's events (an action's effect) to land. A part of the
 * {@link Desktop} port.
 */
public interface Trees {

    /** The accessibility tree of one window, uids minted for {@code grantRevision}. */
    ScopedTree snapshot(long windowId, long grantRevision);

    /**
     * {@link #snapshot}, or the tree the desktop's last snapshot read when nothing can have changed since
     * (the verifier's first read right after the loop's observation, docs/driver-atspi.md#the-verifiers-first-read-may-reuse-the-loops-last-walk). An implementation returns an
     * earlier read only while it can tell that the read was complete, of this window and {@code grantRevision},
     * began after the last action it delivered, that the window (title, geometry, state, process) is the same
     * and no accessibility event of any app arrived since it began, and that it is younger than a bound the
     * implementation documents; else it walks. It never returns a tree of another window, revision or grant.
     * A read that waits for the app to catch up (a re-check) calls {@link #snapshot}. An implementation that
     * keeps no earlier read answers {@link #snapshot}; a decorator passes it on as itself.
     */
    ScopedTree latestSnapshot(long windowId, long grantRevision);

    /**
     * The keyboard accelerators of the window's menu items, read now, collapsed menus included: a {@code key}
     * chord that is one is judged as a click on its item. {@link dev.deckhand.grant.Accelerators#UNKNOWN} where
     * the platform reads none (no accessibility tree, Wayland frames).
     */
    dev.deckhand.grant.Accelerators accelerators(long windowId);

    /**
     * Whether the window's app is expected on the accessibility bus (its process loads an accessibility
     * bridge) but shows no window there yet: it is starting. False where the platform cannot tell.
     */
    boolean starting(long windowId);

    /**
     * Waits at most {@code max} for a {@link #starting} window's app to register, returning as soon as it
     * has; true once it has (or was never starting), false when it still has not.
     */
    boolean awaitRegistered(long windowId, Duration max);

    /** Wait (at most {@code max}) until the app's accessibility events go quiet. */
    void settle(Duration max);

    /**
     * Wait (at most {@code max}) for the last action to land: return once the burst of the first event of one
     * of {@code landings} since that action is over, else once the events go quiet. An implementation that
     * cannot tell a landing waits as {@link #settle(Duration)} does.
     */
    void settle(Duration max, Set<Landing> landings);
}

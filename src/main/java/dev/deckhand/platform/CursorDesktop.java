package dev.deckhand.platform;

import dev.deckhand.loop.desktop.Around;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Call;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.Display;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.Showing;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Shows each action of a {@link Desktop} with a {@link DrawnCursor} ({@link #over}): when the loop asks
 * ({@link #showElement}, {@link #showPoint}) the cursor travels to the element about to be acted on (its
 * bounds from the last scoped tree read through this desktop) or to the {@code click_at} point, and shows
 * a press for a click. The travel starts as soon as the loop knows the target and overlaps the checks
 * before the act; {@link #awaitShown()} waits for the arrival before the loop's last Stop and policy
 * check, so a Stop during the travel stops the action. Unpaced, nothing waits for the cursor. The actions
 * themselves go to the real desktop unchanged. The cursor is taken off the screen before every capture. Key and type actions are not shown (they go to the
 * focused element, whose place the cursor does not claim to know).
 *
 * <p>It is the desktop's {@link Showing}, and an {@link Around} of every call: it runs the before-first-action
 * hook before the first input ({@link Call.Kind#INPUT}), hides the cursor before a capture and learns the
 * elements' places from every tree read through it, whichever method read it.
 *
 * <p>Drawing never decides anything: any failure of the cursor is logged and swallowed, the action
 * runs exactly as it would without it, and its result or refusal is the real desktop's.
 */
public final class CursorDesktop implements Showing, Around {

    private static final Logger LOG = Logger.getLogger(CursorDesktop.class);
    private static final int MAX_REMEMBERED = 4000;

    private final Display real;
    private final DrawnCursor cursor;
    private final Runnable beforeFirstAction;
    private final AtomicBoolean acted = new AtomicBoolean();
    private final Map<String, Geometry> bounds = new ConcurrentHashMap<>();
    private final boolean paced;
    private volatile DrawnCursor.Arrival travelling = DrawnCursor.Arrival.NOW;

    /** {@code real} shown by a paced cursor: {@link #awaitShown()} waits for its arrival. */
    public static Desktop over(Desktop real, DrawnCursor cursor, Runnable beforeFirstAction) {
        return over(real, cursor, beforeFirstAction, true);
    }

    /**
     * {@code real} shown by the cursor: its showing is this, and every call goes through this first.
     *
     * @param beforeFirstAction run once, right before the first input action of this desktop (the voice
     *     line); its failures are swallowed like the cursor's
     * @param paced whether an action waits for the cursor to arrive ({@link #awaitShown()}); unpaced, the
     *     cursor is still drawn but never adds to a step (a desktop nobody watches, or pacing turned off)
     */
    public static Desktop over(Desktop real, DrawnCursor cursor, Runnable beforeFirstAction, boolean paced) {
        CursorDesktop shown = new CursorDesktop(real.display(), cursor, beforeFirstAction, paced);
        return real.shownBy(shown).around(shown);
    }

    /** @param real the display below, asked whether a window's elements have places on screen */
    private CursorDesktop(Display real, DrawnCursor cursor, Runnable beforeFirstAction, boolean paced) {
        this.real = Objects.requireNonNull(real, "real");
        this.cursor = Objects.requireNonNull(cursor, "cursor");
        this.beforeFirstAction = Objects.requireNonNull(beforeFirstAction, "beforeFirstAction");
        this.paced = paced;
    }

    @Override
    public void showElement(String uid, boolean press) {
        first();
        Geometry g = bounds.get(uid);
        if (g == null || g.width() <= 0 || g.height() <= 0) return;
        point(g.centerX(), g.centerY(), press);
    }

    private void point(int x, int y, boolean press) {
        try {
            DrawnCursor.Arrival a = cursor.moveTo(x, y, press);
            travelling = paced ? a : DrawnCursor.Arrival.NOW;
        } catch (RuntimeException e) {
            LOG.debugf("the drawn cursor failed: %s", e);
        }
    }

    /** Waits (within the cursor's bound) until the travel started by the last show has arrived, when paced. */
    @Override
    public void awaitShown() {
        DrawnCursor.Arrival a = travelling;
        travelling = DrawnCursor.Arrival.NOW;
        try {
            a.await();
        } catch (RuntimeException e) {
            LOG.debugf("the drawn cursor failed: %s", e);
        }
    }

    private void first() {
        if (acted.compareAndSet(false, true)) {
            try {
                beforeFirstAction.run();
            } catch (RuntimeException e) {
                LOG.debugf("the before-first-action hook failed: %s", e);
            }
        }
    }

    /**
     * Before an input: the before-first-action hook. Before a capture: the cursor off the screen. After a read
     * that answers a tree: the places of its elements, for the cursor to travel to.
     */
    @Override
    public <T> T call(Call which, Supplier<T> call) {
        if (which.kind() == Call.Kind.INPUT) first();
        if (which == Call.CAPTURE) hide();
        T answer = call.get();
        if (answer instanceof ScopedTree tree) remember(tree);
        return answer;
    }

    /** Remembers the bounds of the tree's elements (where the cursor travels to). */
    private void remember(ScopedTree tree) {
        if (bounds.size() > MAX_REMEMBERED) bounds.clear();
        // A native Wayland window's bounds are window-relative and its place on screen unknown: no cursor there.
        if (!real.syntheticInput(tree.windowId())) return;
        for (Node n : tree.nodes()) {
            if (n.bounds() != null) bounds.put(n.uid(), n.bounds());
        }
    }

    @Override
    public void showPoint(int x, int y, Basis basis) {
        first();
        if (basis != null && basis.scale() > 0) {
            Geometry g = basis.windowGeometry();
            point(g.x() + (int) Math.floor(x / basis.scale()), g.y() + (int) Math.floor(y / basis.scale()), true);
        }
    }

    private void hide() {
        try {
            cursor.hide();
        } catch (RuntimeException e) {
            LOG.debugf("the drawn cursor could not hide: %s", e);
        }
    }
}

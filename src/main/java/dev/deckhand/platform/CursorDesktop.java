package dev.deckhand.platform;

import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Landing;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * A {@link Desktop} that shows each action with a {@link DrawnCursor}: when the loop asks
 * ({@link #showElement}, {@link #showPoint}) the cursor travels to the element about to be acted on (its
 * bounds from the last scoped tree read through this desktop) or to the {@code click_at} point, and shows
 * a press for a click. The travel starts as soon as the loop knows the target and overlaps the checks
 * before the act; {@link #awaitShown()} waits for the arrival before the loop's last Stop and policy
 * check, so a Stop during the travel stops the action. Unpaced, nothing waits for the cursor. The actions
 * themselves go to the real desktop unchanged. The cursor is taken off the screen before every capture. Key and type actions are not shown (they go to the
 * focused element, whose place the cursor does not claim to know).
 *
 * <p>Drawing never decides anything: any failure of the cursor is logged and swallowed, the action
 * runs exactly as it would without it, and its result or refusal is the real desktop's.
 */
public final class CursorDesktop implements Desktop {

    private static final Logger LOG = Logger.getLogger(CursorDesktop.class);
    private static final int MAX_REMEMBERED = 4000;

    private final Desktop real;
    private final DrawnCursor cursor;
    private final Runnable beforeFirstAction;
    private final AtomicBoolean acted = new AtomicBoolean();
    private final Map<String, Geometry> bounds = new ConcurrentHashMap<>();
    private final boolean paced;
    private volatile DrawnCursor.Arrival travelling = DrawnCursor.Arrival.NOW;

    /** A paced cursor: {@link #awaitShown()} waits for its arrival. */
    public CursorDesktop(Desktop real, DrawnCursor cursor, Runnable beforeFirstAction) {
        this(real, cursor, beforeFirstAction, true);
    }

    /**
     * @param beforeFirstAction run once, right before the first input action of this desktop (the voice
     *     line); its failures are swallowed like the cursor's
     * @param paced whether an action waits for the cursor to arrive ({@link #awaitShown()}); unpaced, the
     *     cursor is still drawn but never adds to a step (a desktop nobody watches, or pacing turned off)
     */
    public CursorDesktop(Desktop real, DrawnCursor cursor, Runnable beforeFirstAction, boolean paced) {
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

    @Override
    public List<WindowInfo> windows() {
        return real.windows();
    }

    @Override
    public ScopedTree snapshot(long windowId, long grantRevision) {
        return remembered(windowId, real.snapshot(windowId, grantRevision));
    }

    @Override
    public ScopedTree latestSnapshot(long windowId, long grantRevision) {
        return remembered(windowId, real.latestSnapshot(windowId, grantRevision));
    }

    /** Remembers the bounds of the tree's elements (where the cursor travels to); the tree unchanged. */
    private ScopedTree remembered(long windowId, ScopedTree tree) {
        if (bounds.size() > MAX_REMEMBERED) bounds.clear();
        // A native Wayland window's bounds are window-relative and its place on screen unknown: no cursor there.
        if (!real.syntheticInput(windowId)) return tree;
        for (Node n : tree.nodes()) {
            if (n.bounds() != null) bounds.put(n.uid(), n.bounds());
        }
        return tree;
    }

    @Override
    public void click(String uid) {
        first();
        real.click(uid);
    }

    @Override
    public void setText(String uid, String text) {
        first();
        real.setText(uid, text);
    }

    @Override
    public void focus(String uid) {
        first();
        real.focus(uid);
    }

    @Override
    public void scroll(String uid, String direction, int amount) {
        first();
        real.scroll(uid, direction, amount);
    }

    @Override
    public void select(String uid, String option) {
        first();
        real.select(uid, option);
    }

    @Override
    public void key(long windowId, dev.deckhand.grant.Chord chord) {
        first();
        real.key(windowId, chord);
    }

    @Override
    public void type(long windowId, String text, dev.deckhand.loop.desktop.DeliveryGate gate) {
        first();
        real.type(windowId, text, gate);
    }

    @Override
    public void showPoint(int x, int y, Basis basis) {
        first();
        if (basis != null && basis.scale() > 0) {
            Geometry g = basis.windowGeometry();
            point(g.x() + (int) Math.floor(x / basis.scale()), g.y() + (int) Math.floor(y / basis.scale()), true);
        }
    }

    @Override
    public void clickAt(int x, int y, Basis basis) {
        first();
        real.clickAt(x, y, basis);
    }

    @Override
    public Capture capture(long windowId, long grantRevision, int longEdge) {
        try {
            cursor.hide();
        } catch (RuntimeException e) {
            LOG.debugf("the drawn cursor could not hide: %s", e);
        }
        return real.capture(windowId, grantRevision, longEdge);
    }

    @Override
    public boolean basisValid(Basis basis) {
        return real.basisValid(basis);
    }

    @Override
    public dev.deckhand.grant.Accelerators accelerators(long windowId) {
        return real.accelerators(windowId);
    }

    @Override
    public boolean syntheticInput(long windowId) {
        return real.syntheticInput(windowId);
    }

    @Override
    public DesktopFacts facts() {
        return real.facts();
    }

    @Override
    public DesktopFacts freshFacts() {
        return real.freshFacts();
    }

    @Override
    public long activeWindow() {
        return real.activeWindow();
    }

    @Override
    public boolean privateDesktop() {
        return real.privateDesktop();
    }

    @Override
    public void settle(Duration max) {
        real.settle(max);
    }

    @Override
    public void settle(Duration max, java.util.Set<Landing> landings) {
        real.settle(max, landings);
    }

    @Override
    public boolean starting(long windowId) {
        return real.starting(windowId);
    }

    @Override
    public boolean awaitRegistered(long windowId, Duration max) {
        return real.awaitRegistered(windowId, max);
    }
}

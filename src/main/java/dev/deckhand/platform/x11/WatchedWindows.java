package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link Windows#list()} kept current by X events, so that an unchanged desktop is answered without
 * reading every window again (~10 round trips per window).
 *
 * <p>A second X connection of its own (an {@link XConnection}, so no X error on it can end anything)
 * selects {@code PropertyChangeMask | StructureNotifyMask | SubstructureNotifyMask} on the root and
 * {@code PropertyChangeMask | StructureNotifyMask} on every listed client window and each of its
 * ancestors up to the root (the window manager's frame: a moved frame moves the client without an event
 * on the client itself). A window is selected when it first appears in a read; a {@code ReparentNotify}
 * selects every chain again.
 *
 * <p><b>Contract: an answer is what {@link Windows#list()} would answer at that moment.</b> Every answer
 * first does {@code XSync} on the watching connection: the server has then queued on it every event it
 * generated before the call, so every change made so far is in the queue. The queue is drained without
 * blocking; when any drained event can change the answer, or the kept list is not trusted, the list is read
 * again on the main connection ({@link Windows#list()}, unchanged) and that read is the answer. Every event
 * counts except those this class lists as ignorable (an allow-list): a {@code PropertyNotify} of a property
 * the list does not read (e.g. {@code _NET_WM_USER_TIME}, set on every key press) and a
 * {@code MappingNotify} (the keyboard map, which the list does not read). A read is kept only when every
 * window in it was watched before the read began and the selections raised no error; otherwise the next
 * answer reads again. When the watching connection cannot be opened, is lost, or anything unexpected
 * happens, every answer is a read (never a stale answer).
 *
 * <p>One thread at a time ({@link X11Display}'s lock).
 */
final class WatchedWindows implements AutoCloseable {

    private static final Xlib X = Xlib.X;

    /** Every property {@link Windows#list()} reads, on the root or on a window: a change of one counts. */
    static final List<String> READ_PROPERTIES = List.of(
            "_NET_CLIENT_LIST_STACKING",
            "_NET_CLIENT_LIST",
            "_NET_WM_NAME",
            "WM_NAME",
            "WM_CLASS",
            "_NET_WM_PID",
            "_NET_WM_STATE",
            "WM_TRANSIENT_FOR",
            "WM_STATE");

    private static final long ROOT_MASK =
            Xlib.PropertyChangeMask | Xlib.StructureNotifyMask | Xlib.SubstructureNotifyMask;
    private static final long WINDOW_MASK = Xlib.PropertyChangeMask | Xlib.StructureNotifyMask;
    private static final int DESTROY_NOTIFY = 17;
    private static final int REPARENT_NOTIFY = 21;
    /** {@code XDestroyWindowEvent.window} (the destroyed window; {@code event}@32 is the one selected on). */
    private static final int EV_DESTROYED_WINDOW = 40;

    private final Windows windows;
    /** The watching connection; null when not watching (every answer is a read). */
    private XConnection w;

    private final Set<Long> readAtoms = new HashSet<>();
    /** Listed client windows whose chain (the window and its ancestors) is selected. */
    private final Set<Long> watched = new HashSet<>();
    /** The list as last read, or null when the next answer must read. */
    private List<WindowInfo> kept;

    private long reads;

    private final Memory event = new Memory(Xlib.EV_SIZE);
    private final LongByReference rootRef = new LongByReference();
    private final LongByReference parentRef = new LongByReference();
    private final PointerByReference kidsRef = new PointerByReference();
    private final IntByReference countRef = new IntByReference();

    private WatchedWindows(Windows windows, XConnection w) {
        this.windows = windows;
        this.w = w;
    }

    /**
     * Watches the display named by {@code env.get("DISPLAY")} on a connection of its own; when that
     * connection cannot be opened or set up, the result reads every time.
     */
    static WatchedWindows open(Map<String, String> env, Windows windows) {
        XConnection w;
        try {
            w = XConnection.open(env);
        } catch (RefusedException | LinkageError cannot) {
            return new WatchedWindows(windows, null);
        }
        WatchedWindows watching = new WatchedWindows(windows, w);
        try {
            for (String p : READ_PROPERTIES) watching.readAtoms.add(X.XInternAtom(w.dpy, p, Xlib.False));
            int before = w.errors();
            X.XSelectInput(w.dpy, w.root, ROOT_MASK);
            w.sync();
            if (w.errors() != before) watching.stopWatching();
        } catch (RuntimeException unexpected) {
            watching.stopWatching();
        }
        return watching;
    }

    /** See {@link X11Display#windows()}: the kept list when no event since the last read can change it. */
    List<WindowInfo> list() {
        if (!changed()) return kept;
        List<WindowInfo> fresh = windows.list();
        reads++;
        kept = watch(fresh) ? fresh : null;
        return fresh;
    }

    /** See {@link X11Display#window(long)}: from the (kept) list when listed; an unlisted id is read now. */
    Optional<WindowInfo> window(long id) {
        return windows.window(list(), id);
    }

    /** How many times the list was really read (tests: an unchanged desktop answers without a read). */
    long reads() {
        return reads;
    }

    /** True while events are watched; false means every answer is a read. */
    boolean watching() {
        return w != null;
    }

    /**
     * Syncs the watching connection and drains its queue; true when the kept list may differ from a read
     * now (or there is none, or watching failed).
     */
    private boolean changed() {
        if (w == null) return true;
        try {
            w.sync();
            boolean counts = kept == null;
            while (X.XPending(w.dpy) > 0) {
                X.XNextEvent(w.dpy, event);
                int type = event.getInt(Xlib.EV_TYPE);
                if (type == REPARENT_NOTIFY) {
                    watched.clear(); // a new frame (or none): select every chain again
                } else if (type == DESTROY_NOTIFY) {
                    watched.remove(event.getLong(EV_DESTROYED_WINDOW)); // its XID may come back as a new window
                }
                if (!ignorable(type)) counts = true;
            }
            if (w.dead()) {
                stopWatching();
                return true;
            }
            return counts;
        } catch (RuntimeException lostOrUnexpected) {
            stopWatching();
            return true;
        }
    }

    /** The allow-list: events that cannot change the list. Everything else counts. */
    private boolean ignorable(int type) {
        if (type == Xlib.MappingNotify) return true;
        return type == Xlib.PropertyNotify && !readAtoms.contains(event.getLong(Xlib.EV_PROPERTY_ATOM));
    }

    /**
     * Selects the chains of the windows in {@code listed} not watched yet; true when {@code listed} may be
     * kept: every window in it was watched before it was read, and no selection failed.
     */
    private boolean watch(List<WindowInfo> listed) {
        if (w == null) return false;
        try {
            Set<Long> ids = new HashSet<>();
            for (WindowInfo info : listed) ids.add(info.id());
            watched.retainAll(ids); // one that left the list is selected again when it comes back
            int before = w.errors();
            boolean added = false;
            for (long id : ids) {
                if (watched.add(id)) {
                    added = true;
                    selectChain(id);
                }
            }
            w.sync();
            // A window selected only now may have changed between the read and its selection.
            return !added && w.errors() == before && !w.dead();
        } catch (RuntimeException lostOrUnexpected) {
            stopWatching();
            return false;
        }
    }

    /** Selects {@code window} and every ancestor below the root (the client first, so a reparent is seen). */
    private void selectChain(long window) {
        long cur = window;
        for (int depth = 0; depth < 64 && cur != w.root && cur != Xlib.None; depth++) {
            X.XSelectInput(w.dpy, cur, WINDOW_MASK);
            if (X.XQueryTree(w.dpy, cur, rootRef, parentRef, kidsRef, countRef) == 0) return; // vanished
            if (kidsRef.getValue() != null) X.XFree(kidsRef.getValue());
            cur = parentRef.getValue();
        }
    }

    private void stopWatching() {
        kept = null;
        watched.clear();
        if (w != null) {
            w.close();
            w = null;
        }
    }

    /** Closes the watching connection. Idempotent. */
    @Override
    public void close() {
        stopWatching();
    }
}

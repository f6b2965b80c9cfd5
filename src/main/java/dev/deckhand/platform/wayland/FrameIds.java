package dev.deckhand.platform.wayland;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Opaque numeric ids for Wayland frames, which have no window id of their own: one per (process, bus
 * name, object path), minted on first sight and never given to another frame, so a title change keeps
 * the id and a closed frame's id names nothing ever after. Ids start at {@link #FIRST}, above every X11
 * window id (29 bits), so one {@code windowId} field names either kind on a session with both.
 * Thread-safe.
 */
public final class FrameIds {

    /** The first id; every X window id is below it. */
    public static final long FIRST = 1L << 32;

    /** A frame's identity: its process and its route on the accessibility bus. */
    public record Key(int pid, String busName, String path) {
        public Key {
            Objects.requireNonNull(busName, "busName");
            Objects.requireNonNull(path, "path");
        }
    }

    private final Map<Key, Long> ids = new HashMap<>();
    private long next = FIRST;

    /** The frame's id, minted now when it has none. */
    public synchronized long idOf(Key key) {
        Objects.requireNonNull(key, "key");
        return ids.computeIfAbsent(key, k -> next++);
    }

    /** Whether {@code windowId} is in the range of frame ids (it may still name no frame). */
    public static boolean isFrameId(long windowId) {
        return windowId >= FIRST;
    }
}

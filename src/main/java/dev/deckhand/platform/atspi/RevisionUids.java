package dev.deckhand.platform.atspi;

import com.sun.jna.Pointer;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.platform.atspi.AtspiNative.Gobject;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;

/**
 * The elements that carry a uid in the current grant revision: each uid stands for one native object
 * and holds one {@code g_object_ref} on it; the same object keeps its uid across the revision's
 * snapshots. Moving to another revision, or closing, drops every uid and its reference. libatspi
 * thread only.
 */
final class RevisionUids {

    /**
     * One element a uid stands for: a referenced native object and what acting on it needs, with the words the last
     * walk read from it, which the consequential gate judged: its name, its description, and the text a control shows
     * through its Text interface ({@code shown}; "" where it shows its name, null where the walk does not read it).
     */
    record Bound(Pointer obj, int pid, String role, String name, String description, String shown) {

        /** The role and the name's length, as refusals name the element: never its name, which is the app's text. */
        String describe() {
            return role + " (name of " + (name == null ? 0 : name.length()) + " characters)";
        }
    }

    private final UidMint mint = new UidMint(new SecureRandom());
    private final Map<String, Bound> byUid = new HashMap<>();
    private final Map<Long, String> uidByPeer = new HashMap<>();
    private long revision = Long.MIN_VALUE;

    /** Makes {@code rev} current; when it differs, every uid of the previous revision is dropped (true). */
    boolean moveTo(long rev) {
        if (rev == revision) return false;
        release();
        revision = rev;
        return true;
    }

    /** Whether {@code obj} (by address: JNA pointers to one object are distinct Java objects) carries a uid. */
    boolean isBound(Pointer obj) {
        return uidByPeer.containsKey(Pointer.nativeValue(obj));
    }

    /**
     * The uid of {@code obj}: its existing one (with its words updated to what this walk read), or a new one, in which case
     * the table takes over the caller's reference to {@code obj}.
     */
    String bind(Pointer obj, int pid, String role, String name, String description, String shown) {
        String uid = uidByPeer.get(Pointer.nativeValue(obj));
        Bound now = new Bound(obj, pid, role, name, description, shown);
        if (uid == null) {
            uid = mint.mint(byUid::containsKey);
            byUid.put(uid, now);
            uidByPeer.put(Pointer.nativeValue(obj), uid);
        } else {
            Bound old = byUid.get(uid);
            if (!new Bound(old.obj(), pid, role, name, description, shown).equals(old)) {
                byUid.put(uid, new Bound(old.obj(), pid, role, name, description, shown));
            }
        }
        return uid;
    }

    /**
     * The element {@code uid} stands for.
     *
     * @throws RefusedException {@code OUT_OF_SCOPE} for a uid not from the current revision
     */
    Bound get(String uid) {
        Bound b = byUid.get(uid);
        if (b == null) {
            throw new RefusedException(Refusal.outOfScope("uid " + uid + " is not from revision "
                    + (revision == Long.MIN_VALUE ? "(none yet)" : String.valueOf(revision))));
        }
        return b;
    }

    /** The element {@code uid} stands for, or null. */
    Bound find(String uid) {
        return byUid.get(uid);
    }

    int size() {
        return byUid.size();
    }

    /** Drops every uid and its native reference. */
    void release() {
        for (Bound b : byUid.values()) Gobject.g_object_unref(b.obj());
        byUid.clear();
        uidByPeer.clear();
    }
}

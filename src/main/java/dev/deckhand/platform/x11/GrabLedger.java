package dev.deckhand.platform.x11;

import dev.deckhand.loop.desktop.GrabHolder;
import java.util.HashMap;
import java.util.Map;

/**
 * Who holds the keyboard grab, followed from the protocol the X server processed, in its order
 * ({@link GrabRecord} decodes it from the RECORD extension and hands it here; this class does no I/O). Every
 * keyboard grab a client asks for (core {@code GrabKeyboard}, XInput 2 {@code XIGrabDevice} of a master keyboard)
 * is noted with the client and window, and becomes the holder when the server's reply says it succeeded; an
 * ungrab or the client's end clears it. Deckhand's own probe ({@link KeyboardGrab}) is a grab request too: its
 * reply, in the same order, says whether anyone held the keyboard at that very point, so the answer for a probe is
 * the holder as the stream stood when the server answered it — not a guess about timing.
 *
 * <p>What cannot be seen is never attributed: a grab the probe finds while no recorded request explains it (a
 * passive key grab that a key press activated, a grab taken before recording began, a grab of a device not known
 * as a master keyboard) is {@link GrabHolder.Unknown}.
 *
 * <p>Deckhand's own actions are marked in the same order ({@link #marked}): a grab counts as opened by Deckhand's
 * action when it follows the beginning of an action, with no key or button press since then that was not inside
 * one of Deckhand's own actions (XTEST input happens inside them; the person's presses do not).
 *
 * <p>Not thread-safe: the owner calls it under its own lock.
 */
final class GrabLedger {

    /** Core {@code GrabKeyboard} reply status {@code GrabSuccess}; XIGrabDevice's status uses the same values. */
    static final int SUCCESS = 0;

    private record Pending(long window, boolean own, boolean knownKeyboard, boolean xi) {}

    private final long ownClient;
    private final Map<Long, Pending> pending = new HashMap<>();
    /** The measured holder (a {@link GrabHolder.Client} or {@link GrabHolder.Unknown}), or null: none seen. */
    private GrabHolder holder;

    private long probesAnswered;
    private GrabHolder atLastProbe = new GrabHolder.Unknown("no probe answered yet");
    private boolean grabbedAtLastProbe;
    private boolean actionBegun;
    private boolean actionOpen;
    private boolean pressedSinceAction;
    private long changes;
    private long grabsTaken;

    /** @param ownClient the resource base of Deckhand's probing connection: its grab requests are the probes */
    GrabLedger(long ownClient) {
        this.ownClient = ownClient;
    }

    private static long key(long client, long seq) {
        return client << 16 | (seq & 0xffff);
    }

    /**
     * A client asked for a keyboard grab on {@code window}. {@code knownKeyboard} is false for an XInput 2 grab of a
     * device not known (a success then holds a grab no one can attribute).
     */
    void grabRequested(long client, long seq, long window, boolean knownKeyboard, boolean xi) {
        pending.put(key(client, seq), new Pending(window, client == ownClient, knownKeyboard, xi));
    }

    /**
     * The server answered a request of {@code client}'s ({@code byte1} and {@code byte8} of the reply: a core
     * GrabKeyboard reply's status is its second byte, an XIGrabDevice reply's its ninth); only the answers to grab
     * requests count.
     */
    void replied(long client, long seq, int byte1, int byte8) {
        Pending p = pending.get(key(client, seq));
        if (p == null) return;
        answered(client, seq, p.xi() ? byte8 : byte1);
    }

    /** The server answered a grab request with an error (a window that was gone): no grab was taken. */
    void failed(long client, long seq) {
        Pending p = pending.remove(key(client, seq));
        if (p == null || !p.own()) return;
        probesAnswered++;
        grabbedAtLastProbe = false;
        atLastProbe = new GrabHolder.Unknown("the probe failed");
    }

    private void answered(long client, long seq, int status) {
        Pending p = pending.remove(key(client, seq));
        if (p.own()) {
            probesAnswered++;
            // our probe got the keyboard: nobody held it at this point (the probe releases it at once)
            if (status == SUCCESS) {
                if (holder != null) changes++;
                holder = null;
                grabbedAtLastProbe = false;
                atLastProbe = null;
            } else {
                grabbedAtLastProbe = true;
                atLastProbe = holder != null
                        ? holder
                        : new GrabHolder.Unknown(
                                "a grab no recorded request explains (a passive key grab, or one taken "
                                        + "before the measure began)");
            }
            return;
        }
        if (status != SUCCESS) return;
        grabsTaken++;
        holder = p.knownKeyboard()
                ? new GrabHolder.Client(client, p.window(), actionBegun && !pressedSinceAction)
                : new GrabHolder.Unknown("a grab of an input device not known as a keyboard");
        changes++;
    }

    /** {@code client} released its keyboard grab (core {@code UngrabKeyboard}, XIUngrabDevice of a master keyboard). */
    void ungrabbed(long client) {
        if (holder instanceof GrabHolder.Client c && c.client() == client) {
            holder = null;
            changes++;
        }
    }

    /** {@code client}'s connection closed: its grab ended with it. */
    void died(long client) {
        ungrabbed(client);
        pending.keySet().removeIf(k -> k >>> 16 == client);
    }

    /** A key or button press the server processed (a device event: the person's, or XTEST's). */
    void pressed() {
        if (!actionOpen) pressedSinceAction = true;
    }

    /** Deckhand's mark: one of its input actions begins ({@code true}) or ends. */
    void marked(boolean begins) {
        if (begins) {
            actionBegun = true;
            actionOpen = true;
            pressedSinceAction = false;
        } else {
            actionOpen = false;
        }
    }

    /** How many of Deckhand's probes were answered so far. */
    long probesAnswered() {
        return probesAnswered;
    }

    /** Whether the last answered probe found the keyboard grabbed. */
    boolean grabbedAtLastProbe() {
        return grabbedAtLastProbe;
    }

    /** Who held the grab when the last probe was answered; null when nobody did. */
    GrabHolder atLastProbe() {
        return atLastProbe;
    }

    /** How many keyboard grabs other clients than Deckhand's probe took so far. */
    long grabsTaken() {
        return grabsTaken;
    }

    /** Counts changes of the measured holder (tests). */
    long changes() {
        return changes;
    }
}

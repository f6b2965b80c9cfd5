package dev.deckhand.loop.desktop;

import java.util.Objects;

/**
 * Who holds the keyboard grab, where the platform can measure it (docs/security.md, "The granted app's own
 * menu"). Read together with {@link DesktopFacts#keyboardGrabbed()}: it says whose grab that is.
 */
public sealed interface GrabHolder permits GrabHolder.Client, GrabHolder.Unknown, GrabHolder.Unmeasured {

    /** The display cannot tell who holds a grab (X without RECORD): the popup rule decides. */
    GrabHolder UNMEASURED = new Unmeasured();

    /**
     * Measured: the X client that took the grab, seen in the server's own order of requests.
     *
     * @param client the client's resource base (the client bits of every XID it creates; {@link WindowInfo#client()})
     * @param window the grab window
     * @param afterOwnAction the grab was taken after an input action Deckhand delivered began, with no key or button
     *     press of the person's since that action began: Deckhand's own action opened it
     */
    record Client(long client, long window, boolean afterOwnAction) implements GrabHolder {}

    /**
     * Measurable, but not attributed: a grab whose request was not seen (a passive grab a key activated, one taken
     * before the measuring began, a device not known as a keyboard), or the measure did not catch up in time.
     * It counts as another client's.
     */
    record Unknown(String why) implements GrabHolder {
        public Unknown {
            Objects.requireNonNull(why, "why");
        }
    }

    /** See {@link #UNMEASURED}. */
    record Unmeasured() implements GrabHolder {}
}

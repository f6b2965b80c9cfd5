package dev.deckhand.loop.action;

/** An action aimed at one element of the scoped tree by its uid. */
public interface ElementAction {

    /** The element's uid, minted for one grant revision. */
    String uid();

    /** The same action aimed at another element. */
    Action withUid(String uid);
}

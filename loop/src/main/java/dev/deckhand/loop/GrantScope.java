package dev.deckhand.loop;

import dev.deckhand.grant.CaptureMode;

/** The granted target, read from the grant when asked (its revision may change during a run). */
public interface GrantScope {

    long windowId();

    /** The grant's current revision; uids are minted for it. */
    long revision();

    CaptureMode captureMode();
}

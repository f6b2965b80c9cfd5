package dev.deckhand.loop.desktop;

/** A window's pixels and the basis they were captured on. A part of the {@link Desktop} port. */
public interface Captures {

    /** Scope-cropped window pixels, downscaled to {@code longEdge}, with their basis. */
    Capture capture(long windowId, long grantRevision, int longEdge);

    /** Re-measure: does {@code basis} still hold on screen? */
    boolean basisValid(Basis basis);
}

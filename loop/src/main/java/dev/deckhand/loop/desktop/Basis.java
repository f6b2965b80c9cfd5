package dev.deckhand.loop.desktop;

import java.util.Objects;

/**
 * What a capture was taken against. Coordinate input is allowed only while the same basis still
 * holds on screen; any difference is {@code BASIS_STALE}.
 *
 * @param scale captured pixels per screen pixel (≤ 1 when downscaled)
 */
public record Basis(long grantRevision, long windowId, Geometry windowGeometry, double scale) {

    public Basis {
        Objects.requireNonNull(windowGeometry, "windowGeometry");
        if (!(scale > 0 && scale <= 1)) throw new IllegalArgumentException("scale must be in (0, 1], was " + scale);
    }
}

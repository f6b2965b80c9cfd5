package dev.deckhand.grant;

/**
 * What a capture was taken against, or what the driver re-measured right before coordinate input
 * (mirrors {@code dev.deckhand.loop.desktop.Basis}, which this module cannot see).
 *
 * @param scale captured pixels per screen pixel, in (0, 1]
 */
public record BasisInfo(long grantRevision, long windowId, int x, int y, int width, int height, double scale) {

    public BasisInfo {
        if (width < 0) {
            throw new IllegalArgumentException("basis.width must be >= 0, was " + width);
        }
        if (height < 0) {
            throw new IllegalArgumentException("basis.height must be >= 0, was " + height);
        }
        if (!(scale > 0 && scale <= 1)) {
            throw new IllegalArgumentException("basis.scale must be in (0, 1], was " + scale);
        }
    }

    /**
     * The first field in which {@code measured} differs from this basis, as a phrase naming it, or
     * null when they are the same.
     */
    String firstDifference(BasisInfo measured) {
        if (grantRevision != measured.grantRevision) {
            return "grant revision " + grantRevision + " → " + measured.grantRevision;
        }
        if (windowId != measured.windowId) {
            return "window " + windowId + " → " + measured.windowId;
        }
        if (x != measured.x || y != measured.y || width != measured.width || height != measured.height) {
            return "window geometry " + width + "x" + height + "+" + x + "+" + y + " → " + measured.width + "x"
                    + measured.height + "+" + measured.x + "+" + measured.y;
        }
        if (Double.compare(scale, measured.scale) != 0) {
            return "scale " + scale + " → " + measured.scale;
        }
        return null;
    }
}

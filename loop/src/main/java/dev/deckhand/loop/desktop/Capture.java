package dev.deckhand.loop.desktop;

import java.util.Objects;

/** Scope-cropped, downscaled window pixels, encoded, with the basis they were taken against. */
public record Capture(byte[] image, String mediaType, int width, int height, Basis basis) {

    public Capture {
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(mediaType, "mediaType");
        Objects.requireNonNull(basis, "basis");
    }
}

package dev.deckhand.loop.route;

/** The grant's capture mode, as the loop sees it: {@code a11y_only} captures no pixels at all. */
public enum CaptureMode {
    A11Y_ONLY, PIXELS;

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

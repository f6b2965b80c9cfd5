package dev.deckhand.grant;

/** {@code a11y_only} captures no pixels at all; {@code pixels} allows scope-cropped captures. */
public enum CaptureMode implements Wire.Named {
    A11Y_ONLY("a11y_only"),
    PIXELS("pixels");

    private final String wire;

    CaptureMode(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** @throws IllegalArgumentException naming the field {@code capture} */
    public static CaptureMode fromWire(String value) {
        return Wire.parse(CaptureMode.class, "capture", value);
    }
}

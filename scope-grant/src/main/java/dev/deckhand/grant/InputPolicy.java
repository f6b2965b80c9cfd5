package dev.deckhand.grant;

/**
 * Whether each input batch needs the person's approval ({@code confirm_each}, the default) or runs
 * unattended ({@code autonomous}, only in permission modes {@code accept-edits} and {@code auto}).
 */
public enum InputPolicy implements Wire.Named {
    CONFIRM_EACH("confirm_each"),
    AUTONOMOUS("autonomous");

    private final String wire;

    InputPolicy(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** @throws IllegalArgumentException naming the field {@code inputPolicy} */
    public static InputPolicy fromWire(String value) {
        return Wire.parse(InputPolicy.class, "inputPolicy", value);
    }
}

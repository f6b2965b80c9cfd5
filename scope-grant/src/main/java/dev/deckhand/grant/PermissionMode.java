package dev.deckhand.grant;

/**
 * The server's permission mode (policy file, top-level {@code permissionMode}): {@code ask} (default)
 * | {@code accept-edits} | {@code auto}. It decides which input policies a grant may carry.
 */
public enum PermissionMode implements Wire.Named {
    ASK("ask"),
    ACCEPT_EDITS("accept-edits"),
    AUTO("auto");

    private final String wire;

    PermissionMode(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** {@code autonomous} only in {@code accept-edits} and {@code auto}; {@code confirm_each} always. */
    public boolean allows(InputPolicy policy) {
        return policy == InputPolicy.CONFIRM_EACH || this != ASK;
    }

    /** @throws IllegalArgumentException naming the field {@code permissionMode} */
    public static PermissionMode fromWire(String value) {
        return Wire.parse(PermissionMode.class, "permissionMode", value);
    }
}

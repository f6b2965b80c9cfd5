package dev.deckhand.grant;

/** What a grant covers: one window, or all windows of one application. Wire names {@code window | app}. */
public enum ScopeKind implements Wire.Named {
    WINDOW("window"),
    APP("app");

    private final String wire;

    ScopeKind(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** @throws IllegalArgumentException naming the field {@code scope} */
    public static ScopeKind fromWire(String value) {
        return Wire.parse(ScopeKind.class, "scope", value);
    }
}

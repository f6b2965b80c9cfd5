package dev.deckhand.audit;

/** The action vocabulary of docs/contract.md#actions; {@link #wire()} is the stored value. */
public enum ActionKind {
    CLICK("click"),
    SET_TEXT("set_text"),
    TYPE("type"),
    KEY("key"),
    FOCUS("focus"),
    SCROLL("scroll"),
    SELECT("select"),
    CLICK_AT("click_at"),
    WAIT("wait"),
    DONE("done"),
    FAIL("fail");

    private final String wire;

    ActionKind(String wire) {
        this.wire = wire;
    }

    /** The wire name, e.g. {@code set_text}. */
    public String wire() {
        return wire;
    }

    /** True for the actions that carry typed text ({@code set_text}, {@code type}). */
    public boolean carriesText() {
        return this == SET_TEXT || this == TYPE;
    }

    /** Parses a wire name. */
    public static ActionKind fromWire(String wire) {
        for (ActionKind k : values()) {
            if (k.wire.equals(wire)) {
                return k;
            }
        }
        throw new IllegalArgumentException("actionKind is not a known action: " + wire);
    }
}

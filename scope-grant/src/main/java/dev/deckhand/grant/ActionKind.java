package dev.deckhand.grant;

/** The action kinds of docs/contract.md#actions, by wire name. All but {@code wait}, {@code done}, {@code fail} give input. */
public enum ActionKind implements Wire.Named {
    CLICK("click", true),
    SET_TEXT("set_text", true),
    TYPE("type", true),
    KEY("key", true),
    FOCUS("focus", true),
    SCROLL("scroll", true),
    SELECT("select", true),
    CLICK_AT("click_at", true),
    WAIT("wait", false),
    DONE("done", false),
    FAIL("fail", false);

    private final String wire;
    private final boolean input;

    ActionKind(String wire, boolean input) {
        this.wire = wire;
        this.input = input;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** Whether this kind delivers input to the desktop (and so spends budget and meets the input refusals). */
    public boolean input() {
        return input;
    }

    /** @throws IllegalArgumentException naming the field {@code action} */
    public static ActionKind fromWire(String value) {
        return Wire.parse(ActionKind.class, "action", value);
    }
}

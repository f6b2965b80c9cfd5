package dev.deckhand.loop.desktop;

/**
 * One method of the {@link Desktop} port, as an {@link Around} sees it: the part that declares it and the kind
 * of thing it does. One constant per method; a new method of a part gets its constant here, with its kind, and
 * one forwarding line in {@link Desktop#around} (DesktopPortTest checks that every method goes through as its own
 * constant).
 */
public enum Call {
    WINDOWS(Display.class, Kind.READ),
    ACTIVE_WINDOW(Display.class, Kind.FACT),
    PRIVATE_DESKTOP(Display.class, Kind.QUERY),
    SYNTHETIC_INPUT(Display.class, Kind.QUERY),
    KEYBOARD_CHANGES(Display.class, Kind.FACT),
    CLOSE_OWN_MENUS(Display.class, Kind.INPUT),

    SNAPSHOT(Trees.class, Kind.READ),
    LATEST_SNAPSHOT(Trees.class, Kind.READ),
    ACCELERATORS(Trees.class, Kind.QUERY),
    STARTING(Trees.class, Kind.READ),
    AWAIT_REGISTERED(Trees.class, Kind.READ),
    SETTLE(Trees.class, Kind.SETTLE),
    SETTLE_ON_LANDINGS(Trees.class, Kind.SETTLE),

    CLICK(Input.class, Kind.INPUT),
    SET_TEXT(Input.class, Kind.INPUT),
    FOCUS(Input.class, Kind.INPUT),
    SCROLL(Input.class, Kind.INPUT),
    SELECT(Input.class, Kind.INPUT),
    KEY(Input.class, Kind.INPUT),
    TYPE(Input.class, Kind.INPUT),
    CLICK_AT(Input.class, Kind.INPUT),

    CAPTURE(Captures.class, Kind.READ),
    BASIS_VALID(Captures.class, Kind.READ),

    CURRENT_FACTS(Facts.class, Kind.FACT),
    FRESH_FACTS(Facts.class, Kind.FACT),

    SHOW_ELEMENT(Showing.class, Kind.SHOW),
    SHOW_POINT(Showing.class, Kind.SHOW),
    AWAIT_SHOWN(Showing.class, Kind.SHOW);

    /** What a call does, which is what the decorators around the port tell apart. */
    public enum Kind {
        /** Reads the desktop: windows, a tree, pixels, a basis, an app's registration (step timing: observe). */
        READ,
        /** Reads a fact the policy judges by (step timing: facts). */
        FACT,
        /**
         * Asks what a route or the policy needs in passing (menu accelerators, the display's kind); counted in the
         * phase of whoever asks.
         */
        QUERY,
        /** Gives input to the app (step timing: act; the drawn cursor's first input). */
        INPUT,
        /** Shows the person where the next action lands (step timing: cursor). */
        SHOW,
        /** Waits for the app's events to land or go quiet (step timing: settle). */
        SETTLE
    }

    private final Class<?> part;
    private final Kind kind;

    Call(Class<?> part, Kind kind) {
        this.part = part;
        this.kind = kind;
    }

    /** The part of the port that declares the method. */
    public Class<?> part() {
        return part;
    }

    public Kind kind() {
        return kind;
    }
}

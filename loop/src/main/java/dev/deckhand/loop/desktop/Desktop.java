package dev.deckhand.loop.desktop;

import java.util.Objects;

/**
 * The narrow port to the desktop, in parts by concern: the display and its windows ({@link Display}), the
 * accessibility trees ({@link Trees}), input ({@link Input}), pixels ({@link Captures}), the policy's facts
 * ({@link Facts}) and showing the person where the next action lands ({@link Showing}). Implementations live in
 * the application's platform package (the only code that touches native libraries). Every method either does
 * what it says or throws {@link dev.deckhand.grant.RefusedException} with its code ({@code HEADLESS},
 * {@code A11Y_UNAVAILABLE}, {@code BASIS_STALE}, {@code POINTER_WARP_REFUSED},
 * {@code WAYLAND_INPUT_UNSUPPORTED}, {@code PLATFORM_UNSUPPORTED}, {@code SECURE_INPUT}, ...); none is ever a
 * silent no-op reported as success.
 *
 * <p>No part has a default method, so an implementation or a decorator that leaves a method out does not
 * compile (DesktopPortTest). A decorator of every call is an {@link Around} ({@link #around}); one that changes
 * what some calls do (screening, routing) implements the parts it changes and takes the others as they are.
 * How to add a method: docs/architecture.md#the-desktop-port.
 */
public record Desktop(Display display, Trees trees, Input input, Captures captures, Facts facts, Showing showing) {

    public Desktop {
        Objects.requireNonNull(display, "display");
        Objects.requireNonNull(trees, "trees");
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(captures, "captures");
        Objects.requireNonNull(facts, "facts");
        Objects.requireNonNull(showing, "showing");
    }

    /** This desktop, shown by {@code showing} instead of its own. */
    public Desktop shownBy(Showing showing) {
        return new Desktop(display, trees, input, captures, facts, showing);
    }

    /** This desktop with every call of every part going through {@code around} first. */
    public Desktop around(Around around) {
        Hooked h = new Hooked(this, Objects.requireNonNull(around, "around"));
        return new Desktop(h, h, h, h, h, h);
    }
}

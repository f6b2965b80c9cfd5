package dev.deckhand.loop.desktop;

import java.util.Objects;
import java.util.function.Supplier;

/** The facts the policy judges by ({@link DesktopFacts}). A part of the {@link Desktop} port. */
public interface Facts {

    /**
     * The facts the policy needs, current: read now, or kept from an earlier read while no event says they
     * changed (an implementation that keeps them says how long a fact no event announces may be kept).
     */
    DesktopFacts current();

    /**
     * {@link #current()} with those behind the absolute refusals read now: the focused element and whether it
     * is a password field, another client's keyboard grab, the window list (Deckhand's own windows) and the X
     * focus, popups and screen lock. The guard's last check before a native call and its check before a
     * capture read these; a decorator never serves kept facts for them.
     */
    DesktopFacts fresh();

    /** The facts {@code current} and {@code fresh} read (a driver whose facts are methods of its own). */
    static Facts of(Supplier<DesktopFacts> current, Supplier<DesktopFacts> fresh) {
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(fresh, "fresh");
        return new Facts() {
            @Override
            public DesktopFacts current() {
                return current.get();
            }

            @Override
            public DesktopFacts fresh() {
                return fresh.get();
            }
        };
    }
}

package dev.deckhand.loop;

import dev.deckhand.grant.Policy;
import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.json.WireFormatException;
import java.util.Locale;
import java.util.Optional;

/** The {@code computer} tool's {@code mode} argument (docs/contract.md#input): only {@code default} runs. */
public enum Mode {
    DEFAULT,
    PLAN,
    GOAL;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Reads the argument strictly: one of the three names in lower case (null is not a mode). */
    public static Mode read(Object value) {
        for (Mode m : values()) if (m.wire().equals(value)) return m;
        throw new WireFormatException("mode must be default, plan or goal");
    }

    /** {@code MODE_DENIED} for {@code plan} and {@code goal} ({@link Policy#checkCallMode}, one text), else empty. */
    public Optional<Refusal> refusal() {
        return Policy.checkCallMode(wire());
    }
}

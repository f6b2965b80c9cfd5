package dev.deckhand.loop.desktop;

import dev.deckhand.grant.Refusal;
import java.util.Optional;

/**
 * The last check before each native call of a delivery (docs/design.md#the-run-loop): Stop, the grant, and the
 * facts read fresh (focus still on the same window and element, no password field, no grab, the deny
 * lists). A driver that delivers in several native calls (typing in chunks) asks it before each one and
 * stops at the first refusal, throwing it as {@link dev.deckhand.grant.RefusedException}.
 */
@FunctionalInterface
public interface DeliveryGate {

    /** Lets everything through (tests of the driver alone). */
    DeliveryGate OPEN = () -> Optional.empty();

    /** Empty: go on; otherwise the refusal that stops delivery here. */
    Optional<Refusal> check();

    /** @throws dev.deckhand.grant.RefusedException the refusal, when the gate gives one */
    default void require() {
        Optional<Refusal> r = check();
        if (r.isPresent()) throw new dev.deckhand.grant.RefusedException(r.get());
    }
}

package dev.deckhand.grant;

import java.util.Objects;

/**
 * The capability to mint and revise grants: the owner path's proof. Only {@link GrantBroker#create}
 * makes one (the constructor is package-private), exactly one per broker, handed to whoever creates
 * the broker. The app creates the broker once at start-up in its owner wiring, keeps the pass only in
 * the owner-authenticated REST resources (owner token + CSRF), and gives the MCP side the bare
 * {@link GrantBroker}: with no pass, an MCP session can never mint or widen a grant. A pass from
 * another broker is rejected.
 */
public final class OwnerPass {

    private final GrantBroker broker;

    OwnerPass(GrantBroker broker) {
        this.broker = Objects.requireNonNull(broker, "broker");
    }

    boolean belongsTo(GrantBroker b) {
        return broker == b;
    }

    @Override
    public String toString() {
        return "OwnerPass";
    }
}

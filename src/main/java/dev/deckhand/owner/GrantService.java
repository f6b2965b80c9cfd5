package dev.deckhand.owner;

import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.OwnerPass;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;

/**
 * The one grant broker and approval book of this server. Only the owner resources of this package
 * hold the {@link OwnerPass}; the MCP side sees {@link #broker()} alone and can therefore never mint.
 */
@ApplicationScoped
public class GrantService {

    private final Clock clock;
    private final GrantBroker broker;
    private final OwnerPass pass;
    private final ApprovalBook approvals;

    public GrantService() {
        this(Clock.systemUTC());
    }

    GrantService(Clock clock) {
        this.clock = clock;
        GrantBroker.Owned owned = GrantBroker.create(clock);
        this.broker = owned.broker();
        this.pass = owned.ownerPass();
        this.approvals = new ApprovalBook(clock);
        broker.onEnd(ended -> ended.grant().ifPresent(g -> approvals.cancelForGrant(g.id())));
    }

    public GrantBroker broker() {
        return broker;
    }

    public ApprovalBook approvals() {
        return approvals;
    }

    public Clock clock() {
        return clock;
    }

    OwnerPass ownerPass() {
        return pass;
    }
}

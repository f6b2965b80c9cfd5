package dev.deckhand.owner;

import dev.deckhand.audit.AuditLog;
import dev.deckhand.audit.GrantEvent;
import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.OwnerPass;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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

    private final AuditLog audit;

    @Inject
    public GrantService(AuditLog audit, dev.deckhand.app.DeckhandConfig config) {
        this(Clock.systemUTC(), audit, java.time.Duration.ofSeconds(config.approvalTtlSeconds()));
    }

    GrantService(Clock clock, AuditLog audit, java.time.Duration approvalTtl) {
        this.audit = audit;
        this.clock = clock;
        GrantBroker.Owned owned = GrantBroker.create(clock);
        this.broker = owned.broker();
        this.pass = owned.ownerPass();
        this.approvals = new ApprovalBook(clock, approvalTtl);
        broker.onEnd(ended -> ended.grant().ifPresent(g -> {
            approvals.cancelForGrant(g.id());
            GrantEvent.Kind kind = switch (ended.why().code()) {
                case GRANT_EXPIRED -> GrantEvent.Kind.EXPIRE;
                case STOPPED -> GrantEvent.Kind.STOP;
                default -> GrantEvent.Kind.REVOKE;
            };
            record(kind, g);
        }));
    }

    /** Appends a grant event to the audit log (target window and app, never content). */
    public void record(GrantEvent.Kind kind, Grant g) {
        audit.append(new GrantEvent(kind, g.id(), g.revision(), Long.toString(g.target().windowId()), g.target().app()));
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

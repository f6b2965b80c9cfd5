package dev.deckhand.owner;

import dev.deckhand.audit.AuditLog;
import dev.deckhand.audit.GrantEvent;
import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.GrantTarget;
import dev.deckhand.grant.MintRequest;
import dev.deckhand.grant.OwnerPass;
import dev.deckhand.grant.Policy;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.guard.FactsMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.function.Function;

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
    public GrantService(AuditLog audit, dev.deckhand.home.DeckhandConfig config, Clock clock) {
        // unset: a card is bounded by its run's wall clock (GrantGuard.cardsUntil), the day is only a backstop
        this(
                clock,
                audit,
                config.approvalTtlSeconds().isPresent()
                        ? java.time.Duration.ofSeconds(
                                config.approvalTtlSeconds().getAsInt())
                        : java.time.Duration.ofDays(1));
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
            GrantEvent.Kind kind =
                    switch (ended.why().code()) {
                        case GRANT_EXPIRED -> GrantEvent.Kind.EXPIRE;
                        case STOPPED -> GrantEvent.Kind.STOP;
                        default -> GrantEvent.Kind.REVOKE;
                    };
            record(kind, g);
        }));
    }

    /** Appends a grant event to the audit log (target window and app, the grant's settings; never content). */
    public void record(GrantEvent.Kind kind, Grant g) {
        audit.append(new GrantEvent(
                kind,
                g.id(),
                g.revision(),
                Long.toString(g.target().windowId()),
                g.target().app(),
                settings(g)));
    }

    /** The grant's settings as the person chose them, in one line for the audit log. */
    static String settings(Grant g) {
        return "scope " + g.scope().wire() + "; input " + g.inputPolicy().wire() + "; capture "
                + g.capture().wire()
                + (g.blindInput() ? "; blind input" : "") + "; budget " + g.budgetRemaining() + "; idle "
                + g.idleExpiry().toSeconds() + " s"
                + (g.consequential().isEmpty() ? "" : "; named " + String.join(", ", g.consequential()));
    }

    /**
     * Mints a grant the person asked for (the web page, the owner API, the CLI): refuses a window the
     * target picker would refuse ({@link Policy#grantable} on the same facts), then builds the request
     * for the window's target, mints it with the owner pass and audits the mint.
     *
     * @throws RefusedException the refusal the window gets ({@code OWN_WINDOW}, {@code DENY_*}, ...)
     */
    Grant mintFor(
            WindowInfo window, DesktopFacts facts, PolicyConfig config, Function<GrantTarget, MintRequest> request) {
        Policy.grantable(config, FactsMapper.facts(facts, window.id()), window.id())
                .ifPresent(r -> {
                    throw new RefusedException(r);
                });
        Grant grant = broker.mint(
                pass,
                request.apply(new GrantTarget(
                        window.id(), window.app(), window.title(), window.pid(), window.processStart())),
                config.permissionMode());
        record(GrantEvent.Kind.MINT, grant);
        return grant;
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

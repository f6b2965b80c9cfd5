package dev.deckhand.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Counts requests that reached an owner API resource method (every JAX-RS resource: {@code /api/…} and
 * {@code /signin}), after {@link HttpGuard} let them through and the router matched them — so tests can
 * prove that a request refused at the HTTP boundary ran no owner action, as
 * {@link dev.deckhand.mcp.ToolCallLedger} does for tool calls.
 */
@ApplicationScoped
public class OwnerActionLedger {

    private final AtomicLong actions = new AtomicLong();

    /** A post-matching filter: runs only for a request the router matched to a resource method. */
    @ServerRequestFilter
    public void record(ContainerRequestContext request) {
        actions.incrementAndGet();
    }

    /** How many requests reached a resource method since start. */
    public long actions() {
        return actions.get();
    }
}

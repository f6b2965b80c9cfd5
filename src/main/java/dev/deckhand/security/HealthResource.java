package dev.deckhand.security;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * The liveness probe: {@code GET /health} answers the same constant to anyone who passes the Host/Origin
 * check — no token, and nothing about the person, the grants or the configuration. It is in
 * {@link HttpGuard#PUBLIC_PATHS} by name (GET and HEAD only); the container image's health check and a
 * Kubernetes probe call it (docs/fleet.md).
 */
@Path(HealthResource.PATH)
public class HealthResource {

    static final String PATH = "/health";

    /** The one answer. */
    static final String UP = "{\"status\":\"up\"}";

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String health() {
        return UP;
    }
}

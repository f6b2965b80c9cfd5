package dev.deckhand.security;

import dev.deckhand.app.ServerAddress;
import jakarta.inject.Inject;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * {@code GET /api/session} gives the signed-in page its CSRF token; {@code POST /api/session/link}
 * (owner token) mints a fresh one-time sign-in link.
 */
@Path("/api/session")
public class SessionResource {

    @Inject
    OwnerSessions sessions;

    @Inject
    ServerAddress address;

    @GET
        @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> session(@CookieParam(OwnerSessions.COOKIE) String id) {
        return sessions.session(id)
                .<Map<String, Object>>map(s -> Map.of("signedIn", true, "csrf", s.csrf()))
                .orElse(Map.of("signedIn", false));
    }

    @POST
    @Path("link")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> link() {
        return Map.of("link", address.baseUrl() + "/signin?code=" + sessions.issueCode());
    }
}

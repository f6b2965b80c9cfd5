package dev.deckhand.security;

import dev.deckhand.home.ServerAddress;
import jakarta.inject.Inject;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * {@code GET /api/session} gives the signed-in page its CSRF token; {@code POST /api/session/link}
 * (owner token) mints a fresh one-time sign-in link ({@code deckhand signin} asks for it);
 * {@code POST /api/session/logout} ends the browser's session and clears its cookie.
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
                .<Map<String, Object>>map(s -> Map.of(
                        "signedIn",
                        true,
                        "csrf",
                        s.csrf(),
                        "expiresAt",
                        s.expires().toString()))
                .orElse(Map.of("signedIn", false));
    }

    @POST
    @Path("link")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> link() {
        return Map.of("link", address.baseUrl() + "/signin?code=" + sessions.issueCode());
    }

    @POST
    @Path("logout")
    public Response logout(@CookieParam(OwnerSessions.COOKIE) String id) {
        sessions.end(id);
        return Response.noContent().cookie(cookie("", 0)).build();
    }

    /** The session cookie: HttpOnly, SameSite=Strict, for the whole origin, {@code maxAge} seconds. */
    static NewCookie cookie(String value, int maxAge) {
        return new NewCookie.Builder(OwnerSessions.COOKIE)
                .value(value)
                .path("/")
                .maxAge(maxAge)
                .httpOnly(true)
                .sameSite(NewCookie.SameSite.STRICT)
                .build();
    }
}

package dev.deckhand.security;

import dev.deckhand.app.ServerAddress;
import jakarta.inject.Inject;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Map;

/**
 * The person's browser sign-in: {@code GET /signin?code=…} exchanges a one-time code for a session
 * cookie (HttpOnly, SameSite=Strict) and goes to the page; {@code GET /api/session} gives the page
 * its CSRF token; {@code POST /api/session/link} (owner token) mints a fresh sign-in link.
 */
@Path("/")
public class SignInResource {

    @Inject
    OwnerSessions sessions;

    @Inject
    ServerAddress address;

    @GET
    @Path("signin")
    public Response signIn(@QueryParam("code") String code) {
        return sessions.redeem(code)
                .map(s -> Response.seeOther(URI.create("/"))
                        .cookie(new NewCookie.Builder(OwnerSessions.COOKIE).value(s.id()).path("/")
                                .httpOnly(true).sameSite(NewCookie.SameSite.STRICT).build())
                        .header("Cache-Control", "no-store")
                        .build())
                .orElseGet(() -> Response.status(Response.Status.UNAUTHORIZED).type(MediaType.TEXT_PLAIN)
                        .entity("This sign-in link was used already or has expired. Deckhand prints a new one at start; "
                                + "with the owner token, POST /api/session/link mints another.")
                        .build());
    }

    @GET
    @Path("api/session")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> session(@CookieParam(OwnerSessions.COOKIE) String id) {
        return sessions.session(id)
                .<Map<String, Object>>map(s -> Map.of("signedIn", true, "csrf", s.csrf()))
                .orElse(Map.of("signedIn", false));
    }

    @POST
    @Path("api/session/link")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> link() {
        return Map.of("link", address.baseUrl() + "/signin?code=" + sessions.issueCode());
    }
}

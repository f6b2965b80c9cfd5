package dev.deckhand.security;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/**
 * The person's browser sign-in: {@code GET /signin?code=…} exchanges a one-time code for a session
 * cookie (HttpOnly, SameSite=Strict) and goes to the page ({@link SessionResource} gives it the CSRF token).
 */
@Path("/signin")
public class SignInResource {

    @Inject
    OwnerSessions sessions;

    @GET
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
}

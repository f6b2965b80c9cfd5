package dev.deckhand.security;

import jakarta.inject.Inject;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/**
 * The person's browser sign-in: {@code GET /signin?code=…} exchanges a one-time code for a new session
 * cookie (HttpOnly, SameSite=Strict, at most {@link OwnerSessions#SESSION_LIFETIME}) and goes to the page
 * ({@link SessionResource} gives it the CSRF token). A successful sign-in ends the session the browser had.
 */
@Path("/signin")
public class SignInResource {

    @Inject
    OwnerSessions sessions;

    @GET
    public Response signIn(@QueryParam("code") String code, @CookieParam(OwnerSessions.COOKIE) String previous) {
        return sessions.redeem(code, previous)
                .map(s -> Response.seeOther(URI.create("/"))
                        .cookie(SessionResource.cookie(s.id(), (int) OwnerSessions.SESSION_LIFETIME.toSeconds()))
                        .header("Cache-Control", "no-store")
                        .build())
                .orElseGet(() -> Response.status(Response.Status.UNAUTHORIZED)
                        .type(MediaType.TEXT_PLAIN)
                        .entity("This sign-in link was used already or has expired. Run 'deckhand signin' in your "
                                + "terminal for a new one (it asks the running server with the owner token).")
                        .header("Cache-Control", "no-store")
                        .build());
    }
}

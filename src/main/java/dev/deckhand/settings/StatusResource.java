package dev.deckhand.settings;

import dev.deckhand.home.DeckhandHome;
import dev.deckhand.home.ServerAddress;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/status}: what this server is and where its endpoints are (owner token). */
@Path("/api/status")
public class StatusResource {

    @Inject
    ServerAddress address;

    @Inject
    DeckhandHome home;

    public record Status(String name, String mcpEndpoint, String page, String configDirectory) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Status status() {
        return new Status(
                "deckhand", address.mcpUrl(), address.pageUrl(), home.dir().toString());
    }
}

package dev.deckhand.eval;

import dev.deckhand.home.DeckhandHome;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code GET /api/eval/reports} (owner API): the reports {@code deckhand eval} kept under
 * {@code $DECKHAND_HOME/eval/}, newest first, for the page's Evaluations view. A report holds task ids,
 * outcomes and figures only: no typed text, no pixels, no key.
 */
@Path("/api/eval")
@Produces(MediaType.APPLICATION_JSON)
public class EvalResource {

    @Inject
    DeckhandHome home;

    @GET
    @Path("reports")
    public List<ReportStore.Stored> reports() {
        return ReportStore.list(home.dir());
    }
}

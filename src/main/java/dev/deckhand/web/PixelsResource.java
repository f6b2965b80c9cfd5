package dev.deckhand.web;

import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.Policy;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.guard.FactsMapper;
import dev.deckhand.owner.GrantService;
import dev.deckhand.platform.Desktops;
import dev.deckhand.policy.PolicyStore;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Pixels for the person's own eyes, rendered by Deckhand on request and never stored, audited or
 * given to the model:
 * <ul>
 *   <li>{@code GET /api/web/windows/{windowId}/thumbnail} → PNG, long edge {@value #THUMBNAIL_EDGE} px, only
 *       for a window the policy would let the person grant ({@link Policy#grantable}: never Deckhand's own,
 *       never a denied app, never while a deny-list scan fires); otherwise the refusal (422).</li>
 *   <li>{@code GET /api/web/approvals/{id}/crop} → PNG of the card's target element with some of the
 *       window around it, outlined, captured now; the same policy check on the granted window; the
 *       whole window when the element cannot be found. 404 unknown card, 409 its grant is no longer active.</li>
 * </ul>
 * The grant's capture mode governs what reaches the <em>model</em>; these images go only to the
 * person's signed-in page on loopback (documented in docs/web.md).
 */
@Path("/api/web")
public class PixelsResource {

    static final int THUMBNAIL_EDGE = 320;
    static final int CROP_SOURCE_EDGE = 1600;

    @Inject
    Desktops desktops;

    @Inject
    PolicyStore policy;

    @Inject
    GrantService grants;

    @GET
    @Path("windows/{windowId}/thumbnail")
    @Produces("image/png")
    public Response thumbnail(@PathParam("windowId") long windowId) {
        requireCapturable(windowId);
        Capture c = desktops.desktop().captures().capture(windowId, 0, THUMBNAIL_EDGE);
        return png(c.image());
    }

    @GET
    @Path("approvals/{id}/crop")
    @Produces("image/png")
    public Response crop(@PathParam("id") String id) {
        ApprovalBook.Approval card =
                grants.approvals().get(id).orElseThrow(() -> new NoSuchElementException("no approval card " + id));
        Grant grant = grants.broker()
                .active()
                .filter(g -> g.id().equals(card.grantId()))
                .orElseThrow(() -> new IllegalStateException("the grant of card " + id + " is no longer active"));
        long windowId = grant.target().windowId();
        requireCapturable(windowId);
        Optional<StepTarget> target = card.steps().stream()
                .map(StepTarget::parse)
                .flatMap(Optional::stream)
                .findFirst();
        // Same revision as the run: a snapshot under the running grant's revision keeps its element uids.
        Optional<Geometry> bounds =
                target.flatMap(t -> desktops.desktop().trees().snapshot(windowId, grant.revision()).nodes().stream()
                        .filter(n -> n.role().equals(t.role()) && n.name().equals(t.name()) && n.bounds() != null)
                        .map(Node::bounds)
                        .findFirst());
        Capture c = desktops.desktop().captures().capture(windowId, grant.revision(), CROP_SOURCE_EDGE);
        return png(Crops.around(c, bounds.orElse(null)));
    }

    private void requireCapturable(long windowId) {
        PolicyConfig config = policy.current();
        DesktopFacts facts = desktops.desktop().facts().current();
        Policy.grantable(config, FactsMapper.facts(facts, windowId), windowId).ifPresent(r -> {
            throw new RefusedException(r);
        });
    }

    private static Response png(byte[] image) {
        return Response.ok(image, "image/png")
                .header("Cache-Control", "no-store")
                .build();
    }
}

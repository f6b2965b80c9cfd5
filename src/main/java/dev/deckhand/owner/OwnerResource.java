package dev.deckhand.owner;

import dev.deckhand.audit.GrantEvent;
import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantChange;
import dev.deckhand.grant.InputPolicy;
import dev.deckhand.grant.MintRequest;
import dev.deckhand.grant.Policy;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.ScopeKind;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.guard.FactsMapper;
import dev.deckhand.platform.Desktops;
import dev.deckhand.policy.PolicyDocument;
import dev.deckhand.policy.PolicyStore;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The owner API (docs/contract.md#grants-and-the-owner-api) for windows, grants, Stop, approvals and the policy. {@code HttpGuard}
 * admits only the owner token (or the person's signed-in browser with its CSRF token) to it.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class OwnerResource {

    @Inject
    GrantService grants;

    @Inject
    PolicyStore policy;

    @Inject
    Desktops desktops;

    /** The body of {@code POST /api/grants}; absent fields take the policy's defaults. */
    public record MintBody(
            Long windowId,
            String scope,
            Integer budget,
            Long idleExpirySeconds,
            String inputPolicy,
            String capture,
            Set<String> consequential,
            Boolean blindInput) {

        /** The mint request these fields ask for on {@code target}; absent fields take the policy's caps and defaults. */
        public MintRequest request(dev.deckhand.grant.GrantTarget target, PolicyConfig config) {
            MintRequest request =
                    MintRequest.of(target, scope == null ? ScopeKind.WINDOW : ScopeKind.fromWire(scope), config.caps());
            if (budget != null) request = request.withBudget(budget);
            if (idleExpirySeconds != null) request = request.withIdleExpiry(Duration.ofSeconds(idleExpirySeconds));
            if (inputPolicy != null) request = request.withInputPolicy(InputPolicy.fromWire(inputPolicy));
            if (capture != null) request = request.withCapture(CaptureMode.fromWire(capture));
            if (consequential != null) request = request.withConsequential(consequential);
            if (blindInput != null) request = request.withBlindInput(blindInput);
            return request;
        }
    }

    /** The body of {@code PATCH /api/grants/{id}}: the fields to change. */
    public record ReviseBody(
            Integer budget,
            Long idleExpirySeconds,
            String inputPolicy,
            String capture,
            Set<String> consequential,
            Boolean blindInput) {}

    public record DecisionBody(String decision) {}

    @GET
    @Path("windows")
    public List<Views.WindowView> windows() {
        PolicyConfig config = policy.current();
        DesktopFacts facts;
        try {
            facts = desktops.desktop().facts().current();
        } catch (dev.deckhand.grant.RefusedException e) {
            if (e.code() != dev.deckhand.grant.RefusalCode.A11Y_UNAVAILABLE) throw e;
            // An app that is starting or busy can hold the accessibility bus past its bound. The
            // windows are still listed (X11 alone), each marked with the refusal a mint would get now.
            return desktops.desktop().display().windows().stream()
                    .map(w -> Views.WindowView.of(w, e.refusal(), starting(w.id())))
                    .toList();
        }
        return facts.windows().stream()
                .map(w -> Views.WindowView.of(
                        w,
                        Policy.grantable(config, FactsMapper.facts(facts, w.id()), w.id())
                                .orElse(null),
                        starting(w.id())))
                .toList();
    }

    /** Whether the window's app is still starting (expected on the accessibility bus, not there yet); false when unknown. */
    private boolean starting(long windowId) {
        try {
            return desktops.desktop().trees().starting(windowId);
        } catch (RuntimeException unknown) {
            return false;
        }
    }

    @POST
    @Path("grants")
    public Response mint(MintBody body) {
        if (body == null || body.windowId() == null) throw new IllegalArgumentException("windowId is required");
        PolicyConfig config = policy.current();
        DesktopFacts facts = desktops.desktop().facts().current();
        WindowInfo window = FactsMapper.window(facts, body.windowId())
                .orElseThrow(() -> new NoSuchElementException("no window " + body.windowId() + " on this desktop"));
        Grant grant = grants.mintFor(window, facts, config, target -> body.request(target, config));
        return Response.status(Response.Status.CREATED)
                .entity(Views.GrantView.of(grant))
                .build();
    }

    @GET
    @Path("grants/active")
    public Views.GrantView active() {
        return grants.broker()
                .active()
                .map(Views.GrantView::of)
                .orElseThrow(() -> new NoSuchElementException("no grant is active"));
    }

    @PATCH
    @Path("grants/{id}")
    public Views.GrantView revise(@PathParam("id") String id, ReviseBody body) {
        if (body == null) throw new IllegalArgumentException("a body with the fields to change is required");
        GrantChange change = GrantChange.none();
        if (body.budget() != null) change = change.withBudget(body.budget());
        if (body.idleExpirySeconds() != null)
            change = change.withIdleExpiry(Duration.ofSeconds(body.idleExpirySeconds()));
        if (body.inputPolicy() != null) change = change.withInputPolicy(InputPolicy.fromWire(body.inputPolicy()));
        if (body.capture() != null) change = change.withCapture(CaptureMode.fromWire(body.capture()));
        if (body.consequential() != null) change = change.withConsequential(body.consequential());
        if (body.blindInput() != null) change = change.withBlindInput(body.blindInput());
        Grant revised = grants.broker()
                .revise(grants.ownerPass(), id, change, policy.current().permissionMode());
        grants.record(GrantEvent.Kind.REVISE, revised);
        return Views.GrantView.of(revised);
    }

    @DELETE
    @Path("grants/{id}")
    public Response revoke(@PathParam("id") String id) {
        if (!grants.broker().revoke(id)) throw new NoSuchElementException("grant " + id + " is not active");
        return Response.noContent().build();
    }

    @POST
    @Path("stop")
    public Map<String, Object> stop() {
        var stopped = grants.broker().stop("the web page's Stop");
        return Map.of("stopped", true, "grantId", stopped.map(Grant::id).orElse(""));
    }

    @GET
    @Path("approvals")
    public List<Views.ApprovalView> approvals() {
        return grants.approvals().pending().stream().map(Views.ApprovalView::of).toList();
    }

    @POST
    @Path("approvals/{id}")
    public Views.ApprovalView decide(@PathParam("id") String id, DecisionBody body) {
        String decision = body == null ? null : body.decision();
        if ("approve".equals(decision))
            return Views.ApprovalView.of(grants.approvals().approve(id));
        if ("deny".equals(decision))
            return Views.ApprovalView.of(grants.approvals().deny(id));
        throw new IllegalArgumentException("decision must be approve or deny, was '" + decision + "'");
    }

    @GET
    @Path("policy")
    public PolicyDocument readPolicy() {
        return PolicyDocument.of(policy.current());
    }

    @PUT
    @Path("policy")
    public PolicyDocument writePolicy(String body) {
        return PolicyDocument.of(policy.save(policy.parse(body)));
    }

    @GET
    @Path("policy/builtins")
    public Map<String, Set<String>> builtins() {
        return Map.of("credentialApps", PolicyConfig.BUILTIN_CREDENTIAL_APPS);
    }
}

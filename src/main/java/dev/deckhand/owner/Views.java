package dev.deckhand.owner;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.wayland.FrameIds;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/** What the owner API returns; never a token, a key, typed text or pixels. */
public final class Views {

    private Views() {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RefusalView(String code, String detail) {
        public static RefusalView of(Refusal r) {
            return r == null ? null : new RefusalView(r.code().name(), r.detail());
        }
    }

    /**
     * A window of the picker; {@code starting}: its app loads an accessibility bridge but is not on the bus
     * yet (it can be granted; a run waits for it, at most 5 s, before {@code A11Y_UNAVAILABLE}); {@code route}:
     * {@code x11} or {@code wayland}, the driver that acts on the window (an addition to the first design, docs/contract.md#grants-and-the-owner-api).
     */
    public record WindowView(
            long windowId,
            String title,
            String app,
            int pid,
            Geometry geometry,
            boolean visible,
            boolean minimised,
            boolean own,
            RefusalView refusal,
            boolean starting,
            String route) {
        static WindowView of(WindowInfo w, Refusal refusal, boolean starting) {
            return new WindowView(
                    w.id(),
                    w.title(),
                    w.app(),
                    w.pid(),
                    w.geometry(),
                    w.visible(),
                    w.minimised(),
                    w.own(),
                    RefusalView.of(refusal),
                    starting,
                    FrameIds.isFrameId(w.id()) ? "wayland" : "x11");
        }
    }

    public record TargetView(long windowId, String app, String title) {}

    public record GrantView(
            String id,
            long revision,
            TargetView target,
            String scope,
            int budgetRemaining,
            long idleExpirySeconds,
            Instant expiresAt,
            String inputPolicy,
            String capture,
            Set<String> consequential,
            boolean blindInput,
            boolean bound) {
        static GrantView of(Grant g) {
            return new GrantView(
                    g.id(),
                    g.revision(),
                    new TargetView(
                            g.target().windowId(), g.target().app(), g.target().title()),
                    g.scope().wire(),
                    g.budgetRemaining(),
                    g.idleExpiry().toSeconds(),
                    g.expiresAt(),
                    g.inputPolicy().wire(),
                    g.capture().wire(),
                    g.consequential(),
                    g.blindInput(),
                    g.ownerSession().isPresent());
        }
    }

    public record ApprovalView(
            String id,
            String grantId,
            long revision,
            List<String> steps,
            String consequential,
            Instant requestedAt,
            Instant expiresAt,
            String status) {
        static ApprovalView of(ApprovalBook.Approval a) {
            return new ApprovalView(
                    a.id(),
                    a.grantId(),
                    a.revision(),
                    a.steps(),
                    a.consequential().orElse(null),
                    a.requestedAt(),
                    a.expiresAt(),
                    a.status().name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    /** An error body: {@code error} is a refusal code or a short word; {@code detail} names what fired. */
    public record ErrorView(String error, String detail) {}
}

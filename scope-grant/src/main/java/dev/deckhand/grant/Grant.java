package dev.deckhand.grant;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An immutable snapshot of a scope grant. The live state is held by {@link GrantBroker}; a snapshot
 * never changes, so compare {@link #revision()} with the broker's current one before acting.
 *
 * @param id opaque random id
 * @param target the window (and its app) the person picked
 * @param scope {@code window} or {@code app}
 * @param revision broker-wide counter, strictly increasing across every change of every grant
 * @param budgetRemaining input actions left; never below zero
 * @param idleExpiry the grant ends when unused this long
 * @param lastTouched when the grant was last minted, used or revised
 * @param inputPolicy {@code confirm_each} or {@code autonomous}
 * @param capture {@code a11y_only} or {@code pixels}
 * @param consequential the consequential actions the person named (see {@link Consequential})
 * @param blindInput the person allows input whose receiver the accessibility tree does not show ({@link
 *     Policy#blind}): keys and text into a window without a tree, a {@code click_at} on a point where the tree shows
 *     no element; only on a {@code pixels} grant
 * @param ownerSession the MCP session the grant is bound to, empty until one uses it
 */
public record Grant(
        String id,
        GrantTarget target,
        ScopeKind scope,
        long revision,
        int budgetRemaining,
        Duration idleExpiry,
        Instant lastTouched,
        InputPolicy inputPolicy,
        CaptureMode capture,
        Set<String> consequential,
        boolean blindInput,
        Optional<String> ownerSession) {

    public Grant {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("id must not be blank");
        }
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(scope, "scope");
        if (revision < 1) {
            throw new IllegalArgumentException("revision must be >= 1, was " + revision);
        }
        if (budgetRemaining < 0) {
            throw new IllegalArgumentException("budgetRemaining must be >= 0, was " + budgetRemaining);
        }
        MintRequest.requirePositive(idleExpiry, "idleExpiry");
        Objects.requireNonNull(lastTouched, "lastTouched");
        Objects.requireNonNull(inputPolicy, "inputPolicy");
        Objects.requireNonNull(capture, "capture");
        consequential = Consequential.normalize(consequential);
        requireBlindOnPixels(blindInput, capture);
        Objects.requireNonNull(ownerSession, "ownerSession");
    }

    /** When the grant expires unless touched before then. */
    public Instant expiresAt() {
        return lastTouched.plus(idleExpiry);
    }

    /** Whether the grant has passed its idle expiry at {@code now} (the expiry instant itself counts as expired). */
    public boolean expiredAt(Instant now) {
        return !now.isBefore(expiresAt());
    }

    Grant with(long newRevision, int newBudget, Instant touched, Optional<String> owner) {
        return new Grant(
                id,
                target,
                scope,
                newRevision,
                newBudget,
                idleExpiry,
                touched,
                inputPolicy,
                capture,
                consequential,
                blindInput,
                owner);
    }

    /** Blind input is input on pixels: on an {@code a11y_only} grant there is nothing to allow it on. */
    static void requireBlindOnPixels(boolean blindInput, CaptureMode capture) {
        if (blindInput && capture != CaptureMode.PIXELS) {
            throw new IllegalArgumentException("blindInput needs a pixels grant (capture pixels)");
        }
    }
}

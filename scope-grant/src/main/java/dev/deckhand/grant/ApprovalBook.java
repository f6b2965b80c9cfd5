package dev.deckhand.grant;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Approval cards for {@code confirm_each} input batches (one per model action, or one for a whole
 * {@code steps} list) and for consequential actions. Thread-safe; time from the injected {@link Clock}. A
 * batch's card approves only what it showed: the loop's guard judges each step again when it runs and raises a
 * card of its own for a step the card does not cover as it resolves then ({@code loop.guard.BatchCard}).
 *
 * <p>An approval is bound to the grant id, the grant revision and the capture basis (nullable) it was
 * requested under, expires {@link #ttl()} after the request (default 30 s) whether or not it was
 * approved, and is consumed at most once. The loop polls {@link #status}, then calls {@link #consume}.
 *
 * <p>Which refusal the loop reports when an approval does not let the action through (docs/contract.md#refusal-codes has
 * no "approval denied" code, so these are the most honest existing ones):
 * <ul>
 * <li>denied, expired (counts as deny) or already used, for a card raised by the consequential gate:
 *   {@code CONSEQUENTIAL_NOT_NAMED} naming the action — the person neither named nor approved it;
 * <li>the same for a plain confirm-each card: {@code STOPPED} — the person (or their absence) stopped
 *   this run; the grant itself stays active and is <em>not</em> latched (unlike {@link GrantBroker#stop});
 * <li>requested under another grant, revision or basis: {@code BASIS_STALE};
 * <li>cancelled because the grant ended ({@link #cancelForGrant}): {@code GRANT_REVOKED}.
 * </ul>
 */
public final class ApprovalBook {

    public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);
    private static final int KEEP_FINISHED = 256;
    private static final int MAX_STEPS_SHOWN = 200;

    public enum Status {
        PENDING,
        APPROVED,
        DENIED,
        EXPIRED,
        CONSUMED,
        CANCELLED
    }

    /**
     * One card.
     *
     * @param steps every step of the batch resolved to its target, as shown to the person
     * @param consequential the consequential action the card is about, when the gate raised it
     */
    public record Approval(
            String id,
            String grantId,
            long revision,
            Optional<BasisInfo> basis,
            List<String> steps,
            Optional<String> consequential,
            Instant requestedAt,
            Instant expiresAt,
            Status status) {
        public Approval {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(grantId, "grantId");
            Objects.requireNonNull(basis, "basis");
            steps = List.copyOf(Objects.requireNonNull(steps, "steps"));
            Objects.requireNonNull(consequential, "consequential");
            Objects.requireNonNull(requestedAt, "requestedAt");
            Objects.requireNonNull(expiresAt, "expiresAt");
            Objects.requireNonNull(status, "status");
        }

        Approval with(Status s) {
            return new Approval(id, grantId, revision, basis, steps, consequential, requestedAt, expiresAt, s);
        }
    }

    private final Clock clock;
    private final Duration ttl;
    private final Supplier<String> ids;
    private final Map<String, Approval> book = new LinkedHashMap<>();

    public ApprovalBook(Clock clock) {
        this(clock, DEFAULT_TTL);
    }

    public ApprovalBook(Clock clock, Duration ttl) {
        this(clock, ttl, Ids.random("a-"));
    }

    /** A book whose card ids come from {@code ids} (deterministic ids for tests and simulations). */
    public ApprovalBook(Clock clock, Duration ttl, Supplier<String> ids) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ttl = MintRequest.requirePositive(ttl, "ttl");
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    public Duration ttl() {
        return ttl;
    }

    /**
     * Raises a card.
     *
     * @param basis the capture basis the batch was computed against, or null (no coordinate input)
     * @param steps one description per step, resolved to its target; 1..200 entries
     * @param consequential from {@link PolicyDecision.NeedsApproval#consequential()}
     */
    public synchronized Approval request(
            String grantId, long revision, BasisInfo basis, List<String> steps, Optional<String> consequential) {
        return request(grantId, revision, basis, steps, consequential, null);
    }

    /**
     * As {@link #request(String, long, BasisInfo, List, Optional)}, for a card that waits until the run it
     * belongs to ends: it expires at {@code notAfter} (the run's wall clock) or after {@link #ttl()},
     * whichever comes first.
     *
     * @param notAfter nullable: no bound but the ttl
     */
    public synchronized Approval request(
            String grantId,
            long revision,
            BasisInfo basis,
            List<String> steps,
            Optional<String> consequential,
            Instant notAfter) {
        Objects.requireNonNull(grantId, "grantId");
        Objects.requireNonNull(steps, "steps");
        if (steps.isEmpty() || steps.size() > MAX_STEPS_SHOWN) {
            throw new IllegalArgumentException(
                    "steps must hold 1.." + MAX_STEPS_SHOWN + " entries, was " + steps.size());
        }
        Objects.requireNonNull(consequential, "consequential");
        prune();
        Instant now = clock.instant();
        Instant expires = now.plus(ttl);
        if (notAfter != null && notAfter.isBefore(expires)) expires = notAfter.isAfter(now) ? notAfter : now;
        Approval a = new Approval(
                ids.get(),
                grantId,
                revision,
                Optional.ofNullable(basis),
                steps,
                consequential,
                now,
                expires,
                Status.PENDING);
        book.put(a.id(), a);
        return a;
    }

    /** Cards still awaiting a decision ({@code GET /api/approvals}), oldest first. */
    public synchronized List<Approval> pending() {
        List<Approval> out = new ArrayList<>();
        for (String id : new ArrayList<>(book.keySet())) {
            Approval a = refresh(id);
            if (a.status() == Status.PENDING) {
                out.add(a);
            }
        }
        return out;
    }

    public synchronized Optional<Approval> get(String id) {
        return book.containsKey(id) ? Optional.of(refresh(id)) : Optional.empty();
    }

    /** @throws NoSuchElementException unknown id (404) */
    public synchronized Status status(String id) {
        return require(id).status();
    }

    /**
     * The person approves ({@code POST /api/approvals/{id}} {@code {"decision":"approve"}}).
     *
     * @throws NoSuchElementException unknown id (404)
     * @throws IllegalStateException no longer pending: decided, expired, consumed or cancelled (409)
     */
    public synchronized Approval approve(String id) {
        return decide(id, Status.APPROVED);
    }

    /** The person denies. Same exceptions as {@link #approve}. */
    public synchronized Approval deny(String id) {
        return decide(id, Status.DENIED);
    }

    /**
     * Uses an approval for the batch it was raised for. Empty means: approved, in time, for this grant,
     * revision and basis — deliver the batch (with {@link ProposedAction#approved()} set). Otherwise the
     * refusal to report (see the class comment); either way the approval cannot be used again.
     *
     * @param basis the basis the batch is about to be delivered against, or null
     * @throws NoSuchElementException unknown id
     * @throws IllegalStateException still pending and not expired (wait for a decision first)
     */
    public synchronized Optional<Refusal> consume(String id, String grantId, long revision, BasisInfo basis) {
        Approval a = require(id);
        switch (a.status()) {
            case PENDING:
                throw new IllegalStateException("approval " + id + " is still pending");
            case APPROVED:
                if (!a.grantId().equals(grantId)
                        || a.revision() != revision
                        || !a.basis().equals(Optional.ofNullable(basis))) {
                    book.put(id, a.with(Status.CONSUMED));
                    return Optional.of(Refusal.basisStale("approval " + id + " was for grant "
                            + a.grantId() + " revision " + a.revision()
                            + (a.basis().isPresent() ? " and its capture basis" : "")
                            + "; now grant " + grantId + " revision " + revision));
                }
                book.put(id, a.with(Status.CONSUMED));
                return Optional.empty();
            case DENIED:
                return Optional.of(notApproved(a, "denied by the person"));
            case EXPIRED:
                return Optional.of(
                        notApproved(a, "expired after " + ttl.toSeconds() + " s without a decision (counts as deny)"));
            case CONSUMED:
                return Optional.of(notApproved(a, "already used"));
            case CANCELLED:
                return Optional.of(
                        Refusal.grantRevoked("approval " + id + " cancelled: grant " + a.grantId() + " ended"));
            default:
                throw new AssertionError(a.status());
        }
    }

    /** Cancels every pending or approved card of {@code grantId} (the grant ended). Returns how many. */
    public synchronized int cancelForGrant(String grantId) {
        int n = 0;
        for (Map.Entry<String, Approval> e : book.entrySet()) {
            Approval a = e.getValue();
            if (a.grantId().equals(grantId) && (a.status() == Status.PENDING || a.status() == Status.APPROVED)) {
                e.setValue(a.with(Status.CANCELLED));
                n++;
            }
        }
        return n;
    }

    private Approval decide(String id, Status to) {
        Approval a = require(id);
        if (a.status() != Status.PENDING) {
            throw new IllegalStateException(
                    "approval " + id + " is " + a.status().name().toLowerCase(Locale.ROOT) + ", not pending");
        }
        Approval d = a.with(to);
        book.put(id, d);
        return d;
    }

    private Approval require(String id) {
        Objects.requireNonNull(id, "id");
        if (!book.containsKey(id)) {
            throw new NoSuchElementException("no approval " + id);
        }
        return refresh(id);
    }

    /** Marks a pending or approved card expired once its time is up. */
    private Approval refresh(String id) {
        Approval a = book.get(id);
        if ((a.status() == Status.PENDING || a.status() == Status.APPROVED)
                && !clock.instant().isBefore(a.expiresAt())) {
            a = a.with(Status.EXPIRED);
            book.put(id, a);
        }
        return a;
    }

    private static Refusal notApproved(Approval a, String why) {
        if (a.consequential().isPresent()) {
            return Refusal.consequentialNotNamed(
                    a.consequential().get() + " was not approved: approval " + a.id() + " " + why);
        }
        return Refusal.stopped("approval " + a.id() + " " + why + "; this run ends, the grant stays");
    }

    /** Keeps the book bounded: drops the oldest finished cards beyond {@value #KEEP_FINISHED}. */
    private void prune() {
        int finished = 0;
        for (String id : new ArrayList<>(book.keySet())) {
            Status s = refresh(id).status();
            if (s != Status.PENDING && s != Status.APPROVED) {
                finished++;
            }
        }
        Iterator<Map.Entry<String, Approval>> it = book.entrySet().iterator();
        while (finished > KEEP_FINISHED && it.hasNext()) {
            Status s = it.next().getValue().status();
            if (s != Status.PENDING && s != Status.APPROVED) {
                it.remove();
                finished--;
            }
        }
    }
}

package dev.deckhand.grant;

import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Holds the one active grant of this server and everything that may happen to it (docs/design.md#grants).
 * Thread-safe; time comes only from the injected {@link Clock}.
 *
 * <ul>
 * <li><b>Mint</b> only with the {@link OwnerPass} that {@link #create} handed out; at most one active
 *   grant ({@link GrantConflictException} → 409); {@code autonomous} only when the permission mode
 *   allows it ({@code MODE_DENIED}). Minting clears a Stop latch.
 * <li><b>Bind</b>: the first MCP session to {@link #acquire} the grant owns it (a revision bump). A
 *   session whose parent is the owner or one of its subagents inherits it. Any other session is refused
 *   with {@code OUT_OF_SCOPE} ("bound to another MCP session"): the grant's scope does not include it.
 * <li><b>Budget</b>: {@link #consume} spends one unit per delivered input action; at zero it refuses with
 *   {@code BUDGET_EXHAUSTED} and never goes below zero. An exhausted grant stays active (the person
 *   may revise its budget or revoke it). The loop reserves the unit before delivery
 *   ({@link #reserve}) and gives it back with {@link #release} when the action was not delivered, so
 *   two actions can never spend one unit.
 * <li><b>One run at a time</b>: {@link #hold} binds the grant to one run until {@link #unhold}; a second
 *   run meanwhile is refused {@code OUT_OF_SCOPE} (the grant is in use by another run).
 * <li><b>Idle expiry</b>: acquire, consume, touch and revise touch the grant; once
 *   {@code lastTouched + idleExpiry} is reached (checked lazily by every call) it ends with
 *   {@code GRANT_EXPIRED}.
 * <li><b>Revision</b>: a broker-wide counter, so revisions increase strictly across every change of
 *   every grant: mint, bind, {@link #revise}, {@link #bump}.
 * <li><b>Revoke</b> ends the grant ({@code GRANT_REVOKED}); <b>Stop</b> ends it too and latches
 *   ({@code STOPPED}) until the next mint, even when no grant was active.
 * </ul>
 * Calls that can be refused throw {@link RefusedException}; after a grant ends, calls naming it (or
 * finding no grant) get the refusal it ended with, and {@code NO_GRANT} when none was ever minted.
 * Listeners ({@link #onEnd}) hear every end (expiry is noticed by the next call, e.g. the watcher's
 * {@link #active()}), outside the broker's lock.
 */
public final class GrantBroker {

    private static final int ENDED_KEPT = 64;

    /**
     * A grant ended, or Stop latched with no grant active.
     *
     * @param grant the grant as it was when it ended; empty for a Stop with no active grant
     * @param why {@code GRANT_EXPIRED}, {@code GRANT_REVOKED} or {@code STOPPED}
     */
    public record Ended(Optional<Grant> grant, Refusal why) {
        public Ended {
            Objects.requireNonNull(grant, "grant");
            Objects.requireNonNull(why, "why");
        }
    }

    /** A new broker and the one {@link OwnerPass} for it. */
    public record Owned(GrantBroker broker, OwnerPass ownerPass) {
        public Owned {
            Objects.requireNonNull(broker, "broker");
            Objects.requireNonNull(ownerPass, "ownerPass");
        }
    }

    private final Clock clock;
    private final Supplier<String> ids;
    private final Object lock = new Object();
    private final List<Consumer<Ended>> listeners = new CopyOnWriteArrayList<>();

    private Grant active;
    private String holder;
    private final Set<String> open = new HashSet<>();
    private long reservations;
    private final Set<String> family = new HashSet<>();
    private long lastRevision;
    private boolean stopped;
    private Refusal lastEnd;
    private final Map<String, Refusal> ended = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Refusal> eldest) {
            return size() > ENDED_KEPT;
        }
    };

    private GrantBroker(Clock clock, Supplier<String> ids) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    /**
     * Creates a broker and its one owner pass. Call once, from the owner wiring of the app; keep the
     * pass away from the MCP side.
     */
    public static Owned create(Clock clock) {
        return create(clock, Ids.random("g-"));
    }

    /** {@link #create(Clock)} with grant ids from {@code ids} (deterministic ids for tests and simulations). */
    public static Owned create(Clock clock, Supplier<String> ids) {
        GrantBroker b = new GrantBroker(clock, ids);
        return new Owned(b, new OwnerPass(b));
    }

    /**
     * Registers a listener told each time a grant ends (revoke, Stop, expiry) or Stop latches; the app
     * uses it to end the run and {@link ApprovalBook#cancelForGrant cancel} the grant's approvals.
     * Called outside the broker's lock, on the thread that noticed the end.
     */
    public void onEnd(Consumer<Ended> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Mints the one active grant.
     *
     * @param mode the server's permission mode right now (policy config)
     * @throws SecurityException the pass is not this broker's
     * @throws RefusedException {@code MODE_DENIED} for {@code autonomous} in mode {@code ask}
     * @throws GrantConflictException another grant is active
     */
    public Grant mint(OwnerPass pass, MintRequest request, PermissionMode mode) {
        requirePass(pass);
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(mode, "mode");
        if (!mode.allows(request.inputPolicy())) {
            throw modeDenied(request.inputPolicy(), mode);
        }
        return run(() -> {
            if (active != null) {
                throw new GrantConflictException(active.id());
            }
            Grant g = new Grant(
                    ids.get(),
                    request.target(),
                    request.scope(),
                    ++lastRevision,
                    request.budget(),
                    request.idleExpiry(),
                    now(),
                    request.inputPolicy(),
                    request.capture(),
                    request.consequential(),
                    request.blindInput(),
                    Optional.empty());
            active = g;
            family.clear();
            holder = null;
            open.clear();
            stopped = false;
            lastEnd = null;
            return g;
        });
    }

    /**
     * Binds the active grant to {@code sessionId} if unbound, or admits the owner and its subagents.
     *
     * @param parentSessionId the session that started this one (a subagent), or null
     * @return the grant as it now is
     * @throws RefusedException {@code STOPPED}, {@code NO_GRANT}, the ended grant's refusal, or
     *     {@code OUT_OF_SCOPE} for a session outside the owner's family
     */
    public Grant acquire(String sessionId, String parentSessionId) {
        requireSession(sessionId);
        return run(() -> {
            Grant g = requireActive(null);
            Instant now = now();
            if (g.ownerSession().isEmpty()) {
                family.clear();
                family.add(sessionId);
                active = g.with(++lastRevision, g.budgetRemaining(), now, Optional.of(sessionId));
            } else if (family.contains(sessionId)) {
                active = g.with(g.revision(), g.budgetRemaining(), now, g.ownerSession());
            } else if (parentSessionId != null && family.contains(parentSessionId)) {
                family.add(sessionId);
                active = g.with(g.revision(), g.budgetRemaining(), now, g.ownerSession());
            } else {
                throw new RefusedException(Refusal.outOfScope("grant " + g.id() + " is bound to another MCP session"));
            }
            return active;
        });
    }

    /**
     * Spends one budget unit for an input action about to be delivered, after the policy allowed it.
     *
     * @param revision the grant revision the action was decided under
     * @return the grant after spending
     * @throws RefusedException {@code STOPPED}, {@code NO_GRANT}, {@code GRANT_EXPIRED},
     *     {@code GRANT_REVOKED}, {@code OUT_OF_SCOPE} (session not bound), {@code BASIS_STALE} (revision
     *     moved on), {@code BUDGET_EXHAUSTED}
     */
    public Grant consume(String sessionId, String grantId, long revision) {
        requireSession(sessionId);
        Objects.requireNonNull(grantId, "grantId");
        return run(() -> {
            Grant g = requireMember(sessionId, grantId);
            if (revision != g.revision()) {
                throw new RefusedException(Refusal.basisStale("action decided under grant revision " + revision
                        + ", grant " + g.id() + " is now at revision " + g.revision()));
            }
            if (g.budgetRemaining() <= 0) {
                throw new RefusedException(Refusal.budgetExhausted("grant " + g.id() + " has no budget left"));
            }
            active = g.with(g.revision(), g.budgetRemaining() - 1, now(), g.ownerSession());
            return active;
        });
    }

    /**
     * A budget unit set aside for one input action about to be delivered: {@link #consume} under the
     * lock, remembered so that {@link #release} can give it back once if the action is not delivered.
     */
    public record Reservation(String grantId, String id) {
        public Reservation {
            Objects.requireNonNull(grantId, "grantId");
            Objects.requireNonNull(id, "id");
        }
    }

    /** Reserves one unit before delivery; the same refusals as {@link #consume}. */
    public Reservation reserve(String sessionId, String grantId, long revision) {
        consume(sessionId, grantId, revision);
        synchronized (lock) {
            Reservation r = new Reservation(grantId, "r" + (++reservations));
            open.add(r.id());
            return r;
        }
    }

    /**
     * Gives a reserved unit back: the action was refused or failed before any event reached the desktop.
     * Does nothing for a reservation already released or of a grant no longer active.
     */
    public void release(Reservation r) {
        Objects.requireNonNull(r, "reservation");
        synchronized (lock) {
            if (!open.remove(r.id()) || active == null || !active.id().equals(r.grantId())) return;
            active = active.with(
                    active.revision(), active.budgetRemaining() + 1, active.lastTouched(), active.ownerSession());
        }
    }

    /** The reserved unit was spent (the action was delivered); it can no longer be released. */
    public void spent(Reservation r) {
        Objects.requireNonNull(r, "reservation");
        synchronized (lock) {
            open.remove(r.id());
        }
    }

    /**
     * Binds the active grant to run {@code runId} of a member session until {@link #unhold}.
     *
     * @throws RefusedException the refusals of {@link #usable}'s membership check, or {@code OUT_OF_SCOPE}
     *     while another run holds the grant
     */
    public Grant hold(String sessionId, String grantId, String runId) {
        requireSession(sessionId);
        Objects.requireNonNull(runId, "runId");
        return run(() -> {
            Grant g = requireMember(sessionId, grantId);
            if (holder != null && !holder.equals(runId)) {
                throw new RefusedException(Refusal.outOfScope(
                        "grant " + g.id() + " is in use by another run; one run holds a grant at a time"));
            }
            holder = runId;
            return g;
        });
    }

    /** Ends {@code runId}'s hold, if it holds the grant. */
    public void unhold(String runId) {
        synchronized (lock) {
            if (runId != null && runId.equals(holder)) holder = null;
        }
    }

    /** Resets the idle timer without spending budget (e.g. while the loop observes). */
    public Grant touch(String sessionId, String grantId) {
        requireSession(sessionId);
        Objects.requireNonNull(grantId, "grantId");
        return run(() -> {
            Grant g = requireMember(sessionId, grantId);
            active = g.with(g.revision(), g.budgetRemaining(), now(), g.ownerSession());
            return active;
        });
    }

    /**
     * Whether {@code sessionId} may act on grant {@code grantId} now (without touching it): the refusal it
     * would get, including {@code BUDGET_EXHAUSTED}, or empty.
     */
    public Optional<Refusal> usable(String sessionId, String grantId) {
        requireSession(sessionId);
        Objects.requireNonNull(grantId, "grantId");
        try {
            return run(() -> {
                Grant g = requireMember(sessionId, grantId);
                if (g.budgetRemaining() <= 0) {
                    throw new RefusedException(Refusal.budgetExhausted("grant " + g.id() + " has no budget left"));
                }
                return Optional.<Refusal>empty();
            });
        } catch (RefusedException e) {
            return Optional.of(e.refusal());
        }
    }

    /**
     * The owner revises the active grant: applies {@code change} and bumps the revision (also for an
     * empty change), touching it.
     *
     * @throws SecurityException the pass is not this broker's
     * @throws RefusedException {@code STOPPED}, {@code NO_GRANT}/ended refusal for a grant not active,
     *     {@code MODE_DENIED} when the result would be {@code autonomous} in mode {@code ask}
     */
    public Grant revise(OwnerPass pass, String grantId, GrantChange change, PermissionMode mode) {
        requirePass(pass);
        Objects.requireNonNull(grantId, "grantId");
        Objects.requireNonNull(change, "change");
        Objects.requireNonNull(mode, "mode");
        return run(() -> {
            Grant g = requireActive(grantId);
            InputPolicy policy = change.inputPolicy() != null ? change.inputPolicy() : g.inputPolicy();
            if (!mode.allows(policy)) {
                throw modeDenied(policy, mode);
            }
            Optional<String> owner = change.releaseSession() ? Optional.empty() : g.ownerSession();
            if (change.releaseSession()) {
                family.clear();
            }
            CaptureMode capture = change.capture() != null ? change.capture() : g.capture();
            // a grant narrowed to a11y_only has no blind input left to allow
            boolean blind =
                    change.blindInput() != null ? change.blindInput() : g.blindInput() && capture == CaptureMode.PIXELS;
            Grant.requireBlindOnPixels(blind, capture);
            active = new Grant(
                    g.id(),
                    change.target() != null ? change.target() : g.target(),
                    g.scope(),
                    ++lastRevision,
                    change.budget() != null ? change.budget() : g.budgetRemaining(),
                    change.idleExpiry() != null ? change.idleExpiry() : g.idleExpiry(),
                    now(),
                    policy,
                    capture,
                    change.consequential() != null ? change.consequential() : g.consequential(),
                    blind,
                    owner);
            return active;
        });
    }

    /**
     * Bumps the revision without other change, for the loop and driver when the target's geometry
     * binding changed (moved, resized, re-mapped): old uids, bases and approvals become stale. Cannot
     * widen anything, so it needs no pass; only a member session may call it.
     */
    public Grant bump(String sessionId, String grantId) {
        requireSession(sessionId);
        Objects.requireNonNull(grantId, "grantId");
        return run(() -> {
            Grant g = requireMember(sessionId, grantId);
            active = g.with(++lastRevision, g.budgetRemaining(), g.lastTouched(), g.ownerSession());
            return active;
        });
    }

    /**
     * Revokes the grant if it is the active one ({@code GRANT_REVOKED}). Only narrows authority, so it
     * needs no pass (the REST endpoint is still owner-only).
     *
     * @return whether a grant was revoked
     */
    public boolean revoke(String grantId) {
        Objects.requireNonNull(grantId, "grantId");
        Ended notify;
        boolean revoked = false;
        synchronized (lock) {
            notify = expireIfDue(now());
            if (active != null && active.id().equals(grantId)) {
                notify = end(Refusal.grantRevoked("grant " + grantId + " was revoked"));
                revoked = true;
            }
        }
        fire(notify);
        return revoked;
    }

    /**
     * Stop (web page, global shortcut, MCP cancel): revokes the active grant, if any, and latches
     * {@code STOPPED} until the next mint. Listeners hear {@code STOPPED} even when no grant was active.
     *
     * @param source who stopped, for the detail (e.g. "web page", "shortcut", "mcp cancel")
     * @return the grant that was revoked, if one was active
     */
    public Optional<Grant> stop(String source) {
        Objects.requireNonNull(source, "source");
        Ended expired;
        Ended stopEvent;
        Refusal stop;
        Grant was;
        synchronized (lock) {
            expired = expireIfDue(now());
            was = active;
            stop = Refusal.stopped("stopped by " + source + "; nothing resumes until the person mints a grant");
            stopEvent = active != null ? end(stop) : new Ended(Optional.empty(), stop);
            lastEnd = stop;
            stopped = true;
        }
        fire(expired);
        fire(stopEvent);
        return Optional.ofNullable(was);
    }

    /** The active grant, if any (noticing idle expiry). */
    public Optional<Grant> active() {
        Ended notify;
        Grant g;
        synchronized (lock) {
            notify = expireIfDue(now());
            g = active;
        }
        fire(notify);
        return Optional.ofNullable(g);
    }

    /** Whether Stop is latched (until the next mint). */
    public boolean stopped() {
        synchronized (lock) {
            return stopped;
        }
    }

    /** The highest revision handed out so far (0 before the first mint). */
    public long lastRevision() {
        synchronized (lock) {
            return lastRevision;
        }
    }

    private interface Op<T> {
        T apply();
    }

    /** Runs {@code op} under the lock after noticing expiry; fires listeners after releasing it. */
    private <T> T run(Op<T> op) {
        Ended[] notify = new Ended[1];
        try {
            synchronized (lock) {
                notify[0] = expireIfDue(now());
                return op.apply();
            }
        } finally {
            fire(notify[0]);
        }
    }

    private Grant requireActive(String grantId) {
        if (stopped) {
            throw new RefusedException(lastEnd);
        }
        if (active == null) {
            if (grantId != null && ended.containsKey(grantId)) {
                throw new RefusedException(ended.get(grantId));
            }
            if (lastEnd != null) {
                throw new RefusedException(lastEnd);
            }
            throw new RefusedException(Refusal.noGrant("no active grant; the person mints one in Deckhand's page"));
        }
        if (grantId != null && !active.id().equals(grantId)) {
            Refusal r = ended.get(grantId);
            throw new RefusedException(
                    r != null ? r : Refusal.noGrant("grant " + grantId + " is not the active grant"));
        }
        return active;
    }

    private Grant requireMember(String sessionId, String grantId) {
        Grant g = requireActive(grantId);
        if (!family.contains(sessionId)) {
            throw new RefusedException(Refusal.outOfScope(
                    g.ownerSession().isEmpty()
                            ? "grant " + g.id() + " has not been acquired by this MCP session"
                            : "grant " + g.id() + " is bound to another MCP session"));
        }
        return g;
    }

    /** Ends the active grant if its idle expiry has passed; returns the event to fire, or null. */
    private Ended expireIfDue(Instant now) {
        if (active != null && active.expiredAt(now)) {
            return end(Refusal.grantExpired("grant " + active.id() + " expired after "
                    + active.idleExpiry().toSeconds() + " s idle"));
        }
        return null;
    }

    private Ended end(Refusal why) {
        Ended e = new Ended(Optional.of(active), why);
        ended.put(active.id(), why);
        lastEnd = why;
        active = null;
        family.clear();
        holder = null;
        open.clear();
        return e;
    }

    private void fire(Ended r) {
        if (r == null) {
            return;
        }
        for (Consumer<Ended> l : listeners) {
            l.accept(r);
        }
    }

    private Instant now() {
        return clock.instant();
    }

    private void requirePass(OwnerPass pass) {
        if (pass == null || !pass.belongsTo(this)) {
            throw new SecurityException("minting and revising need this broker's owner pass");
        }
    }

    private static void requireSession(String sessionId) {
        Objects.requireNonNull(sessionId, "sessionId");
        if (sessionId.isBlank()) {
            throw new IllegalArgumentException("sessionId must not be blank");
        }
    }

    private static RefusedException modeDenied(InputPolicy policy, PermissionMode mode) {
        return new RefusedException(Refusal.modeDenied("inputPolicy " + policy.wire()
                + " needs permission mode accept-edits or auto; the mode is " + mode.wire()));
    }
}

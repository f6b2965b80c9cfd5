package dev.deckhand.grant;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Stateful property test: random sequences of mint / acquire / consume / touch / usable / approve /
 * revise / bump / advance-clock / expire / revoke / stop against {@link GrantBroker} and
 * {@link ApprovalBook} with a {@link MutableClock}, checked step by step against a small model and
 * against the invariants of docs/design.md#grants: the budget never goes below zero; nothing acts after expiry,
 * revoke or Stop; the revision only increases; a second grant cannot be minted while one is active;
 * Stop latches until a new mint.
 *
 * <p>Each sequence has its own seed, drawn from a base seed (random per build, or
 * {@code -Dgrant.baseSeed=N}). A failure names the sequence seed; {@code -Dgrant.seed=N} replays just
 * that sequence.
 */
@Tag("pure")
class GrantBrokerPropertyTest {

    static final int SEQUENCES = 10_000;
    static final int MAX_OPS = 60;
    static final String[] SESSIONS = {"s1", "s2", "s3", "k1", "k2"};

    @Test
    void randomSequencesKeepTheInvariants() {
        Map<String, Integer> stats = new HashMap<>();
        String replay = System.getProperty("grant.seed");
        if (replay != null && !replay.isBlank()) {
            runOne(Long.parseLong(replay.trim()), stats, "replay");
            return;
        }
        long base = Long.getLong("grant.baseSeed", System.nanoTime());
        Random master = new Random(base);
        int ops = 0;
        for (int i = 0; i < SEQUENCES; i++) {
            ops += runOne(master.nextLong(), stats, "sequence " + i + " of base seed " + base);
        }
        // The generator must actually reach every interesting state, or the invariants prove little.
        for (String k : List.of(
                "mint:ok",
                "mint:conflict",
                "mint:MODE_DENIED",
                "acquire:ok",
                "acquire:OUT_OF_SCOPE",
                "acquire:subagent",
                "consume:ok",
                "consume:BUDGET_EXHAUSTED",
                "consume:GRANT_EXPIRED",
                "consume:GRANT_REVOKED",
                "consume:STOPPED",
                "consume:BASIS_STALE",
                "consume:OUT_OF_SCOPE",
                "consume:NO_GRANT",
                "revise:ok",
                "revise:MODE_DENIED",
                "bump:ok",
                "revoke:true",
                "stop:with-grant",
                "stop:latched",
                "approval:ok",
                "approval:STOPPED",
                "approval:CONSEQUENTIAL_NOT_NAMED",
                "approval:BASIS_STALE",
                "approval:GRANT_REVOKED",
                "approval:pending",
                "approval:then-acted",
                "usable:ok",
                "usable:BUDGET_EXHAUSTED",
                "touch:ok")) {
            assertTrue(
                    stats.getOrDefault(k, 0) > 0,
                    "generator never reached " + k + " in " + ops + " ops: " + new TreeMap<>(stats));
        }
    }

    private static int runOne(long seed, Map<String, Integer> stats, String where) {
        Sim sim = new Sim(seed, stats);
        try {
            return sim.run();
        } catch (AssertionError | RuntimeException e) {
            List<String> tail = new ArrayList<>();
            for (Supplier<String> l : sim.log.subList(Math.max(0, sim.log.size() - 25), sim.log.size())) {
                tail.add(l.get());
            }
            throw new AssertionError(
                    where + " failed: " + e + "\nreplay with -Dgrant.seed=" + seed + "\nlast operations:\n  "
                            + String.join("\n  ", tail),
                    e);
        }
    }

    /** One sequence: the system under test, the model, and the operations. */
    static final class Sim {
        final Random r;
        final Map<String, Integer> stats;
        final List<Supplier<String>> log = new ArrayList<>();
        final MutableClock clock = new MutableClock();
        final GrantBroker broker;
        final OwnerPass pass;
        final ApprovalBook book = new ApprovalBook(clock);
        final List<GrantBroker.Ended> endEvents = new ArrayList<>();
        int counter;

        // the model
        String activeId;
        boolean bound;
        final Set<String> family = new HashSet<>();
        int budget;
        Instant lastTouched;
        Duration idle;
        InputPolicy policy;
        long rev;
        long maxRev;
        boolean stopped;
        RefusalCode lastEnd;
        final Map<String, RefusalCode> endedCodes = new HashMap<>();
        final List<String> ids = new ArrayList<>();

        Sim(long seed, Map<String, Integer> stats) {
            this.r = new Random(seed);
            this.stats = stats;
            GrantBroker.Owned owned = GrantBroker.create(clock, () -> "g" + (++counter));
            this.broker = owned.broker();
            this.pass = owned.ownerPass();
            broker.onEnd(e -> {
                endEvents.add(e);
                e.grant().ifPresent(g -> book.cancelForGrant(g.id()));
            });
        }

        int run() {
            int n = 1 + r.nextInt(MAX_OPS);
            for (int i = 0; i < n; i++) {
                int op = r.nextInt(100);
                if (op < 12) {
                    mint();
                } else if (op < 24) {
                    acquire();
                } else if (op < 46) {
                    consume(null, null, null);
                } else if (op < 50) {
                    touch();
                } else if (op < 54) {
                    usable();
                } else if (op < 62) {
                    approval();
                } else if (op < 68) {
                    revise(null, null);
                } else if (op < 71) {
                    bump();
                } else if (op < 80) {
                    advance();
                } else if (op < 85) {
                    expire();
                } else if (op < 90) {
                    revoke();
                } else if (op < 94) {
                    stop();
                } else {
                    active();
                }
                invariantsAfterEveryOp();
            }
            return n;
        }

        // ---------- operations ----------

        void mint() {
            PermissionMode mode = pick(PermissionMode.values());
            InputPolicy pol = pick(InputPolicy.values());
            int b = 1 + r.nextInt(4);
            Duration id = Duration.ofSeconds(5 + r.nextInt(86));
            MintRequest req = MintRequest.of(
                            new GrantTarget(100 + r.nextInt(3), "mousepad", "t"),
                            ScopeKind.WINDOW,
                            PolicyConfig.Caps.defaults())
                    .withBudget(b)
                    .withIdleExpiry(id)
                    .withInputPolicy(pol);
            log(() -> "mint " + mode.wire() + " " + pol.wire() + " budget " + b + " idle " + id.toSeconds() + "s");
            if (!mode.allows(pol)) {
                expectRefused("mint", RefusalCode.MODE_DENIED, () -> broker.mint(pass, req, mode));
                return;
            }
            noticeExpiry();
            if (activeId != null) {
                try {
                    broker.mint(pass, req, mode);
                    fail("second mint succeeded while " + activeId + " is active");
                } catch (GrantConflictException e) {
                    check(
                            activeId.equals(e.activeGrantId()),
                            () -> "conflict names " + e.activeGrantId() + ", active is " + activeId);
                    count("mint:conflict");
                }
                return;
            }
            Grant g = broker.mint(pass, req, mode);
            count("mint:ok");
            check(g.revision() > maxRev, () -> "mint revision " + g.revision() + " not above " + maxRev);
            activeId = g.id();
            ids.add(g.id());
            bound = false;
            family.clear();
            budget = b;
            lastTouched = clock.instant();
            idle = id;
            policy = pol;
            rev = g.revision();
            stopped = false;
            lastEnd = null;
            checkGrant(g);
        }

        void acquire() {
            String s = pick(SESSIONS);
            String parent = r.nextInt(3) == 0 ? null : pick(SESSIONS);
            log(() -> "acquire " + s + " parent " + parent);
            noticeExpiry();
            RefusalCode code = expectedActive(null);
            if (code == null) {
                if (!bound || family.contains(s)) {
                    code = null;
                } else if (parent != null && family.contains(parent)) {
                    count("acquire:subagent");
                } else {
                    code = RefusalCode.OUT_OF_SCOPE;
                }
            }
            Grant g = expectRefused("acquire", code, () -> broker.acquire(s, parent));
            if (g != null) {
                if (!bound) {
                    check(g.revision() > rev, () -> "binding did not bump the revision");
                    rev = g.revision();
                    bound = true;
                    family.clear();
                }
                family.add(s);
                lastTouched = clock.instant();
                check(g.ownerSession().isPresent(), () -> "acquired grant has no owner session");
                checkGrant(g);
            }
        }

        /** Null arguments are drawn at random. Returns whether the consume succeeded. */
        boolean consume(String session, String grantId, Long revision) {
            String s = session != null ? session : pick(SESSIONS);
            String id = grantId != null ? grantId : pickId();
            long rv = revision != null ? revision : pickRev();
            log(() -> "consume " + s + " " + id + " rev " + rv);
            noticeExpiry();
            boolean stoppedBefore = stopped;
            boolean deadBefore = endedCodes.containsKey(id);
            RefusalCode code = expectedMember(s, id);
            if (code == null && rv != rev) {
                code = RefusalCode.BASIS_STALE;
            } else if (code == null && budget == 0) {
                code = RefusalCode.BUDGET_EXHAUSTED;
            }
            Instant expiresAt = lastTouched == null ? null : lastTouched.plus(idle);
            Grant g = expectRefused("consume", code, () -> broker.consume(s, id, rv));
            if (g != null) {
                // nothing acts after expiry, revoke or Stop
                check(!stoppedBefore && !deadBefore, () -> "acted on " + id + " after it ended or after Stop");
                check(
                        clock.instant().isBefore(expiresAt),
                        () -> "acted at " + clock.instant() + " after expiry " + expiresAt);
                budget--;
                check(budget >= 0, () -> "model budget below zero");
                lastTouched = clock.instant();
                checkGrant(g);
                return true;
            }
            return false;
        }

        void touch() {
            String s = pick(SESSIONS);
            String id = pickId();
            log(() -> "touch " + s + " " + id);
            noticeExpiry();
            Grant g = expectRefused("touch", expectedMember(s, id), () -> broker.touch(s, id));
            if (g != null) {
                lastTouched = clock.instant();
                checkGrant(g);
            }
        }

        void usable() {
            String s = pick(SESSIONS);
            String id = pickId();
            log(() -> "usable " + s + " " + id);
            noticeExpiry();
            RefusalCode code = expectedMember(s, id);
            if (code == null && budget == 0) {
                code = RefusalCode.BUDGET_EXHAUSTED;
            }
            Optional<Refusal> got = broker.usable(s, id);
            RefusalCode want = code;
            check(got.map(Refusal::code).orElse(null) == want, () -> "usable gave " + got + ", model expects " + want);
            count("usable:" + (code == null ? "ok" : code.name()));
        }

        /** Null arguments are drawn at random. */
        void revise(String grantId, PermissionMode modeOrNull) {
            String id = grantId != null ? grantId : pickId();
            PermissionMode mode = modeOrNull != null ? modeOrNull : pick(PermissionMode.values());
            GrantChange change = GrantChange.none();
            if (r.nextBoolean()) {
                change = change.withBudget(1 + r.nextInt(4));
            }
            if (r.nextBoolean()) {
                change = change.withInputPolicy(pick(InputPolicy.values()));
            }
            if (r.nextInt(5) == 0) {
                change = change.withReleaseSession(true);
            }
            GrantChange c = change;
            log(() -> "revise " + id + " " + mode.wire() + " " + c);
            noticeExpiry();
            RefusalCode code = expectedActive(id);
            InputPolicy newPolicy = c.inputPolicy() != null ? c.inputPolicy() : policy;
            if (code == null && !mode.allows(newPolicy)) {
                code = RefusalCode.MODE_DENIED;
            }
            Grant g = expectRefused("revise", code, () -> broker.revise(pass, id, c, mode));
            if (g != null) {
                check(g.revision() > rev, () -> "revise did not bump the revision");
                rev = g.revision();
                if (c.budget() != null) {
                    budget = c.budget();
                }
                policy = newPolicy;
                lastTouched = clock.instant();
                if (c.releaseSession()) {
                    bound = false;
                    family.clear();
                }
                checkGrant(g);
            }
        }

        void bump() {
            String s = pick(SESSIONS);
            String id = pickId();
            log(() -> "bump " + s + " " + id);
            noticeExpiry();
            Grant g = expectRefused("bump", expectedMember(s, id), () -> broker.bump(s, id));
            if (g != null) {
                check(g.revision() > rev, () -> "bump did not bump the revision");
                rev = g.revision();
                checkGrant(g);
            }
        }

        void advance() {
            long max = (idle == null ? 60_000 : idle.toMillis()) * 13 / 10;
            Duration d = Duration.ofMillis((long) (r.nextDouble() * max));
            log(() -> "advance " + d.toMillis() + "ms");
            clock.advance(d);
        }

        void expire() {
            if (lastTouched == null) {
                return;
            }
            Instant at = lastTouched.plus(idle).plusMillis(r.nextInt(3) - 1);
            if (!at.isBefore(clock.instant())) {
                log(() -> "set clock to expiry "
                        + (at.toEpochMilli() - lastTouched.plus(idle).toEpochMilli()) + "ms");
                clock.set(at);
            }
        }

        void revoke() {
            String id = pickId();
            log(() -> "revoke " + id);
            noticeExpiry();
            boolean expected = activeId != null && activeId.equals(id);
            boolean got = broker.revoke(id);
            check(got == expected, () -> "revoke returned " + got + ", model expects " + expected);
            count("revoke:" + got);
            if (got) {
                endModel(RefusalCode.GRANT_REVOKED);
            }
        }

        void stop() {
            log(() -> "stop");
            noticeExpiry();
            Optional<Grant> was = broker.stop("test");
            check(
                    was.map(Grant::id).orElse(null) == null
                            ? activeId == null
                            : was.get().id().equals(activeId),
                    () -> "stop revoked " + was + ", model active " + activeId);
            count(activeId != null ? "stop:with-grant" : "stop:latched");
            if (activeId != null) {
                endModel(RefusalCode.STOPPED);
            }
            lastEnd = RefusalCode.STOPPED;
            stopped = true;
            check(broker.stopped(), () -> "Stop did not latch");
        }

        void active() {
            log(() -> "active");
            noticeExpiry();
            Optional<Grant> g = broker.active();
            check(
                    g.map(Grant::id).orElse(null) == null
                            ? activeId == null
                            : g.get().id().equals(activeId),
                    () -> "active " + g + ", model " + activeId);
            g.ifPresent(this::checkGrant);
        }

        /** One confirm-each card from request to use, with a decision, time passing and maybe a change in between. */
        void approval() {
            log(() -> "approval: sync");
            active();
            if (activeId == null || !bound) {
                return;
            }
            String gid = activeId;
            long rv0 = rev;
            Optional<String> cons = r.nextBoolean() ? Optional.of("push button 'Send' (send)") : Optional.empty();
            ApprovalBook.Approval a = book.request(gid, rv0, null, List.of("click push button 'OK'"), cons);
            int d = r.nextInt(3);
            if (d == 0) {
                book.approve(a.id());
            } else if (d == 1) {
                book.deny(a.id());
            }
            long dt = (long) (r.nextDouble() * 40_000);
            clock.advance(Duration.ofMillis(dt));
            int m = r.nextInt(4);
            log(() -> "approval " + a.id() + " decision " + d + " after " + dt + "ms, middle " + m + ", consequential "
                    + cons.isPresent());
            if (m == 0) {
                revise(gid, PermissionMode.AUTO);
            } else if (m == 1) {
                stop();
            }
            boolean grantEnded = m != 2 && m != 3 && !gid.equals(activeId);
            long nowRev = gid.equals(activeId) ? rev : rv0;
            RefusalCode notApproved = cons.isPresent() ? RefusalCode.CONSEQUENTIAL_NOT_NAMED : RefusalCode.STOPPED;
            RefusalCode expected;
            boolean pending = false;
            if (grantEnded && d != 1) {
                expected = RefusalCode.GRANT_REVOKED;
            } else if (d == 1 || dt >= ApprovalBook.DEFAULT_TTL.toMillis()) {
                expected = notApproved;
            } else if (d == 2) {
                pending = true;
                expected = null;
            } else {
                expected = nowRev != rv0 ? RefusalCode.BASIS_STALE : null;
            }
            if (pending) {
                try {
                    book.consume(a.id(), gid, nowRev, null);
                    fail("consumed a pending approval");
                } catch (IllegalStateException e) {
                    count("approval:pending");
                }
                book.deny(a.id());
                check(
                        book.consume(a.id(), gid, nowRev, null)
                                        .map(Refusal::code)
                                        .orElse(null)
                                == notApproved,
                        () -> "denied approval not refused with " + notApproved);
                return;
            }
            Optional<Refusal> got = book.consume(a.id(), gid, nowRev, null);
            check(
                    got.map(Refusal::code).orElse(null) == expected,
                    () -> "approval consume gave " + got + ", expected " + expected);
            count("approval:" + (expected == null ? "ok" : expected.name()));
            // consumed at most once
            check(book.consume(a.id(), gid, nowRev, null).isPresent(), () -> "approval " + a.id() + " used twice");
            if (expected == null) {
                String owner = family.iterator().next();
                if (consume(owner, gid, nowRev)) {
                    count("approval:then-acted");
                }
            }
        }

        // ---------- model ----------

        void noticeExpiry() {
            if (activeId != null && !clock.instant().isBefore(lastTouched.plus(idle))) {
                endModel(RefusalCode.GRANT_EXPIRED);
            }
        }

        void endModel(RefusalCode code) {
            endedCodes.put(activeId, code);
            lastEnd = code;
            activeId = null;
            bound = false;
            family.clear();
        }

        RefusalCode expectedActive(String id) {
            if (stopped) {
                return RefusalCode.STOPPED;
            }
            if (activeId == null) {
                if (id != null && endedCodes.containsKey(id)) {
                    return endedCodes.get(id);
                }
                return lastEnd != null ? lastEnd : RefusalCode.NO_GRANT;
            }
            if (id != null && !id.equals(activeId)) {
                return endedCodes.getOrDefault(id, RefusalCode.NO_GRANT);
            }
            return null;
        }

        RefusalCode expectedMember(String session, String id) {
            RefusalCode c = expectedActive(id);
            if (c == null && !family.contains(session)) {
                return RefusalCode.OUT_OF_SCOPE;
            }
            return c;
        }

        // ---------- checks ----------

        void invariantsAfterEveryOp() {
            check(
                    broker.lastRevision() >= maxRev,
                    () -> "broker revision went down: " + broker.lastRevision() + " < " + maxRev);
            maxRev = broker.lastRevision();
            if (stopped) {
                // Stop latches until a new mint
                check(broker.stopped(), () -> "Stop latch lost without a mint");
                Optional<Refusal> u = broker.usable(pick(SESSIONS), activeId == null ? "g-any" : activeId);
                check(u.isPresent() && u.get().code() == RefusalCode.STOPPED, () -> "usable while stopped: " + u);
            }
        }

        void checkGrant(Grant g) {
            check(g.budgetRemaining() >= 0, () -> "budget below zero: " + g.budgetRemaining());
            check(g.id().equals(activeId), () -> "grant " + g.id() + " is not the model's active " + activeId);
            check(g.revision() == rev, () -> "revision " + g.revision() + ", model " + rev);
            check(g.budgetRemaining() == budget, () -> "budget " + g.budgetRemaining() + ", model " + budget);
            check(g.revision() >= maxRev, () -> "revision went down: " + g.revision() + " < " + maxRev);
            maxRev = Math.max(maxRev, g.revision());
        }

        Grant expectRefused(String op, RefusalCode expected, Supplier<Grant> call) {
            Grant g;
            try {
                g = call.get();
            } catch (RefusedException e) {
                check(
                        e.code() == expected,
                        () -> op + " refused " + e.refusal() + ", model expects "
                                + (expected == null ? "success" : expected));
                check(!e.refusal().detail().isBlank(), () -> "blank detail");
                count(op + ":" + e.code());
                return null;
            }
            check(expected == null, () -> op + " succeeded, model expects " + expected);
            count(op + ":ok");
            return g;
        }

        String pickId() {
            int x = r.nextInt(10);
            if (x < 7 && activeId != null) {
                return activeId;
            }
            if (x < 9 && !ids.isEmpty()) {
                return ids.get(r.nextInt(ids.size()));
            }
            return "g-unknown";
        }

        long pickRev() {
            return r.nextInt(5) == 0 ? Math.max(1, rev - 1 - r.nextInt(2)) : rev;
        }

        <T> T pick(T[] values) {
            return values[r.nextInt(values.length)];
        }

        void count(String k) {
            stats.merge(k, 1, Integer::sum);
        }

        void log(Supplier<String> s) {
            long t = clock.instant().toEpochMilli() % 10_000_000;
            log.add(() -> t + " " + s.get());
        }

        static void check(boolean ok, Supplier<String> message) {
            if (!ok) {
                throw new AssertionError(message.get());
            }
        }

        static void fail(String message) {
            throw new AssertionError(message);
        }
    }
}

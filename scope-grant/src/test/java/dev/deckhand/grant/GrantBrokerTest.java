package dev.deckhand.grant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

@Tag("pure")
class GrantBrokerTest {

    MutableClock clock;
    GrantBroker broker;
    OwnerPass pass;
    List<GrantBroker.Ended> ended;

    static final GrantTarget TARGET = new GrantTarget(0x100, "mousepad", "notes.txt");

    @BeforeEach
    void setUp() {
        clock = new MutableClock();
        GrantBroker.Owned owned = GrantBroker.create(clock);
        broker = owned.broker();
        pass = owned.ownerPass();
        ended = new ArrayList<>();
        broker.onEnd(ended::add);
    }

    MintRequest request() {
        return MintRequest.of(TARGET, ScopeKind.WINDOW, PolicyConfig.Caps.defaults())
                .withBudget(3)
                .withIdleExpiry(Duration.ofSeconds(60));
    }

    Grant mint() {
        return broker.mint(pass, request(), PermissionMode.ASK);
    }

    static Refusal refused(RefusalCode code, Executable call) {
        RefusedException e = assertThrows(RefusedException.class, call);
        assertEquals(code, e.code(), e.refusal().toString());
        return e.refusal();
    }

    @Test
    void ownerPassCannotBeMadeOutsideThePackageOrBorrowedFromAnotherBroker() {
        for (var c : OwnerPass.class.getDeclaredConstructors()) {
            assertFalse(Modifier.isPublic(c.getModifiers()) || Modifier.isProtected(c.getModifiers()), c.toString());
        }
        for (var c : GrantBroker.class.getDeclaredConstructors()) {
            assertTrue(Modifier.isPrivate(c.getModifiers()), c.toString());
        }
        assertTrue(Modifier.isFinal(OwnerPass.class.getModifiers()));
        OwnerPass foreign = GrantBroker.create(clock).ownerPass();
        assertThrows(SecurityException.class, () -> broker.mint(foreign, request(), PermissionMode.AUTO));
        assertThrows(SecurityException.class, () -> broker.mint(null, request(), PermissionMode.AUTO));
        Grant g = mint();
        assertThrows(
                SecurityException.class, () -> broker.revise(foreign, g.id(), GrantChange.none(), PermissionMode.AUTO));
        assertEquals("OwnerPass", pass.toString());
    }

    @Test
    void noGrantBeforeAnyMint() {
        Refusal r = refused(RefusalCode.NO_GRANT, () -> broker.acquire("s1", null));
        assertTrue(r.detail().contains("no active grant"));
        assertEquals(Optional.empty(), broker.active());
    }

    @Test
    void atMostOneActiveGrant() {
        Grant g = mint();
        GrantConflictException e = assertThrows(GrantConflictException.class, this::mint);
        assertEquals(g.id(), e.activeGrantId());
        assertTrue(e.getMessage().contains(g.id()));
        assertEquals(
                IllegalStateException.class,
                GrantConflictException.class.getSuperclass(),
                "callers that catch IllegalStateException see it");
        assertTrue(broker.revoke(g.id()));
        Grant second = mint();
        assertTrue(second.revision() > g.revision());
    }

    @Test
    void autonomousOnlyInAcceptEditsOrAuto() {
        MintRequest auto = request().withInputPolicy(InputPolicy.AUTONOMOUS);
        Refusal r = refused(RefusalCode.MODE_DENIED, () -> broker.mint(pass, auto, PermissionMode.ASK));
        assertTrue(r.detail().contains("autonomous") && r.detail().contains("ask"), r.detail());
        assertEquals(Optional.empty(), broker.active());
        Grant g = broker.mint(pass, auto, PermissionMode.ACCEPT_EDITS);
        assertEquals(InputPolicy.AUTONOMOUS, g.inputPolicy());
        broker.revoke(g.id());
        assertEquals(
                InputPolicy.AUTONOMOUS,
                broker.mint(pass, auto, PermissionMode.AUTO).inputPolicy());
    }

    @Test
    void firstSessionOwnsItSubagentsInheritOthersAreOutOfScope() {
        Grant g = mint();
        Grant bound = broker.acquire("main", null);
        assertEquals(Optional.of("main"), bound.ownerSession());
        assertTrue(bound.revision() > g.revision(), "binding is a re-bind: the revision moves");
        assertEquals(bound.revision(), broker.acquire("main", null).revision());
        assertEquals(Optional.of("main"), broker.acquire("sub", "main").ownerSession());
        broker.acquire("subsub", "sub");
        broker.consume("subsub", g.id(), bound.revision());
        Refusal r = refused(RefusalCode.OUT_OF_SCOPE, () -> broker.acquire("other", null));
        assertTrue(r.detail().contains(g.id()) && r.detail().contains("another MCP session"), r.detail());
        refused(RefusalCode.OUT_OF_SCOPE, () -> broker.acquire("other", "stranger"));
        refused(RefusalCode.OUT_OF_SCOPE, () -> broker.consume("other", g.id(), bound.revision()));
    }

    @Test
    void consumingBeforeAcquiringIsOutOfScope() {
        Grant g = mint();
        Refusal r = refused(RefusalCode.OUT_OF_SCOPE, () -> broker.consume("s1", g.id(), g.revision()));
        assertTrue(r.detail().contains("not been acquired"));
    }

    @Test
    void budgetIsSpentOnePerActionAndNeverGoesBelowZero() {
        Grant g = mint();
        long rev = broker.acquire("s1", null).revision();
        assertEquals(2, broker.consume("s1", g.id(), rev).budgetRemaining());
        assertEquals(1, broker.consume("s1", g.id(), rev).budgetRemaining());
        assertEquals(0, broker.consume("s1", g.id(), rev).budgetRemaining());
        for (int i = 0; i < 3; i++) {
            Refusal r = refused(RefusalCode.BUDGET_EXHAUSTED, () -> broker.consume("s1", g.id(), rev));
            assertTrue(r.detail().contains(g.id()));
        }
        assertEquals(0, broker.active().orElseThrow().budgetRemaining());
        assertEquals(
                RefusalCode.BUDGET_EXHAUSTED,
                broker.usable("s1", g.id()).orElseThrow().code());
        // the person may top it up
        Grant topped = broker.revise(pass, g.id(), GrantChange.none().withBudget(2), PermissionMode.ASK);
        assertEquals(2, broker.consume("s1", g.id(), topped.revision()).budgetRemaining() + 1);
    }

    @Test
    void blindInputIsThePersonsOnAPixelsGrantAndEndsWithThePixels() {
        Grant g = mint();
        assertFalse(g.blindInput(), "off unless the person says so");
        // on an a11y_only grant there is nothing to allow it on: refused, the grant and its revision unchanged
        assertThrows(
                IllegalArgumentException.class,
                () -> broker.revise(pass, g.id(), GrantChange.none().withBlindInput(true), PermissionMode.ASK));
        assertEquals(g, broker.active().orElseThrow());
        Grant blind = broker.revise(
                pass,
                g.id(),
                GrantChange.none().withCapture(CaptureMode.PIXELS).withBlindInput(true),
                PermissionMode.ASK);
        assertTrue(blind.blindInput());
        assertEquals(g.revision() + 1, blind.revision(), "a change of what the grant allows is a new revision");
        assertTrue(broker.revise(pass, g.id(), GrantChange.none().withBudget(3), PermissionMode.ASK)
                .blindInput());
        Grant narrowed =
                broker.revise(pass, g.id(), GrantChange.none().withCapture(CaptureMode.A11Y_ONLY), PermissionMode.ASK);
        assertFalse(narrowed.blindInput(), "narrowed to accessibility only, blind input ends with the pixels");
    }

    @Test
    void staleRevisionIsRefusedWhenConsuming() {
        Grant g = mint();
        long rev = broker.acquire("s1", null).revision();
        Grant bumped = broker.bump("s1", g.id());
        assertTrue(bumped.revision() > rev);
        Refusal r = refused(RefusalCode.BASIS_STALE, () -> broker.consume("s1", g.id(), rev));
        assertTrue(r.detail().contains(String.valueOf(bumped.revision())));
        assertEquals(3, bumped.budgetRemaining(), "a refused action spends nothing");
    }

    @Test
    void idleExpiryEndsTheGrantAtTheBoundary() {
        Grant g = mint();
        long rev = broker.acquire("s1", null).revision();
        clock.advance(Duration.ofSeconds(59));
        broker.touch("s1", g.id());
        clock.advance(Duration.ofSeconds(59));
        broker.consume("s1", g.id(), rev); // touched again
        clock.advance(Duration.ofSeconds(60));
        Refusal r = refused(RefusalCode.GRANT_EXPIRED, () -> broker.consume("s1", g.id(), rev));
        assertTrue(r.detail().contains(g.id()) && r.detail().contains("60 s"), r.detail());
        assertEquals(Optional.empty(), broker.active());
        refused(RefusalCode.GRANT_EXPIRED, () -> broker.acquire("s1", null));
        assertEquals(1, ended.size());
        assertEquals(RefusalCode.GRANT_EXPIRED, ended.get(0).why().code());
        assertEquals(g.id(), ended.get(0).grant().orElseThrow().id());
        mint(); // an expired grant no longer blocks minting
    }

    @Test
    void revokeEndsTheGrant() {
        Grant g = mint();
        long rev = broker.acquire("s1", null).revision();
        assertFalse(broker.revoke("g-other"));
        assertTrue(broker.revoke(g.id()));
        assertFalse(broker.revoke(g.id()));
        Refusal r = refused(RefusalCode.GRANT_REVOKED, () -> broker.consume("s1", g.id(), rev));
        assertTrue(r.detail().contains(g.id()));
        refused(RefusalCode.GRANT_REVOKED, () -> broker.acquire("s1", null));
        refused(RefusalCode.GRANT_REVOKED, () -> broker.revise(pass, g.id(), GrantChange.none(), PermissionMode.ASK));
        assertEquals(RefusalCode.GRANT_REVOKED, ended.get(0).why().code());
    }

    @Test
    void stopLatchesUntilTheNextMint() {
        Grant g = mint();
        long rev = broker.acquire("s1", null).revision();
        assertEquals(g.id(), broker.stop("web page").orElseThrow().id());
        assertTrue(broker.stopped());
        Refusal r = refused(RefusalCode.STOPPED, () -> broker.consume("s1", g.id(), rev));
        assertTrue(r.detail().contains("web page"));
        refused(RefusalCode.STOPPED, () -> broker.acquire("s1", null));
        refused(RefusalCode.STOPPED, () -> broker.acquire("s2", null));
        // time passing, revoking, stopping again: still latched
        clock.advance(Duration.ofHours(1));
        broker.revoke(g.id());
        assertEquals(Optional.empty(), broker.stop("shortcut"));
        refused(RefusalCode.STOPPED, () -> broker.acquire("s1", null));
        assertEquals(RefusalCode.STOPPED, ended.get(ended.size() - 1).why().code());
        Grant next = mint();
        assertFalse(broker.stopped());
        assertTrue(next.revision() > rev);
        broker.acquire("s2", null);
    }

    @Test
    void stopWithoutAGrantStillLatches() {
        broker.stop("mcp cancel");
        refused(RefusalCode.STOPPED, () -> broker.acquire("s1", null));
        assertEquals(1, ended.size());
        assertTrue(ended.get(0).grant().isEmpty());
    }

    @Test
    void reviseAppliesTheChangeBumpsAndChecksTheMode() {
        Grant g = mint();
        long rev = broker.acquire("s1", null).revision();
        refused(
                RefusalCode.MODE_DENIED,
                () -> broker.revise(
                        pass, g.id(), GrantChange.none().withInputPolicy(InputPolicy.AUTONOMOUS), PermissionMode.ASK));
        Grant r = broker.revise(
                pass,
                g.id(),
                GrantChange.none()
                        .withInputPolicy(InputPolicy.AUTONOMOUS)
                        .withCapture(CaptureMode.PIXELS)
                        .withConsequential(Set.of("Send", "push button:Delete"))
                        .withTarget(new GrantTarget(0x101, "mousepad", "renamed")),
                PermissionMode.AUTO);
        assertTrue(r.revision() > rev);
        assertEquals(InputPolicy.AUTONOMOUS, r.inputPolicy());
        assertEquals(CaptureMode.PIXELS, r.capture());
        assertEquals(Set.of("send", "push button:Delete"), r.consequential());
        assertEquals(0x101, r.target().windowId());
        assertEquals(Optional.of("s1"), r.ownerSession());
        Grant released = broker.revise(pass, g.id(), GrantChange.none().withReleaseSession(true), PermissionMode.AUTO);
        assertEquals(Optional.empty(), released.ownerSession());
        refused(RefusalCode.OUT_OF_SCOPE, () -> broker.consume("s1", g.id(), released.revision()));
        assertEquals(Optional.of("s2"), broker.acquire("s2", null).ownerSession());
    }

    @Test
    void concurrentConsumersNeverOverspend() throws InterruptedException {
        Grant g = broker.mint(pass, request().withBudget(1000).withIdleExpiry(Duration.ofHours(1)), PermissionMode.ASK);
        long rev = broker.acquire("main", null).revision();
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger exhausted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            String session = "sub" + t;
            broker.acquire(session, "main");
            Thread th = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 200; i++) {
                    try {
                        broker.consume(session, g.id(), rev);
                        ok.incrementAndGet();
                    } catch (RefusedException e) {
                        if (e.code() == RefusalCode.BUDGET_EXHAUSTED) {
                            exhausted.incrementAndGet();
                        }
                    }
                }
            });
            threads.add(th);
            th.start();
        }
        start.countDown();
        for (Thread th : threads) {
            th.join();
        }
        assertEquals(1000, ok.get());
        assertEquals(600, exhausted.get());
        assertEquals(0, broker.active().orElseThrow().budgetRemaining());
    }

    @Test
    void blankSessionIsRejectedNamingTheArgument() {
        mint();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> broker.acquire(" ", null));
        assertTrue(e.getMessage().contains("sessionId"));
    }
}

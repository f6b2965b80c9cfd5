package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.GrantTarget;
import dev.deckhand.grant.InputPolicy;
import dev.deckhand.grant.MintRequest;
import dev.deckhand.grant.PermissionMode;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.grant.ScopeKind;
import dev.deckhand.loop.ComputerLoop;
import dev.deckhand.loop.GrantScope;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.StopLatch;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.fakes.CountingVerifier;
import dev.deckhand.loop.fakes.MutableClock;
import dev.deckhand.loop.fakes.RecordingAudit;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.verify.VerifierRunner;
import dev.deckhand.loop.verify.VerifierSpec;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A facts read that misses its bound once (a loaded machine) is read again before the guard refuses; one that
 * keeps missing it refuses {@code A11Y_UNAVAILABLE} and nothing is delivered.
 */
@Tag("pure")
class SlowFactsTest {

    /** A world whose facts time out on the reads numbered in {@code slow} (1-based). */
    static final class SlowWorld extends HostileWorld {
        final java.util.function.IntPredicate slow;
        int reads;

        SlowWorld(java.util.function.IntPredicate slow) {
            super(new Random(1), 1, false, false, 0);
            this.slow = slow;
        }

        @Override
        public DesktopFacts current() {
            if (slow.test(++reads)) {
                throw new RefusedException(RefusalCode.A11Y_UNAVAILABLE, "facts did not finish within 2000 ms");
            }
            return super.current();
        }
    }

    private static RunResult run(SlowWorld world) {
        MutableClock clock = new MutableClock();
        GrantBroker.Owned owned = GrantBroker.create(clock, () -> "g1");
        GrantBroker broker = owned.broker();
        broker.mint(
                owned.ownerPass(),
                MintRequest.of(
                                new GrantTarget(
                                        HostileWorld.TARGET,
                                        "testapp",
                                        "Compose",
                                        HostileWorld.PID,
                                        HostileWorld.START),
                                ScopeKind.WINDOW,
                                PolicyConfig.Caps.defaults())
                        .withBudget(5)
                        .withInputPolicy(InputPolicy.AUTONOMOUS),
                PermissionMode.AUTO);
        Grant g = broker.acquire("s1", null);
        world.revision = g.revision();
        StopLatch stop = new StopLatch();
        GrantGuard guard = new GrantGuard(
                () -> PolicyConfig.defaults().withPermissionMode(PermissionMode.AUTO),
                broker,
                new ApprovalBook(clock),
                world.desktop(),
                "s1",
                "g1",
                stop,
                clock,
                (c, s) -> {});
        GrantScope scope = new GrantScope() {
            @Override
            public long windowId() {
                return HostileWorld.TARGET;
            }

            @Override
            public long revision() {
                return broker.active().map(Grant::revision).orElse(g.revision());
            }

            @Override
            public CaptureMode captureMode() {
                return CaptureMode.A11Y_ONLY;
            }
        };
        return ComputerLoop.builder()
                .desktop(world.desktop())
                .decider(ScriptedDecider.of(
                        "{\"action\":\"click\",\"uid\":\"r2-OK\"}", "{\"action\":\"done\",\"summary\":\"ok\"}"))
                .guard(guard)
                .audit(new RecordingAudit())
                .clock(clock)
                .stop(stop)
                .scope(scope)
                .verifier(new VerifierRunner(new CountingVerifier()))
                .sleeper(d -> {})
                .build()
                .run(RunRequest.of("run", "press OK", Optional.of(new VerifierSpec.Window("Compose"))));
    }

    @Test
    void aReadThatMissesItsBoundOnceIsReadAgain() {
        SlowWorld world = new SlowWorld(n -> n == 2);
        RunResult r = run(world);
        assertEquals(Optional.empty(), r.refusal(), r.toString());
        assertEquals(1, world.delivered, "the click was delivered after the second read");
        assertEquals(List.of(), world.violations);
    }

    @Test
    void aReadThatMissesItsBoundTwiceIsReadAThirdTime() {
        SlowWorld world = new SlowWorld(n -> n == 2 || n == 3);
        RunResult r = run(world);
        assertEquals(Optional.empty(), r.refusal(), r.toString());
        assertEquals(1, world.delivered, "the click was delivered after the third read");
        assertEquals(List.of(), world.violations);
    }

    @Test
    void aReadThatKeepsMissingItsBoundRefusesAndDeliversNothing() {
        SlowWorld world = new SlowWorld(n -> n >= 2);
        RunResult r = run(world);
        assertEquals(RefusalCode.A11Y_UNAVAILABLE, r.refusal().orElseThrow().code(), r.toString());
        assertEquals(0, world.delivered);
    }
}

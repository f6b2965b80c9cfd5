package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import dev.deckhand.grant.ScopeKind;
import dev.deckhand.loop.ComputerLoop;
import dev.deckhand.loop.GrantScope;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.StopLatch;
import dev.deckhand.loop.fakes.CountingVerifier;
import dev.deckhand.loop.fakes.MutableClock;
import dev.deckhand.loop.fakes.RecordingAudit;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.verify.VerifierRunner;
import dev.deckhand.loop.verify.VerifierSpec;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The last check runs after the drawn cursor's travel and before every typed chunk; the budget unit follows. */
@Tag("pure")
class LastCheckTest {

    record Run(RunResult result, HostileWorld world, int budgetLeft) {}

    private static Run run(String action, StopLatch stop, java.util.function.Consumer<HostileWorld> onTravelOrChunk) {
        return run(action, stop, w -> {}, onTravelOrChunk);
    }

    private static Run run(
            String action,
            StopLatch stop,
            java.util.function.Consumer<HostileWorld> before,
            java.util.function.Consumer<HostileWorld> onTravelOrChunk) {
        MutableClock clock = new MutableClock();
        HostileWorld world = new HostileWorld(new java.util.Random(1), 1, false, false, 0) {
            int calls;

            @Override
            void maybeMutate() {
                if (++calls == 1)
                    onTravelOrChunk.accept(this); // the travel of a click, or between the first two chunks
                noteState();
            }
        };
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
        before.accept(world);
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
        RunResult r = ComputerLoop.builder()
                .desktop(world.desktop())
                .decider(ScriptedDecider.of(action))
                .guard(guard)
                .audit(new RecordingAudit())
                .clock(clock)
                .stop(stop)
                .scope(scope)
                .verifier(new VerifierRunner(new CountingVerifier()))
                .sleeper(d -> {})
                .build()
                .run(RunRequest.of("run", "write", Optional.of(new VerifierSpec.Window("Compose"))));
        return new Run(r, world, broker.active().map(Grant::budgetRemaining).orElse(-1));
    }

    @Test
    void stopDuringTheCursorsTravelStopsTheClick() {
        StopLatch stop = new StopLatch();
        Run r = run("{\"action\":\"click\",\"uid\":\"r2-OK\"}", stop, w -> stop.stop());
        assertEquals(
                RefusalCode.STOPPED,
                r.result().refusal().orElseThrow().code(),
                r.result().toString());
        assertEquals(0, r.world().delivered, "the click was not delivered");
        assertEquals(5, r.budgetLeft(), "the reserved unit went back");
    }

    /**
     * Round 18's R2: a page changed its dialog's text to "Delete all 3 files now?" after the step's look and before the
     * press of its OK. The last check judges on the window read again: refused, nothing delivered, the unit back.
     */
    @Test
    void aDialogWhoseTextTurnsConsequentialDuringTheTravelIsJudgedOnItsNewText() {
        Run r = run(
                "{\"action\":\"click\",\"uid\":\"r2-OK\"}",
                new StopLatch(),
                w -> w.dialogWindow = true,
                w -> w.gatedDialog = true);
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                r.result().refusal().orElseThrow().code(),
                r.result().toString());
        assertTrue(
                r.result().refusal().get().detail().contains("delete"),
                r.result().toString());
        assertEquals(0, r.world().delivered, "the click was not delivered");
        assertEquals(5, r.budgetLeft(), "the reserved unit went back");
    }

    /**
     * Round 19's T3g: a page added 2,500 nodes before its dialog's new question, so the walk before the press was cut
     * (partial) before the question. A tree whole when the step was judged and partial at the last check refuses.
     */
    @Test
    void aTreeThatGrewPartialSinceTheCheckRefusesTheClick() {
        Run r = run("{\"action\":\"click\",\"uid\":\"r2-OK\"}", new StopLatch(), w -> w.grown = true);
        assertEquals(
                RefusalCode.A11Y_UNAVAILABLE,
                r.result().refusal().orElseThrow().code(),
                r.result().toString());
        assertTrue(
                r.result().refusal().get().detail().contains("grew past what Deckhand reads"),
                r.result().toString());
        assertEquals(0, r.world().delivered, "the click was not delivered");
        assertEquals(5, r.budgetLeft(), "the reserved unit went back");
    }

    @Test
    void typingStopsAtTheFirstChunkAfterTheFocusMoves() {
        AtomicReference<String> seen = new AtomicReference<>();
        Run r = run("{\"action\":\"type\",\"text\":\"" + "a".repeat(80) + "\"}", new StopLatch(), w -> {
            w.focus = HostileWorld.El.BODY; // the person clicks into another field between two chunks
            seen.set("moved");
        });
        assertEquals("moved", seen.get());
        assertEquals(
                RefusalCode.OUT_OF_SCOPE,
                r.result().refusal().orElseThrow().code(),
                r.result().toString());
        assertTrue(
                r.result().refusal().get().detail().contains("focus moved"),
                r.result().refusal().get().detail());
        assertEquals(1, r.world().delivered, "the first chunk was typed, nothing after the focus moved");
        assertEquals(4, r.budgetLeft(), "a partly typed text spends its unit");
        assertEquals(java.util.List.of(), r.world().violations);
    }
}

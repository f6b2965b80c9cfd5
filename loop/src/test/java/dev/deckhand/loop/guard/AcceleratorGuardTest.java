package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.Accelerators;
import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.GrantTarget;
import dev.deckhand.grant.InputPolicy;
import dev.deckhand.grant.MintRequest;
import dev.deckhand.grant.PermissionMode;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.ProposedAction;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The guard reads the target's menu accelerators for a {@code key} and the policy judges the chord by them. */
@Tag("pure")
class AcceleratorGuardTest {

    static final ProposedAction.Element SEND_ITEM =
            new ProposedAction.Element("menu item", "Send", false, false, false);

    record Run(RunResult result, HostileWorld world) {}

    private static Run run(String chord, Accelerators accelerators, Set<String> named) {
        MutableClock clock = new MutableClock();
        HostileWorld world = new HostileWorld(new java.util.Random(1), 1, false, false, 0);
        world.accelerators = accelerators;
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
                        .withInputPolicy(InputPolicy.AUTONOMOUS)
                        .withConsequential(named),
                PermissionMode.AUTO);
        Grant g = broker.acquire("s1", null);
        world.revision = g.revision();
        GrantGuard guard = new GrantGuard(
                () -> PolicyConfig.defaults().withPermissionMode(PermissionMode.AUTO),
                broker,
                new ApprovalBook(clock),
                world.desktop(),
                "s1",
                "g1",
                new StopLatch(),
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
                .decider(ScriptedDecider.of("{\"action\":\"key\",\"keys\":\"" + chord + "\"}"))
                .guard(guard)
                .audit(new RecordingAudit())
                .clock(clock)
                .stop(new StopLatch())
                .scope(scope)
                .verifier(new VerifierRunner(new CountingVerifier()))
                .sleeper(d -> {})
                .build()
                .run(RunRequest.of("run", "press", Optional.of(new VerifierSpec.Window("Compose"))));
        return new Run(r, world);
    }

    @Test
    void theAcceleratorOfSendIsRefusedWhateverTheModelCallsItAndRunsWhenNamed() {
        Accelerators acc = Accelerators.read(List.of(new Accelerators.Binding(SEND_ITEM, "<Primary>d")), 1);
        for (String chord : List.of("ctrl+d", "ctrl+D")) {
            Run r = run(chord.equals("ctrl+D") ? "ctrl+shift+d" : chord, acc, Set.of());
            if (chord.equals("ctrl+D")) {
                // ctrl+shift+d is another chord: no accelerator of Send; in the text field it may start an input
                // method's entry (round 20's D4), which is refused as that, not as Send
                assertEquals(
                        Optional.of(dev.deckhand.grant.RefusalCode.CONSEQUENTIAL_NOT_NAMED),
                        r.result().refusal().map(x -> x.code()),
                        r.result().toString());
                String detail = r.result().refusal().orElseThrow().detail();
                assertTrue(detail.contains("Unicode or emoji entry") && !detail.contains("accelerator of"), detail);
                continue;
            }
            assertEquals(
                    RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                    r.result().refusal().orElseThrow().code(),
                    r.result().toString());
            assertTrue(
                    r.result().refusal().get().detail().contains("accelerator of menu item (name of 4 characters)"),
                    r.result().refusal().get().detail());
            assertEquals(0, r.world().delivered);
        }
        Run unknown = run("ctrl+d", Accelerators.UNKNOWN, Set.of());
        assertEquals(1, unknown.world().delivered, unknown.result().toString());
        Run named = run("ctrl+d", acc, Set.of("menu item:Send"));
        assertEquals(1, named.world().delivered, named.result().toString());
    }

    @Test
    void aCtrlChordOnAWindowWhoseAcceleratorsCannotBeReadIsRefused() {
        Run r = run("ctrl+d", Accelerators.read(List.of(new Accelerators.Binding(SEND_ITEM, "")), 1), Set.of());
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                r.result().refusal().orElseThrow().code(),
                r.result().toString());
        assertEquals(0, r.world().delivered);
    }
}

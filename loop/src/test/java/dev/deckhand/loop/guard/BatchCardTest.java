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
import dev.deckhand.loop.steps.StepParser;
import dev.deckhand.loop.verify.VerifierRunner;
import dev.deckhand.loop.verify.VerifierSpec;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The one card of a confirm-each batch of explicit steps says when a step is consequential: denying a batch
 * that presses an unnamed Send is {@code CONSEQUENTIAL_NOT_NAMED}, as for a single action; a plain batch
 * denied stays {@code STOPPED}.
 */
@Tag("pure")
class BatchCardTest {

    record Outcome(RunResult result, ApprovalBook.Approval card, int delivered) {}

    private static Outcome deny(String stepsJson) {
        MutableClock clock = new MutableClock();
        HostileWorld world = new HostileWorld(new java.util.Random(1), 1, false, false, 0);
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
                        .withInputPolicy(InputPolicy.CONFIRM_EACH),
                PermissionMode.ASK);
        Grant g = broker.acquire("s1", null);
        world.revision = g.revision();
        ApprovalBook book = new ApprovalBook(clock);
        AtomicReference<ApprovalBook.Approval> raised = new AtomicReference<>();
        GrantGuard guard = new GrantGuard(
                PolicyConfig::defaults,
                broker,
                book,
                world.desktop(),
                "s1",
                "g1",
                new StopLatch(),
                clock,
                (card, status) -> {
                    if (status == ApprovalBook.Status.PENDING) {
                        raised.set(card);
                        book.deny(card.id()); // the person says no
                    }
                });
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
        RunRequest request = RunRequest.of("run", "press the buttons", Optional.of(new VerifierSpec.Window("Compose")))
                .withSteps(StepParser.fromJson(dev.deckhand.loop.json.Json.parse(stepsJson)));
        RunResult r = ComputerLoop.builder()
                .desktop(world.desktop())
                .decider(ScriptedDecider.of())
                .guard(guard)
                .audit(new RecordingAudit())
                .clock(clock)
                .stop(new StopLatch())
                .scope(scope)
                .verifier(new VerifierRunner(new CountingVerifier()))
                .sleeper(d -> {})
                .build()
                .run(request);
        return new Outcome(r, raised.get(), world.delivered);
    }

    @Test
    void aDeniedBatchThatPressesSendIsConsequentialNotNamed() {
        Outcome o = deny("[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}},"
                + "{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Send\"}}]");
        assertTrue(o.card().consequential().isPresent(), "the card names the gated step: " + o.card());
        assertTrue(
                o.card().consequential().get().contains("step 2"),
                o.card().consequential().get());
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                o.result().refusal().orElseThrow().code(),
                o.result().toString());
        assertEquals(0, o.delivered(), "nothing of the batch was delivered");
    }

    @Test
    void aDeniedPlainBatchIsStopped() {
        Outcome o = deny("[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}}]");
        assertTrue(o.card().consequential().isEmpty(), o.card().toString());
        assertEquals(
                RefusalCode.STOPPED,
                o.result().refusal().orElseThrow().code(),
                o.result().toString());
        assertEquals(0, o.delivered());
    }
}

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
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.fakes.CountingVerifier;
import dev.deckhand.loop.fakes.MutableClock;
import dev.deckhand.loop.fakes.RecordingAudit;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.steps.StepParser;
import dev.deckhand.loop.verify.VerifierRunner;
import dev.deckhand.loop.verify.VerifierSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every step of a confirm-each batch is judged when it runs, against what its one card showed: the card
 * approves the elements it named (role, name, uid in its revision) and the actions it showed; a step whose
 * target was not on screen when the card was shown, or that now resolves to another element, raises a card
 * of its own, and the consequential gate runs for every step.
 */
@Tag("pure")
class BatchStepsTest {

    /** The compose window of {@link HostileWorld}; clicking OK replaces its Next button and adds a Later button. */
    static final class OpeningWorld extends HostileWorld {
        boolean opened;
        final List<String> pressed = new ArrayList<>();

        OpeningWorld() {
            super(new java.util.Random(1), 1, false, false, 0);
        }

        @Override
        public void click(String uid) {
            String el = uid.substring(uid.indexOf('-') + 1);
            if (!uid.startsWith("r" + revision + "-")) throw new AssertionError("stale uid " + uid);
            if (el.startsWith("NEXT") || el.equals("LATER")) {
                delivered++;
                pressed.add(el);
                return;
            }
            super.click(uid);
            pressed.add(el);
            if (el.equals("OK")) opened = true;
        }

        @Override
        ScopedTree tree() {
            List<Node> nodes = new ArrayList<>(super.tree().nodes());
            // the same label on another element after OK: GTK rebuilt the button
            nodes.add(button(opened ? "NEXT2" : "NEXT1", "Next"));
            if (opened) nodes.add(button("LATER", "Later"));
            return new ScopedTree(TARGET, revision, nodes, false);
        }

        private Node button(String id, String name) {
            return new Node(
                    "r" + revision + "-" + id,
                    1,
                    "push button",
                    name,
                    false,
                    null,
                    true,
                    false,
                    false,
                    true,
                    new dev.deckhand.loop.desktop.Geometry(600, 600, 80, 30));
        }
    }

    record Outcome(RunResult result, List<ApprovalBook.Approval> cards, OpeningWorld world) {}

    /** Runs {@code stepsJson} on a confirm-each grant; the person approves card {@code n} (0-based) when {@code approve}. */
    private static Outcome run(OpeningWorld world, String stepsJson, IntPredicate approve) {
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
                        .withBudget(10)
                        .withInputPolicy(InputPolicy.CONFIRM_EACH),
                PermissionMode.ASK);
        Grant g = broker.acquire("s1", null);
        world.revision = g.revision();
        ApprovalBook book = new ApprovalBook(clock);
        List<ApprovalBook.Approval> cards = new ArrayList<>();
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
                    if (status != ApprovalBook.Status.PENDING) return;
                    if (approve.test(cards.size())) book.approve(card.id());
                    else book.deny(card.id());
                    cards.add(card);
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
        return new Outcome(r, cards, world);
    }

    private static String click(String name) {
        return "{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"" + name + "\"}}";
    }

    @Test
    void stepsThatResolveAsTheCardShowedThemRunOnOneCard() {
        Outcome o = run(
                new OpeningWorld(),
                "[" + click("OK") + ",{\"action\":\"set_text\",\"target\":{\"role\":"
                        + "\"text\",\"name\":\"To\"},\"text\":\"bob\"},{\"action\":\"key\",\"keys\":\"ctrl+s\"}]",
                n -> true);
        assertEquals(1, o.cards().size(), "one card for steps that resolve to the elements it named: " + o.cards());
        assertTrue(o.result().refusal().isEmpty(), o.result().toString());
        assertEquals(3, o.result().stepsRun());
    }

    @Test
    void aTargetThatWasNotOnScreenWhenTheCardWasShownRaisesACardForThatStep() {
        Outcome o = run(new OpeningWorld(), "[" + click("OK") + "," + click("Later") + "]", n -> n == 0);
        assertEquals(2, o.cards().size(), "a second card, for step 2: " + o.cards());
        assertTrue(
                o.cards().get(0).steps().get(1).contains("not on screen yet"),
                o.cards().get(0).steps().toString());
        String second = o.cards().get(1).steps().get(0);
        assertTrue(second.startsWith("step 2 (its target was not on screen when the card was shown)"), second);
        assertTrue(second.contains("push button 'Later'") || second.contains("push button \"Later\""), second);
        assertEquals(RefusalCode.STOPPED, o.result().refusal().orElseThrow().code(), "the person denied step 2's card");
        assertEquals(List.of("OK"), o.world().pressed, "Later was never pressed");
        assertEquals(1, o.result().stepsRun());
    }

    @Test
    void aStepThatNowResolvesToAnotherElementRaisesACardForThatStep() {
        Outcome o = run(new OpeningWorld(), "[" + click("OK") + "," + click("Next") + "]", n -> n == 0);
        assertTrue(
                o.cards().get(0).steps().get(1).contains("push button \"Next\""), "the card named Next: " + o.cards());
        assertEquals(2, o.cards().size(), "Next is another element after OK: a card of its own: " + o.cards());
        assertTrue(
                o.cards()
                        .get(1)
                        .steps()
                        .get(0)
                        .startsWith("step 2 (it now resolves to another element than the card named)"),
                o.cards().get(1).steps().get(0));
        assertEquals(List.of("OK"), o.world().pressed, "the new Next was never pressed");
        // approved, the step runs
        Outcome approved = run(new OpeningWorld(), "[" + click("OK") + "," + click("Next") + "]", n -> true);
        assertEquals(List.of("OK", "NEXT2"), approved.world().pressed);
        assertEquals(2, approved.cards().size());
    }

    @Test
    void theConsequentialGateRunsForEveryStepOfAnApprovedBatch() {
        OpeningWorld world = new OpeningWorld();
        world.focus = HostileWorld.El.SEND; // Enter will press Send
        Outcome o = run(world, "[" + click("OK") + ",{\"action\":\"key\",\"keys\":\"Enter\"}]", n -> n == 0);
        assertTrue(
                o.cards().get(0).consequential().isEmpty(), "the batch card shows nothing consequential: " + o.cards());
        assertEquals(2, o.cards().size(), "Enter on Send raises its own card: " + o.cards());
        assertTrue(
                o.cards().get(1).consequential().isPresent(), o.cards().get(1).toString());
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                o.result().refusal().orElseThrow().code(),
                o.result().toString());
        assertEquals(List.of(), o.world().violations, "nothing consequential was pressed");
        assertEquals(1, o.result().stepsRun());
    }

    @Test
    void aConsequentialElementTheCardShowedIsApprovedWithIt() {
        Outcome o = run(new OpeningWorld(), "[" + click("OK") + "," + click("Send") + "]", n -> true);
        assertEquals(1, o.cards().size(), o.cards().toString());
        assertTrue(
                o.cards().get(0).consequential().orElseThrow().contains("step 2"),
                o.cards().toString());
        assertEquals(List.of("OK", "SEND"), o.world().pressed);
    }
}

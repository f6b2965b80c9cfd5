package dev.deckhand.loop;

import static dev.deckhand.loop.LoopFixture.click;
import static dev.deckhand.loop.LoopFixture.clickAt;
import static dev.deckhand.loop.LoopFixture.done;
import static dev.deckhand.loop.LoopFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.action.ActionSchema;
import dev.deckhand.loop.fakes.RecordingDesktop;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.fakes.Trees;
import dev.deckhand.loop.route.Route;
import dev.deckhand.loop.steps.StepParser;
import dev.deckhand.loop.verify.DesktopVerifier;
import dev.deckhand.loop.verify.Verdict;
import dev.deckhand.loop.verify.VerifierResult;
import dev.deckhand.loop.verify.VerifierRunner;
import dev.deckhand.loop.verify.VerifierSpec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class ComputerLoopTest {

    private final LoopFixture f = new LoopFixture();

    @Test
    void actsByUidThenTheVerifierGivesTheVerdict() {
        ScriptedDecider model = ScriptedDecider.of(click("r1-ok"), done("pressed OK"));
        RunResult r = f.run(model, request("Press OK"));

        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind());
        assertEquals(Verdict.PASS, r.verdict());
        assertEquals(1, r.stepsRun());
        assertEquals(Optional.of(Route.UID), r.route());
        assertEquals(List.of("click r1-ok"), f.desktop.delivered());
        assertEquals(1, f.guard.consumed);
        assertEquals(1, f.verifier.runs.get());
        assertTrue(r.summary().startsWith("completed: pressed OK | verifier pass"), r.summary());

        DecisionRequest first = model.requests().get(0);
        assertTrue(first.observation().contains("r1-ok btn \"OK\""), first.observation());
        assertFalse(first.actionSchema().contains("click_at"), "no click_at on the uid route");
        assertTrue(first.capture().isEmpty(), "no captures on the uid route");
        assertEquals(
                List.of("1 click r1-ok btn \"OK\" -> ok, no_change"),
                model.requests().get(1).lastSteps());

        ActionIntent intent = f.audit.intents().get(0);
        assertEquals(Optional.of("r1-ok"), intent.uid());
        assertEquals(Optional.of("push button"), intent.role());
        assertEquals(ActionResult.Status.DELIVERED, f.audit.results().get(0).status());
        assertEquals(List.of(intent, f.audit.results().get(0)), f.audit.records, "intent before result");
    }

    @Test
    void doneWhileTheVerifierFailsIsAFailVerdict() {
        f.verifier.pass = false;
        RunResult r = f.run(
                ScriptedDecider.of(click("r1-ok"), done("all done, trust me"), done("trust me")), request("Press OK"));
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind());
        assertEquals(Verdict.FAIL, r.verdict());
        assertTrue(r.summary().contains("verifier fail"), r.summary());
    }

    @Test
    void planAndGoalModesAreRefusedBeforeAnything() {
        for (String mode : List.of("plan", "goal")) {
            LoopFixture g = new LoopFixture();
            ScriptedDecider model = ScriptedDecider.of(click("r1-ok"));
            RunResult r = g.run(model, request("Press OK").withMode(mode));
            assertEquals(Outcome.Kind.REFUSED, r.outcome().kind());
            assertEquals(RefusalCode.MODE_DENIED, r.refusal().orElseThrow().code());
            assertEquals(List.of(), g.desktop.calls(), "nothing touched the desktop");
            assertEquals(List.of(), model.requests());
            assertEquals(
                    0,
                    g.verifier.runs.get(),
                    "a request refused before the run starts runs nothing, not even the verifier");
            assertEquals(Verdict.NONE, r.verdict());
        }
    }

    @Test
    void inputWithoutAVerifierIsRefused() {
        RunResult r = f.run(ScriptedDecider.of(click("r1-ok")), RunRequest.of("run-1", "Press OK", Optional.empty()));
        assertEquals(RefusalCode.NO_VERIFIER, r.refusal().orElseThrow().code());
        assertEquals(List.of(), f.desktop.calls());
        assertEquals(Verdict.NONE, r.verdict());
    }

    @Test
    void aReadOnlyTaskNeedsNoVerifierAndNeverGivesInput() {
        ScriptedDecider model = ScriptedDecider.of(done("The dialog has OK and Cancel"));
        RunResult r = f.run(model, RunRequest.of("run-1", "What buttons does the dialog have?", Optional.empty()));
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind());
        assertEquals(Verdict.NONE, r.verdict());
        assertEquals(Optional.of(Route.READ_ONLY), r.route());
        assertEquals(
                ActionSchema.json(Route.READ_ONLY.permittedActions()),
                model.requests().get(0).actionSchema());
        assertTrue(
                model.requests().get(0).actionSchema().contains("\"enum\":[\"wait\",\"done\",\"fail\"]"),
                model.requests().get(0).actionSchema());
        assertFalse(
                model.requests().get(0).actionSchema().contains("\"uid\""), "no element fields on the read-only route");

        LoopFixture g = new LoopFixture();
        RunResult sneaky =
                g.run(ScriptedDecider.of(click("r1-ok"), click("r1-ok")), request("Verify the dialog shows OK"));
        assertEquals(
                RefusalCode.MODEL_OUTPUT_INVALID, sneaky.refusal().orElseThrow().code());
        assertEquals(List.of(), g.desktop.delivered(), "no input on a read-only route");
    }

    @Test
    void invalidOutputIsFedBackOnce() {
        ScriptedDecider model = ScriptedDecider.of("Sure! " + click("r1-ok"), click("r1-ok"), done("ok"));
        RunResult r = f.run(model, request("Press OK"));
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind());
        assertTrue(model.requests().get(0).feedback().isEmpty());
        assertTrue(model.requests().get(1).feedback().orElseThrow().contains("exactly one JSON object"));
        assertTrue(model.requests().get(2).feedback().isEmpty(), "feedback is per turn");
        assertEquals(List.of("click r1-ok"), f.desktop.delivered());
    }

    @Test
    void invalidOutputTwiceEndsTheRunModelOutputInvalid() {
        String[][] twice = {
            {"{\"action\": \"click\", \"uid\": ", "{not json"},
            {"{\"action\": \"double_click\", \"uid\": \"r1-ok\"}", "{\"action\": \"drag\"}"},
            {"{\"action\": \"click\", \"uid\": \"r1-ok\", \"button\": 2}", click("r1-ok") + " done"},
            {
                "{\"action\": \"scroll\", \"uid\": \"r1-ok\", \"direction\": \"up\", \"amount\": 500}",
                "{\"action\": \"wait\", \"ms\": \"5\"}"
            },
        };
        for (String[] outputs : twice) {
            LoopFixture g = new LoopFixture();
            ScriptedDecider model = ScriptedDecider.of(outputs[0], outputs[1], click("r1-ok"));
            RunResult r = g.run(model, request("Press OK"));
            assertEquals(Outcome.Kind.REFUSED, r.outcome().kind(), outputs[0]);
            assertEquals(
                    RefusalCode.MODEL_OUTPUT_INVALID, r.refusal().orElseThrow().code());
            assertEquals(2, model.requests().size(), "fed back exactly once");
            assertEquals(List.of(), g.desktop.delivered());
            assertEquals(1, g.verifier.runs.get());
        }
    }

    @Test
    void aUidFromAnOlderRevisionNeverReachesTheDesktop() {
        // the grant's revision changes while the model thinks: the uid it saw is stale
        ScriptedDecider model = new ScriptedDecider().then(req -> {
            f.scope.revision = 2;
            return click("r1-ok");
        });
        RunResult r = f.run(model, request("Press OK"));
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code());
        assertEquals(List.of(), f.desktop.delivered());
        ActionResult refused = f.audit.results().get(0);
        assertEquals(ActionResult.Status.REFUSED, refused.status());
        assertEquals(Optional.of(RefusalCode.OUT_OF_SCOPE), refused.code());
        assertEquals(List.of(), f.guard.checked, "refused before the guard is even asked");

        // the model reuses a uid of revision 1 after it was shown revision 2
        LoopFixture g = new LoopFixture();
        ScriptedDecider reuse = new ScriptedDecider()
                .then(req -> {
                    g.scope.revision = 2; // bumped after this turn's observation ...
                    return "{\"action\": \"wait\", \"ms\": 10}";
                })
                .then(click("r1-cancel"));
        RunResult r2 = g.run(reuse, request("Press Cancel"));
        assertTrue(reuse.requests().get(1).observation().contains("r2-cancel"));
        assertEquals(RefusalCode.OUT_OF_SCOPE, r2.refusal().orElseThrow().code());
        assertTrue(r2.refusal().get().detail().contains("r1-cancel"));
        assertEquals(List.of(), g.desktop.delivered());
    }

    @Test
    void anInventedUidIsOutOfScope() {
        RunResult r = f.run(ScriptedDecider.of(click("u-not-there")), request("Press OK"));
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code());
        assertEquals(List.of(), f.desktop.delivered());
    }

    private LoopFixture pixels() {
        LoopFixture g = new LoopFixture();
        g.scope.mode = CaptureMode.PIXELS;
        g.desktop.tree(rev -> Trees.partial(RecordingDesktop.WINDOW, rev));
        return g;
    }

    @Test
    void boundsReachTheModelOnlyOnAPixelsGrantInTheSpaceOfClickAt() {
        // a11y_only: no bounds at all
        ScriptedDecider plain = ScriptedDecider.of(done("looked"));
        f.run(plain, request("Press OK"));
        assertFalse(
                plain.requests().get(0).observation().contains("@"),
                plain.requests().get(0).observation());

        // pixels grant, usable tree (the hybrid route, a capture every turn): the capture's pixels at its scale
        // (0.5); the fake's nodes sit at screen (0,0) and its window at (100,100)
        LoopFixture hybrid = new LoopFixture();
        hybrid.scope.mode = CaptureMode.PIXELS;
        ScriptedDecider onHybrid = ScriptedDecider.of(done("looked"));
        hybrid.run(onHybrid, request("Press OK"));
        String o1 = onHybrid.requests().get(0).observation();
        assertTrue(o1.split("\n")[0].endsWith("; bounds @x,y wxh in capture c1's pixels"), o1);
        assertTrue(o1.contains("r1-ok btn \"OK\" @-50,-50 5x5"), o1);

        // the same grant on a turn whose capture is withheld (secure input): window pixels
        LoopFixture withheld = new LoopFixture();
        withheld.scope.mode = CaptureMode.PIXELS;
        withheld.guard.onCapture =
                () -> Optional.of(Refusal.secureInput("the focused element is a password field: no capture"));
        ScriptedDecider onWithheld = ScriptedDecider.of(done("looked"));
        withheld.run(onWithheld, request("Press OK"));
        String o3 = onWithheld.requests().get(0).observation();
        assertTrue(o3.split("\n")[0].endsWith("; bounds @x,y wxh in window pixels"), o3);
        assertTrue(o3.contains("r1-ok btn \"OK\" @-100,-100 10x10"), o3);

        // pixel route: the capture's pixels at its scale (0.5), the coordinates click_at takes
        LoopFixture px = pixels();
        ScriptedDecider onPixels = ScriptedDecider.of(done("looked"));
        px.run(onPixels, request("Click the red dot"));
        String o2 = onPixels.requests().get(0).observation();
        assertTrue(o2.split("\n")[0].contains("(partial tree: "), "the header says the tree is partial: " + o2);
        assertTrue(o2.split("\n")[0].endsWith("; bounds @x,y wxh in capture c1's pixels"), o2);
        assertTrue(o2.contains("r1-frame frame \"Canvas\" @-50,-50 5x5"), o2);
    }

    @Test
    void clickAtNeedsABasisFromThisRunsCapture() {
        LoopFixture ok = pixels();
        ScriptedDecider model = ScriptedDecider.of(clickAt(10, 20, "c1"), done("clicked"));
        RunResult good = ok.run(model, request("Click the red dot"));
        assertEquals(Optional.of(Route.PIXELS), good.route());
        assertEquals("c1", model.requests().get(0).capture().orElseThrow().id());
        assertEquals(List.of("clickAt 10,20 rev 1"), ok.desktop.delivered());
        assertTrue(ok.guard.bases.get(0).isPresent(), "the guard sees the basis");

        // no basis at all: the parser refuses it, fed back once, then MODEL_OUTPUT_INVALID
        LoopFixture none = pixels();
        String noBasis = "{\"action\": \"click_at\", \"x\": 10, \"y\": 20}";
        RunResult r1 = none.run(ScriptedDecider.of(noBasis, noBasis), request("Click the red dot"));
        assertEquals(
                RefusalCode.MODEL_OUTPUT_INVALID, r1.refusal().orElseThrow().code());
        assertEquals(List.of(), none.desktop.delivered());

        // a basis that is not a capture of this run
        LoopFixture foreign = pixels();
        RunResult r2 = foreign.run(ScriptedDecider.of(clickAt(10, 20, "c7")), request("Click the red dot"));
        assertEquals(RefusalCode.BASIS_STALE, r2.refusal().orElseThrow().code());
        assertEquals(List.of(), foreign.desktop.delivered());

        // the window moved since the capture
        LoopFixture moved = pixels();
        moved.desktop.basisValid(false);
        RunResult r3 = moved.run(ScriptedDecider.of(clickAt(10, 20, "c1")), request("Click the red dot"));
        assertEquals(RefusalCode.BASIS_STALE, r3.refusal().orElseThrow().code());
        assertEquals(List.of(), moved.desktop.delivered());

        // the grant's revision changed since the capture
        LoopFixture bumped = pixels();
        RunResult r4 = bumped.run(
                new ScriptedDecider().then(req -> {
                    bumped.scope.revision = 2;
                    return clickAt(10, 20, "c1");
                }),
                request("Click the red dot"));
        assertEquals(RefusalCode.BASIS_STALE, r4.refusal().orElseThrow().code());
        assertEquals(List.of(), bumped.desktop.delivered());

        // outside the capture (400x300)
        LoopFixture outside = pixels();
        RunResult r5 = outside.run(ScriptedDecider.of(clickAt(400, 20, "c1")), request("Click the red dot"));
        assertEquals(RefusalCode.OUT_OF_SCOPE, r5.refusal().orElseThrow().code());
        assertEquals(List.of(), outside.desktop.delivered());

        // on the uid route click_at is not offered at all
        RunResult r6 = f.run(ScriptedDecider.of(clickAt(10, 20, "c1"), clickAt(10, 20, "c1")), request("Press OK"));
        assertEquals(
                RefusalCode.MODEL_OUTPUT_INVALID, r6.refusal().orElseThrow().code());
        assertFalse(f.desktop.calls().stream().anyMatch(c -> c.startsWith("capture")), "no capture on the uid route");
        assertEquals(List.of(), f.desktop.delivered());
    }

    /** Send closes a compose window, OK closes a dialog: the task's own action ended the window, not the run's scope. */
    @Test
    void anActionThatClosesTheGrantedWindowCompletesTheRunWhenOnlyWaitsRemain() {
        LoopFixture steps = new LoopFixture();
        steps.desktop.onInput(() -> steps.desktop.window(null));
        RunResult r = steps.run(
                ScriptedDecider.of(),
                request("Send it")
                        .withSteps(
                                StepParser.parse(
                                        "[{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"OK\"}},"
                                                + " {\"action\": \"wait\", \"ms\": 500}, {\"action\": \"wait\", \"ms\": 300}]")));
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind(), r.summary());
        assertTrue(r.summary().contains("step 1 (click) closed the granted window"), r.summary());
        assertEquals(1, r.stepsRun());
        assertEquals(
                800, steps.slept.stream().mapToLong(Duration::toMillis).sum(), "the waits that followed were waited");
        assertEquals(1, steps.verifier.runs.get(), "the verifier decides");
        assertEquals(
                Optional.of(Effect.WINDOW_CLOSED), steps.audit.results().get(0).effect(), "the audit tells the effect");

        // a step that would act after it is not skipped: the run goes on to it (and the guard judges it)
        LoopFixture more = new LoopFixture();
        more.desktop.onInput(() -> more.desktop.window(null));
        RunResult goesOn = more.run(
                ScriptedDecider.of(),
                request("Send it")
                        .withSteps(StepParser.parse(
                                "[{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"OK\"}},"
                                        + " {\"action\": \"key\", \"keys\": \"Enter\"}]")));
        assertFalse(goesOn.summary().contains("step 1 (click) closed"), goesOn.summary());
        assertTrue(more.desktop.calls().contains("key Enter"), "the second step was reached: " + more.desktop.calls());

        // a model's action that closes the window: completed, the model is not asked again
        LoopFixture model = new LoopFixture();
        model.desktop.onInput(() -> model.desktop.window(null));
        ScriptedDecider decider = ScriptedDecider.of(click("r1-ok"), done("never asked"));
        RunResult byModel = model.run(decider, request("Send it"));
        assertEquals(Outcome.Kind.COMPLETED, byModel.outcome().kind(), byModel.summary());
        assertTrue(byModel.summary().contains("the model's click closed the granted window"), byModel.summary());
        assertEquals(1, decider.requests().size(), "no turn after the window closed");
    }

    @Test
    void clickAtStepsAreBoundToACaptureTakenByTheStepRunner() {
        // a window with no usable tree on a pixels grant: window coordinates (200, 100) land at capture (100, 50) at
        // scale 0.5
        LoopFixture ok = pixels();
        RunRequest steps = request("Press 7")
                .withSteps(StepParser.parse(
                        "[{\"action\": \"click_at\", \"x\": 200, \"y\": 100}, {\"action\": \"key\", \"keys\": \"Enter\"},"
                                + " {\"action\": \"click_at\", \"x\": 201, \"y\": 101}]"));
        RunResult r = ok.run(ScriptedDecider.of(), steps);
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind(), r.summary());
        assertEquals(Optional.of(Route.PIXELS), r.route());
        assertEquals(List.of("clickAt 100,50 rev 1", "key Enter", "clickAt 100,50 rev 1"), ok.desktop.delivered());
        assertEquals(
                2,
                ok.desktop.calls().stream().filter(c -> c.startsWith("capture")).count(),
                "one capture per click_at step");
        assertTrue(
                ok.guard.bases.stream().filter(Optional::isPresent).count() == 2, "the guard sees each step's basis");

        // the window moved between the step's capture and the click: BASIS_STALE, nothing delivered
        LoopFixture moved = pixels();
        moved.desktop.basisValid(false);
        RunResult stale = moved.run(
                ScriptedDecider.of(),
                request("Press 7").withSteps(StepParser.parse("[{\"action\": \"click_at\", \"x\": 200, \"y\": 100}]")));
        assertEquals(RefusalCode.BASIS_STALE, stale.refusal().orElseThrow().code());
        assertEquals(List.of(), moved.desktop.delivered());

        // a point outside the window's capture (400x300 at scale 0.5 covers 800x600)
        LoopFixture outside = pixels();
        RunResult out = outside.run(
                ScriptedDecider.of(),
                request("Press 7").withSteps(StepParser.parse("[{\"action\": \"click_at\", \"x\": 800, \"y\": 10}]")));
        assertEquals(RefusalCode.OUT_OF_SCOPE, out.refusal().orElseThrow().code());
        assertEquals(List.of(), outside.desktop.delivered());

        // an a11y_only grant: refused before any step runs or anything is captured
        RunResult plain = f.run(
                ScriptedDecider.of(),
                request("Press 7")
                        .withSteps(StepParser.parse(
                                "[{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"OK\"}},"
                                        + " {\"action\": \"click_at\", \"x\": 1, \"y\": 1}]")));
        assertEquals(RefusalCode.OUT_OF_SCOPE, plain.refusal().orElseThrow().code());
        assertTrue(plain.refusal().orElseThrow().detail().contains("pixels grant"), plain.summary());
        assertEquals(List.of(), f.desktop.delivered());
        assertFalse(f.desktop.calls().stream().anyMatch(c -> c.startsWith("capture")));

        // steps that also name an element still need the tree
        LoopFixture mixed = pixels();
        RunResult noTree = mixed.run(
                ScriptedDecider.of(),
                request("Press 7")
                        .withSteps(StepParser.parse(
                                "[{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"OK\"}},"
                                        + " {\"action\": \"click_at\", \"x\": 1, \"y\": 1}]")));
        assertEquals(
                RefusalCode.A11Y_UNAVAILABLE, noTree.refusal().orElseThrow().code());
        assertEquals(List.of(), mixed.desktop.delivered());
    }

    @Test
    void theStepCapEndsTheRun() {
        ScriptedDecider model = new ScriptedDecider().repeat(click("r1-ok"), 100);
        RunResult r = f.run(model, request("Press OK forever").withMaxSteps(3));
        assertEquals(Outcome.Kind.BUDGET_EXHAUSTED, r.outcome().kind());
        assertTrue(r.refusal().isEmpty());
        assertEquals(3, r.stepsRun());
        assertEquals(3, f.desktop.delivered().size());
        assertEquals(1, f.verifier.runs.get());

        LoopFixture g = new LoopFixture();
        g.limits = new LoopLimits(2, Duration.ofMinutes(10), 4_000, 1_280, Duration.ofSeconds(2), 5);
        RunResult raised = g.run(
                new ScriptedDecider().repeat(click("r1-ok"), 100),
                request("Press OK").withMaxSteps(10));
        assertEquals(2, raised.stepsRun(), "a request lowers the cap, never raises it");
        assertEquals(Outcome.Kind.BUDGET_EXHAUSTED, raised.outcome().kind());

        LoopFixture d = new LoopFixture();
        RunResult dflt = d.run(new ScriptedDecider().repeat(click("r1-ok"), 100), request("Press OK"));
        assertEquals(60, dflt.stepsRun(), "default cap");
    }

    @Test
    void theWallClockEndsTheRun() {
        ScriptedDecider model = new ScriptedDecider();
        for (int i = 0; i < 10; i++) {
            model.then(req -> {
                f.clock.advance(Duration.ofSeconds(25));
                return click("r1-ok");
            });
        }
        RunResult r = f.run(model, request("Press OK").withTimeoutSeconds(60));
        assertEquals(Outcome.Kind.TIMED_OUT, r.outcome().kind());
        assertEquals(2, r.stepsRun(), "the answer that arrived after the deadline was not delivered");
        assertEquals(2, f.desktop.delivered().size());
        assertEquals(1, f.verifier.runs.get());

        LoopFixture g = new LoopFixture();
        g.limits = new LoopLimits(60, Duration.ofMinutes(1), 4_000, 1_280, Duration.ofSeconds(2), 5);
        ScriptedDecider slow = new ScriptedDecider();
        for (int i = 0; i < 10; i++) {
            slow.then(req -> {
                g.clock.advance(Duration.ofSeconds(25));
                return click("r1-ok");
            });
        }
        RunResult raised = g.run(slow, request("Press OK").withTimeoutSeconds(3_600));
        assertEquals(Outcome.Kind.TIMED_OUT, raised.outcome().kind());
        assertEquals(2, raised.stepsRun(), "timeoutSeconds never raises the wall clock");
    }

    @Test
    void theRunEndsAtTheDeadlineItsBuilderComputedOnce() {
        RunRequest req = request("Press OK").withTimeoutSeconds(60);
        f.deadline = f.limits.deadline(f.clock, req); // computed once, as the run layer does before cards and model
        f.clock.advance(Duration.ofSeconds(50)); // the time it takes to start the run
        ScriptedDecider model = new ScriptedDecider();
        for (int i = 0; i < 10; i++) {
            model.then(ask -> {
                f.clock.advance(Duration.ofSeconds(25));
                return click("r1-ok");
            });
        }
        RunResult r = f.run(model, req);
        assertEquals(Outcome.Kind.TIMED_OUT, r.outcome().kind());
        assertEquals(0, r.stepsRun(), "the given deadline, not one counted afresh when the loop started");
        assertEquals(Duration.ofSeconds(60), f.limits.wallClockFor(req));
        assertEquals(Duration.ofMinutes(10), f.limits.wallClockFor(req.withTimeoutSeconds(3_600)), "never raised");
    }

    @Test
    void waitSleepsOnTheInjectedSleeperWithinTheDeadline() {
        f.run(ScriptedDecider.of("{\"action\": \"wait\", \"ms\": 700}", done("ok")), request("Wait for it"));
        assertEquals(700, f.slept.stream().mapToLong(Duration::toMillis).sum());
        assertTrue(f.slept.stream().allMatch(d -> d.compareTo(ComputerLoop.WAIT_SLICE) <= 0), "in slices: " + f.slept);
        assertTrue(f.guard.watches >= f.slept.size(), "the guard looked between the slices: " + f.guard.watches);
        assertEquals(0, f.guard.consumed, "waiting gives no input and spends no budget");
        assertEquals(List.of(), f.desktop.delivered());
    }

    @Test
    void stopEndsTheRun() {
        ScriptedDecider model = ScriptedDecider.of(click("r1-ok")).then(req -> {
            f.stop.stop();
            return click("r1-cancel");
        });
        RunResult r = f.run(model, request("Press OK then Cancel"));
        assertEquals(Outcome.Kind.STOPPED, r.outcome().kind());
        assertEquals(RefusalCode.STOPPED, r.refusal().orElseThrow().code());
        assertEquals(List.of("click r1-ok"), f.desktop.delivered());
        assertEquals(1, f.verifier.runs.get());

        LoopFixture g = new LoopFixture();
        g.stop.stop();
        RunResult before = g.run(ScriptedDecider.of(click("r1-ok")), request("Press OK"));
        assertEquals(Outcome.Kind.STOPPED, before.outcome().kind());
        assertEquals(List.of(), g.desktop.delivered());
    }

    @Test
    void guardRefusalsEndTheRunWithTheirOutcome() {
        Object[][] cases = {
            {RefusalCode.CONSEQUENTIAL_NOT_NAMED, Outcome.Kind.REFUSED},
            {RefusalCode.SECURE_INPUT, Outcome.Kind.REFUSED},
            {RefusalCode.DENY_COMMS_VISIBLE, Outcome.Kind.REFUSED},
            {RefusalCode.BUDGET_EXHAUSTED, Outcome.Kind.BUDGET_EXHAUSTED},
            {RefusalCode.GRANT_EXPIRED, Outcome.Kind.EXPIRED},
            {RefusalCode.GRANT_REVOKED, Outcome.Kind.STOPPED},
        };
        for (Object[] c : cases) {
            LoopFixture g = new LoopFixture();
            RefusalCode code = (RefusalCode) c[0];
            g.guard.onAction = a -> Optional.of(Refusal.of(code, "test says no"));
            RunResult r = g.run(ScriptedDecider.of(click("r1-ok")), request("Press OK"));
            assertEquals(c[1], r.outcome().kind(), code.name());
            assertEquals(code, r.refusal().orElseThrow().code());
            assertEquals(List.of(), g.desktop.delivered());
            assertEquals(Optional.of(code), g.audit.results().get(0).code());
            assertEquals(0, g.guard.consumed);
            // The fixture's verifier reads the screen (window): after an absolute or deny-list refusal it is not run.
            assertEquals(VerifierRunner.SCREEN_SEALED.contains(code) ? 0 : 1, g.verifier.runs.get(), code.name());
        }
    }

    @Test
    void driverRefusalsAndFailuresEndTheRun() {
        f.desktop.failOnInput(new RefusedException(RefusalCode.POINTER_WARP_REFUSED, "only a pointer path"));
        RunResult r = f.run(ScriptedDecider.of(click("r1-ok")), request("Press OK"));
        assertEquals(RefusalCode.POINTER_WARP_REFUSED, r.refusal().orElseThrow().code());
        assertEquals(0, r.stepsRun());

        LoopFixture g = new LoopFixture();
        g.desktop.failOnInput(new IllegalStateException("element defunct"));
        RunResult broken = g.run(ScriptedDecider.of(click("r1-ok")), request("Press OK"));
        assertEquals(Outcome.Kind.FAILED, broken.outcome().kind());
        assertTrue(broken.summary().contains("element defunct"));
        assertEquals(ActionResult.Status.FAILED, g.audit.results().get(0).status());
    }

    @Test
    void noBoundModelIsRefused() {
        RunResult r = f.run(
                req -> {
                    throw new RefusedException(RefusalCode.MODEL_NOT_BOUND, "no model bound in settings");
                },
                request("Press OK"));
        assertEquals(RefusalCode.MODEL_NOT_BOUND, r.refusal().orElseThrow().code());
        assertEquals(1, f.verifier.runs.get());
    }

    @Test
    void aProviderThatStaysDownEndsTheRunFailedNamingItsAnswer() {
        RunResult r = f.run(
                req -> {
                    throw new DecisionFailed("the model provider openai stayed unavailable: HTTP 503 \"overloaded\"");
                },
                request("Press OK"));
        assertEquals(Outcome.Kind.FAILED, r.outcome().kind());
        assertTrue(r.refusal().isEmpty());
        assertTrue(
                r.summary().startsWith("failed: the model provider openai stayed unavailable: HTTP 503 \"overloaded\""),
                r.summary());
        assertFalse(r.summary().contains("internal error"), r.summary());
        assertEquals(1, f.verifier.runs.get(), "the verifier still runs");
    }

    @Test
    void typedTextIsAuditedOnlyAsItsLength() {
        f.run(
                ScriptedDecider.of(
                        "{\"action\": \"type\", \"text\": \"hunter2\"}",
                        "{\"action\": \"set_text\", \"uid\": \"r1-name\", \"text\": \"correct horse\"}",
                        done("typed")),
                request("Type the words"));
        assertEquals(List.of("type 7 chars", "setText r1-name 13 chars"), f.desktop.delivered());
        assertEquals(7, f.audit.intents().get(0).textLength().getAsInt());
        assertEquals(13, f.audit.intents().get(1).textLength().getAsInt());
        for (Object rec : f.audit.records) {
            assertFalse(rec.toString().contains("hunter2") || rec.toString().contains("correct horse"), rec.toString());
        }
    }

    @Test
    void theSummaryIsBounded() {
        f.verifierPort = s -> VerifierResult.fail("x".repeat(5_000));
        // told once that the verifier fails, the model insists
        RunResult r = f.run(ScriptedDecider.of(done("y".repeat(2_000)), done("y".repeat(2_000))), request("Press OK"));
        assertTrue(
                r.summary().length() <= RunResult.MAX_SUMMARY, "" + r.summary().length());
        assertTrue(r.summary().startsWith("completed: yyy"));
        assertTrue(r.summary().contains("verifier fail"));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RunResult(
                        "r", Outcome.completed("z"), Verdict.NONE, 0, "z".repeat(2_001), Optional.empty(), ""));
    }

    @Test
    void explicitStepsRunInOrderWithoutAModel() {
        f.desktop.tree(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, "84"));
        f.verifierPort = new DesktopVerifier(
                f.desktop.desktop(),
                RecordingDesktop.WINDOW,
                () -> f.scope.revision,
                s -> VerifierResult.fail("not used"));
        RunRequest req = RunRequest.of(
                        "run-calc",
                        "Compute 12×7",
                        Optional.of(
                                VerifierSpec.parse(
                                        "{\"kind\": \"a11y\", \"target\": {\"role\": \"text\", \"name\": \"Result\"}, \"expect\": {\"text\": \"84\"}}")))
                .withSteps(StepParser.parse("["
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"1\"}},"
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"2\"}},"
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"×\"}},"
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"7\"}},"
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"=\"}}]"));
        RunResult r = f.run(
                x -> {
                    throw new AssertionError("no model for explicit steps");
                },
                req);
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind());
        assertEquals(Verdict.PASS, r.verdict(), r.verifierDetail());
        assertEquals(5, r.stepsRun());
        assertEquals(
                List.of("click r1-d1", "click r1-d2", "click r1-times", "click r1-d7", "click r1-equals"),
                f.desktop.delivered());
    }

    @Test
    void theWholeStepListIsApprovedOnceBeforeAnyStepRuns() {
        f.desktop.tree(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, "0"));
        RunRequest req = request("Compute")
                .withSteps(StepParser.parse("["
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"1\"}},"
                        + "{\"action\": \"key\", \"keys\": \"Enter\"},"
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"later\"}}]"));
        f.guard.onSteps = Optional.of(Refusal.of(RefusalCode.CONSEQUENTIAL_NOT_NAMED, "the person denied the steps"));
        RunResult r = f.run(
                x -> {
                    throw new AssertionError();
                },
                req);
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED, r.refusal().orElseThrow().code());
        assertEquals(List.of(), f.desktop.delivered());
        assertEquals("r1-d1", f.guard.stepTargets.get(0).orElseThrow().uid());
        assertTrue(f.guard.stepTargets.get(1).isEmpty(), "no target");
        assertTrue(f.guard.stepTargets.get(2).isEmpty(), "not resolvable yet");
    }

    @Test
    void aStepNotFoundInAPartialTreeIsLookedForOnceMoreBeforeFailing() {
        java.util.concurrent.atomic.AtomicInteger snapshots = new java.util.concurrent.atomic.AtomicInteger();
        // The first read is full, the second (before step 2) is partial, then full again.
        f.desktop.tree(rev -> snapshots.incrementAndGet() == 2
                ? new dev.deckhand.loop.desktop.ScopedTree(
                        RecordingDesktop.WINDOW,
                        rev,
                        Trees.calculator(RecordingDesktop.WINDOW, rev, "0")
                                .nodes()
                                .subList(0, 3),
                        true)
                : Trees.calculator(RecordingDesktop.WINDOW, rev, "0"));
        RunRequest req = request("Compute")
                .withSteps(StepParser.parse("["
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"1\"}},"
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"=\"}}]"));
        RunResult r = f.run(
                x -> {
                    throw new AssertionError();
                },
                req);
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind(), r.summary());
        assertEquals(List.of("click r1-d1", "click r1-equals"), f.desktop.delivered());
    }

    @Test
    void anUnresolvableStepFailsWithoutGuessing() {
        f.desktop.tree(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, "0"));
        RunRequest req = request("Compute")
                .withSteps(StepParser.parse("["
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"1\"}},"
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\"}},"
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"=\"}}]"));
        RunResult r = f.run(
                x -> {
                    throw new AssertionError();
                },
                req);
        assertEquals(Outcome.Kind.FAILED, r.outcome().kind());
        assertTrue(
                r.summary().contains("step 2 (click): 12 elements match push button in scope; add an index"),
                r.summary());
        assertEquals(List.of("click r1-d1"), f.desktop.delivered());
        assertEquals(1, f.verifier.runs.get());
    }

    @Test
    void stepsLongerThanTheCapAreNotStarted() {
        f.desktop.tree(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, "0"));
        RunRequest req = request("Compute")
                .withMaxSteps(2)
                .withSteps(StepParser.parse("["
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"1\"}},"
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"2\"}},"
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"=\"}}]"));
        RunResult r = f.run(
                x -> {
                    throw new AssertionError();
                },
                req);
        assertEquals(Outcome.Kind.BUDGET_EXHAUSTED, r.outcome().kind());
        assertEquals(List.of(), f.desktop.delivered());
    }

    @Test
    void preflightAndRunChecksComeFirst() {
        f.preflight = Optional.of(Refusal.of(RefusalCode.PREFLIGHT_FAILED, "screen locked"));
        RunResult r = f.run(ScriptedDecider.of(click("r1-ok")), request("Press OK"));
        assertEquals(RefusalCode.PREFLIGHT_FAILED, r.refusal().orElseThrow().code());
        assertFalse(f.desktop.calls().stream().anyMatch(c -> c.startsWith("snapshot")));
        assertEquals(1, f.verifier.runs.get());

        LoopFixture g = new LoopFixture();
        g.guard.onRun = Optional.of(Refusal.of(RefusalCode.NO_GRANT, "no active grant"));
        assertEquals(
                RefusalCode.NO_GRANT,
                g.run(ScriptedDecider.of(click("r1-ok")), request("Press OK"))
                        .refusal()
                        .orElseThrow()
                        .code());
        assertEquals(List.of(), g.desktop.calls());

        LoopFixture h = new LoopFixture();
        h.guard.onObserve = Optional.of(Refusal.of(RefusalCode.DENY_CREDENTIAL_APP, "keepassxc is running"));
        ScriptedDecider model = ScriptedDecider.of(click("r1-ok"));
        assertEquals(
                RefusalCode.DENY_CREDENTIAL_APP,
                h.run(model, request("Press OK")).refusal().orElseThrow().code());
        assertFalse(
                h.desktop.calls().stream().anyMatch(c -> c.startsWith("snapshot")), "no frame read while a deny fires");
        assertEquals(List.of(), model.requests());
    }

    @Test
    void noUsableTreeAndNoPixelsIsA11yUnavailable() {
        f.desktop.tree(rev -> Trees.partial(RecordingDesktop.WINDOW, rev));
        RunResult r = f.run(ScriptedDecider.of(click("r1-frame")), request("Press OK"));
        assertEquals(RefusalCode.A11Y_UNAVAILABLE, r.refusal().orElseThrow().code());
        assertEquals(List.of(), f.desktop.delivered());
        assertEquals(1, f.verifier.runs.get());
    }

    /** A dialog with a canvas: the pixels of the drawing are only in the capture. */
    private static LoopFixture hybrid() {
        LoopFixture g = new LoopFixture();
        g.scope.mode = CaptureMode.PIXELS;
        g.desktop.tree(rev -> {
            java.util.List<dev.deckhand.loop.desktop.Node> n = new java.util.ArrayList<>(
                    Trees.dialog(RecordingDesktop.WINDOW, rev).nodes());
            n.add(new dev.deckhand.loop.desktop.Node(
                    "r" + rev + "-canvas",
                    2,
                    "drawing area",
                    "",
                    false,
                    null,
                    true,
                    false,
                    false,
                    true,
                    new dev.deckhand.loop.desktop.Geometry(200, 200, 400, 300)));
            return new dev.deckhand.loop.desktop.ScopedTree(RecordingDesktop.WINDOW, rev, n, false);
        });
        return g;
    }

    @Test
    void onAPixelsGrantEveryTurnCarriesTheTreeAndACaptureAndTheModelMixesUidsAndPoints() {
        LoopFixture g = hybrid();
        ScriptedDecider model = ScriptedDecider.of(click("r1-ok"), clickAt(100, 80, "c2"), done("pressed and drew"));
        RunResult r = g.run(model, request("Press OK, then click the middle of the canvas"));
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind(), r.summary());
        assertEquals(Optional.of(Route.HYBRID), r.route());
        assertEquals(List.of("click r1-ok", "clickAt 100,80 rev 1"), g.desktop.delivered());
        for (int turn = 0; turn < 3; turn++) {
            DecisionRequest ask = model.requests().get(turn);
            assertEquals("c" + (turn + 1), ask.capture().orElseThrow().id(), "a capture every turn");
            assertTrue(
                    ask.actionSchema().contains("click_at")
                            && ask.actionSchema().contains("\"click\""),
                    "uid actions and click_at in one schema");
            assertTrue(ask.observation().contains("r1-ok btn \"OK\" @-50,-50 5x5"), ask.observation());
            // the unnamed canvas is written with its bounds in the capture's pixels: where click_at goes
            assertTrue(ask.observation().contains("r1-canvas drawing area @50,50 200x150"), ask.observation());
            assertTrue(ask.captureWithheld().isEmpty());
        }
        assertEquals(
                3, g.guard.captureChecks, "the capture checks (deny scan, scope, secure input) before every capture");
        assertEquals(
                3,
                g.desktop.calls().stream().filter(c -> c.startsWith("capture")).count());
        assertTrue(g.guard.bases.get(0).isEmpty(), "the uid click has no basis");
        assertEquals(
                Optional.of(1L),
                g.guard.bases.get(1).map(b -> b.grantRevision()),
                "the point is checked with its basis");
    }

    @Test
    void onAnA11yOnlyGrantTheSameModelGetsNoCaptureNoBoundsAndItsClickAtIsRefused() {
        LoopFixture g = hybrid();
        g.scope.mode = CaptureMode.A11Y_ONLY;
        ScriptedDecider model = ScriptedDecider.of(clickAt(100, 80, "c1"), clickAt(100, 80, "c1"));
        RunResult r = g.run(model, request("Click the middle of the canvas"));
        assertEquals(Optional.of(Route.UID), r.route());
        assertEquals(RefusalCode.MODEL_OUTPUT_INVALID, r.refusal().orElseThrow().code());
        for (DecisionRequest ask : model.requests()) {
            assertTrue(ask.capture().isEmpty(), "no pixels, ever");
            assertFalse(ask.actionSchema().contains("click_at"));
            assertFalse(ask.observation().contains("@"), "no bounds: " + ask.observation());
            assertFalse(ask.observation().contains("drawing area"), "an unnamed canvas says nothing without pixels");
        }
        assertEquals(0, g.guard.captureChecks);
        assertFalse(g.desktop.calls().stream().anyMatch(c -> c.startsWith("capture")), "nothing captured");
        assertEquals(List.of(), g.desktop.delivered());
    }

    @Test
    void aCaptureRefusedForSecureInputLeavesTheTurnToTheTreeAloneButOtherRefusalsEndTheRun() {
        // a password field has the focus: no capture this turn, the model is told why and acts by uid
        LoopFixture g = hybrid();
        boolean[] secure = {true};
        g.guard.onCapture = () -> secure[0]
                ? Optional.of(Refusal.secureInput("the focused element is a password field: no capture"))
                : Optional.empty();
        ScriptedDecider model = new ScriptedDecider()
                .then(req -> {
                    secure[0] = false;
                    return click("r1-ok");
                })
                .then(req -> clickAt(10, 10, "c1"))
                .then(req -> done("ok"));
        RunResult r = g.run(model, request("Press OK"));
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind(), r.summary());
        DecisionRequest first = model.requests().get(0);
        assertTrue(first.capture().isEmpty(), "no capture under secure input");
        assertTrue(
                first.captureWithheld().orElseThrow().contains("password"),
                first.captureWithheld().toString());
        assertEquals("c1", model.requests().get(1).capture().orElseThrow().id(), "the next turn captures again");
        assertEquals(List.of("click r1-ok", "clickAt 10,10 rev 1"), g.desktop.delivered());

        // a point named against the turn without capture has no basis: BASIS_STALE, nothing delivered
        LoopFixture noBasis = hybrid();
        noBasis.guard.onCapture =
                () -> Optional.of(Refusal.secureInput("another client holds a keyboard grab: no capture"));
        RunResult stale = noBasis.run(ScriptedDecider.of(clickAt(10, 10, "c1")), request("Press OK"));
        assertEquals(RefusalCode.BASIS_STALE, stale.refusal().orElseThrow().code());
        assertEquals(List.of(), noBasis.desktop.delivered());
        assertFalse(noBasis.desktop.calls().stream().anyMatch(c -> c.startsWith("capture")));

        // a deny-list refusal before the capture ends the run, tree or not
        LoopFixture denied = hybrid();
        denied.guard.onCapture = () -> Optional.of(Refusal.denyCommsVisible("communications app: slack"));
        RunResult d = denied.run(ScriptedDecider.of(done("never asked")), request("Press OK"));
        assertEquals(RefusalCode.DENY_COMMS_VISIBLE, d.refusal().orElseThrow().code());
        assertFalse(denied.desktop.calls().stream().anyMatch(c -> c.startsWith("capture")), "no frame of a denied app");

        // secure input on a window with nothing but pixels: nothing to observe, the run ends
        LoopFixture px = pixels();
        px.guard.onCapture = () -> Optional.of(Refusal.secureInput("another client holds a keyboard grab: no capture"));
        RunResult p = px.run(ScriptedDecider.of(done("never asked")), request("Click the red dot"));
        assertEquals(RefusalCode.SECURE_INPUT, p.refusal().orElseThrow().code());
    }

    @Test
    void explicitStepsMixSelectorsAndPointsEachPointBoundToItsOwnCapture() {
        LoopFixture g = hybrid();
        RunRequest steps = request("Press OK and draw")
                .withSteps(StepParser.parse(
                        "[{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"OK\"}},"
                                + " {\"action\": \"click_at\", \"x\": 300, \"y\": 200},"
                                + " {\"action\": \"set_text\", \"target\": {\"role\": \"text\", \"index\": 0}, \"text\": \"hi\"},"
                                + " {\"action\": \"click_at\", \"x\": 310, \"y\": 210}]"));
        RunResult r = g.run(ScriptedDecider.of(), steps);
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind(), r.summary());
        assertEquals(Optional.of(Route.HYBRID), r.route());
        assertEquals(
                List.of("click r1-ok", "clickAt 150,100 rev 1", "setText r1-name 2 chars", "clickAt 155,105 rev 1"),
                g.desktop.delivered());
        assertEquals(2, g.guard.captureChecks, "each point's capture is checked first");
        assertEquals(
                2,
                g.desktop.calls().stream().filter(c -> c.startsWith("capture")).count(),
                "one capture per point");
        List<Optional<dev.deckhand.loop.desktop.Basis>> bases = g.guard.bases;
        assertTrue(bases.get(0).isEmpty() && bases.get(2).isEmpty(), "selector steps carry no basis");
        assertTrue(bases.get(1).isPresent() && bases.get(3).isPresent(), "each point carries its basis");

        // a point's capture refused (secure input) ends the steps there: the selector step before it ran
        LoopFixture refused = hybrid();
        refused.guard.onCapture =
                () -> Optional.of(Refusal.secureInput("the focused element is a password field: no capture"));
        RunResult s = refused.run(ScriptedDecider.of(), steps);
        assertEquals(RefusalCode.SECURE_INPUT, s.refusal().orElseThrow().code());
        assertEquals(List.of("click r1-ok"), refused.desktop.delivered());
    }
}

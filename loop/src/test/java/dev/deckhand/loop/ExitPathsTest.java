package dev.deckhand.loop;

import static dev.deckhand.loop.LoopFixture.click;
import static dev.deckhand.loop.LoopFixture.done;
import static dev.deckhand.loop.LoopFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ActionSchema;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.fakes.RecordingDesktop;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.fakes.Trees;
import dev.deckhand.loop.steps.StepParser;
import dev.deckhand.loop.verify.DesktopVerifier;
import dev.deckhand.loop.verify.Verdict;
import dev.deckhand.loop.verify.VerifierResult;
import dev.deckhand.loop.verify.VerifierRunner;
import dev.deckhand.loop.verify.VerifierSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class ExitPathsTest {

    private record Path(
            String name, Outcome.Kind outcome, BiFunction<LoopFixture, ScriptedDecider, RunRequest> setup) {}

    @Test
    void theVerifierRunsOnEveryExitPathOnce() {
        List<Path> paths = new ArrayList<>();
        paths.add(new Path("model done", Outcome.Kind.COMPLETED, (f, m) -> {
            m.then(done("ok"));
            return request("Press OK");
        }));
        paths.add(new Path("model fail", Outcome.Kind.FAILED, (f, m) -> {
            m.then("{\"action\":\"fail\",\"reason\":\"no OK\"}");
            return request("Press OK");
        }));
        paths.add(new Path("guard refusal", Outcome.Kind.REFUSED, (f, m) -> {
            f.guard.onAction = a -> Optional.of(Refusal.of(RefusalCode.CONSEQUENTIAL_NOT_NAMED, "Send"));
            m.then(click("r1-ok"));
            return request("Press OK");
        }));
        paths.add(new Path("model output invalid", Outcome.Kind.REFUSED, (f, m) -> {
            m.then("nope").then("still no");
            return request("Press OK");
        }));
        paths.add(new Path("model not bound", Outcome.Kind.REFUSED, (f, m) -> {
            m.then(r -> {
                throw new RefusedException(RefusalCode.MODEL_NOT_BOUND, "none");
            });
            return request("Press OK");
        }));
        paths.add(new Path("stale uid", Outcome.Kind.REFUSED, (f, m) -> {
            m.then(click("r0-ok"));
            return request("Press OK");
        }));
        paths.add(new Path("stop", Outcome.Kind.STOPPED, (f, m) -> {
            m.then(r -> {
                f.stop.stop();
                return click("r1-ok");
            });
            return request("Press OK");
        }));
        paths.add(new Path("step cap", Outcome.Kind.BUDGET_EXHAUSTED, (f, m) -> {
            m.repeat(click("r1-ok"), 5);
            return request("Press OK").withMaxSteps(1);
        }));
        paths.add(new Path("grant budget", Outcome.Kind.BUDGET_EXHAUSTED, (f, m) -> {
            f.guard.onAction = a -> Optional.of(Refusal.of(RefusalCode.BUDGET_EXHAUSTED, "0 left"));
            m.then(click("r1-ok"));
            return request("Press OK");
        }));
        paths.add(new Path("grant expired", Outcome.Kind.EXPIRED, (f, m) -> {
            f.guard.onObserve = Optional.of(Refusal.of(RefusalCode.GRANT_EXPIRED, "idle"));
            return request("Press OK");
        }));
        paths.add(new Path("wall clock", Outcome.Kind.TIMED_OUT, (f, m) -> {
            m.then(r -> {
                f.clock.advance(Duration.ofMinutes(11));
                return click("r1-ok");
            });
            return request("Press OK");
        }));
        paths.add(new Path("preflight", Outcome.Kind.REFUSED, (f, m) -> {
            f.preflight = Optional.of(Refusal.of(RefusalCode.PREFLIGHT_FAILED, "a11y bus"));
            return request("Press OK");
        }));
        paths.add(new Path("no tree, no pixels", Outcome.Kind.REFUSED, (f, m) -> {
            f.desktop.tree(rev -> Trees.partial(RecordingDesktop.WINDOW, rev));
            return request("Press OK");
        }));
        paths.add(new Path("driver refusal", Outcome.Kind.REFUSED, (f, m) -> {
            f.desktop.failOnInput(new RefusedException(RefusalCode.WAYLAND_INPUT_UNSUPPORTED, "no XTEST"));
            m.then(click("r1-ok"));
            return request("Press OK");
        }));
        paths.add(new Path("driver failure", Outcome.Kind.FAILED, (f, m) -> {
            f.desktop.failOnInput(new IllegalStateException("defunct"));
            m.then(click("r1-ok"));
            return request("Press OK");
        }));
        paths.add(new Path("snapshot throws", Outcome.Kind.FAILED, (f, m) -> {
            f.desktop.tree(rev -> {
                throw new IllegalStateException("app hung");
            });
            return request("Press OK");
        }));
        paths.add(new Path("window gone", Outcome.Kind.FAILED, (f, m) -> {
            f.desktop.window(null);
            return request("Press OK");
        }));
        paths.add(new Path("unresolvable step", Outcome.Kind.FAILED, (f, m) -> request("Press it")
                .withSteps(StepParser.parse(
                        "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Nope\"}}]"))));
        paths.add(new Path("steps done", Outcome.Kind.COMPLETED, (f, m) -> request("Press OK")
                .withSteps(StepParser.parse(
                        "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}}]"))));

        for (Path p : paths) {
            LoopFixture f = new LoopFixture();
            ScriptedDecider m = new ScriptedDecider();
            RunRequest req = p.setup.apply(f, m);
            RunResult r = f.run(m, req);
            assertEquals(p.outcome, r.outcome().kind(), p.name + ": " + r.summary());
            assertEquals(1, f.verifier.runs.get(), "verifier ran once on path " + p.name);
            assertTrue(r.summary().contains("| verifier pass"), p.name + ": " + r.summary());
        }
    }

    /**
     * After an absolute or deny-list refusal — the guard's, the driver's or the watcher's — a verifier that
     * reads the screen is not run: verdict fail, the detail names the refusal, and nothing of the window
     * (here a canary in the calculator's display) reaches the summary. A file verifier still runs.
     */
    @Test
    void afterAnAbsoluteOrDenyRefusalNothingIsReadFromTheScreen() throws Exception {
        String canary = "canary-5ea1ed";
        VerifierSpec a11y = VerifierSpec.parse("{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"name\":\"Result\"},"
                + "\"expect\":{\"text\":\"84\"}}");
        List<BiConsumer<LoopFixture, RefusalCode>> ways = List.of(
                (f, code) -> f.guard.onAction = a -> Optional.of(Refusal.of(code, "fired")),
                (f, code) -> f.desktop.failOnInput(new RefusedException(code, "fired")),
                (f, code) -> f.guard.onRun = Optional.of(Refusal.of(code, "fired")));
        for (RefusalCode code : VerifierRunner.SCREEN_SEALED) {
            for (BiConsumer<LoopFixture, RefusalCode> way : ways) {
                for (VerifierSpec spec : List.of(a11y, new VerifierSpec.Window("^Calc"))) {
                    LoopFixture f = new LoopFixture();
                    f.desktop.tree(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, canary));
                    f.desktop.window(new WindowInfo(
                            RecordingDesktop.WINDOW,
                            "Calculator " + canary,
                            "calc",
                            1,
                            RecordingDesktop.GEOMETRY,
                            1,
                            true,
                            false,
                            false));
                    java.util.concurrent.atomic.AtomicInteger read = new java.util.concurrent.atomic.AtomicInteger();
                    DesktopVerifier screen = new DesktopVerifier(
                            f.desktop.desktop(), RecordingDesktop.WINDOW, () -> 1, s -> VerifierResult.fail("host"));
                    f.verifierPort = s -> {
                        read.incrementAndGet();
                        return screen.verify(s);
                    };
                    way.accept(f, code);
                    RunResult r = f.run(
                            ScriptedDecider.of(click("r1-d1"), done("ok")),
                            RunRequest.of("run-1", "Press 1", Optional.of(spec)));
                    assertEquals(code, r.refusal().orElseThrow().code(), r.summary());
                    assertEquals(Verdict.FAIL, r.verdict(), r.summary());
                    assertEquals(0, read.get(), code + ": the verifier did not read the screen");
                    assertTrue(r.verifierDetail().contains(code.name()), r.verifierDetail());
                    assertTrue(!r.summary().contains(canary), code + ": " + r.summary());
                }
            }
            LoopFixture f = new LoopFixture();
            f.guard.onAction = a -> Optional.of(Refusal.of(code, "fired"));
            f.run(
                    ScriptedDecider.of(click("r1-ok")),
                    RunRequest.of(
                            "run-1",
                            "Press OK",
                            Optional.of(new VerifierSpec.File("/tmp/x", VerifierSpec.FileCheck.EXISTS, ""))));
            // After SECRET_ON_SCREEN not even a file verifier runs: the app had the secret open, and a file
            // verifier could read the same file.
            int expected = code == RefusalCode.SECRET_ON_SCREEN ? 0 : 1;
            assertEquals(
                    expected,
                    f.verifier.runs.get(),
                    code + ": a file verifier reads no screen and runs unless a secret was seen");
        }
        // The control: after another refusal the same verifier reads the window; its detail counts, never quotes.
        LoopFixture f = new LoopFixture();
        f.desktop.tree(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, canary));
        f.verifierPort = new DesktopVerifier(
                f.desktop.desktop(), RecordingDesktop.WINDOW, () -> 1, s -> VerifierResult.fail("host"));
        f.guard.onAction = a -> Optional.of(Refusal.of(RefusalCode.CONSEQUENTIAL_NOT_NAMED, "fired"));
        RunResult control =
                f.run(ScriptedDecider.of(click("r1-d1")), RunRequest.of("run-1", "Press 1", Optional.of(a11y)));
        assertTrue(control.summary().contains("text (" + canary.length() + " characters)"), control.summary());
        assertFalse(control.summary().contains(canary), control.summary());
    }

    @Test
    void everyActionKindReachesTheDriverThroughTheLoop() {
        Map<Class<?>, String> samples = Map.ofEntries(
                Map.entry(Action.Click.class, "{\"action\":\"click\",\"uid\":\"r1-frame\"}"),
                Map.entry(Action.SetText.class, "{\"action\":\"set_text\",\"uid\":\"r1-frame\",\"text\":\"abc\"}"),
                Map.entry(Action.Type.class, "{\"action\":\"type\",\"text\":\"abc\"}"),
                Map.entry(Action.Key.class, "{\"action\":\"key\",\"keys\":\"ctrl+s\"}"),
                Map.entry(Action.Focus.class, "{\"action\":\"focus\",\"uid\":\"r1-frame\"}"),
                Map.entry(
                        Action.Scroll.class,
                        "{\"action\":\"scroll\",\"uid\":\"r1-frame\",\"direction\":\"left\",\"amount\":3}"),
                Map.entry(Action.Select.class, "{\"action\":\"select\",\"uid\":\"r1-frame\",\"option\":\"Bold\"}"),
                Map.entry(Action.ClickAt.class, "{\"action\":\"click_at\",\"x\":5,\"y\":6,\"basis\":\"c1\"}"),
                Map.entry(Action.Wait.class, "{\"action\":\"wait\",\"ms\":250}"),
                Map.entry(Action.Done.class, "{\"action\":\"done\",\"summary\":\"s\"}"),
                Map.entry(Action.Fail.class, "{\"action\":\"fail\",\"reason\":\"r\"}"));
        Map<Class<?>, String> expected = Map.of(
                Action.Click.class,
                "click r1-frame",
                Action.SetText.class,
                "setText r1-frame 3 chars",
                Action.Type.class,
                "type 3 chars",
                Action.Key.class,
                "key ctrl+s",
                Action.Focus.class,
                "focus r1-frame",
                Action.Scroll.class,
                "scroll r1-frame left 3",
                Action.Select.class,
                "select r1-frame Bold",
                Action.ClickAt.class,
                "clickAt 5,6 rev 1");
        assertEquals(ActionSchema.specs().size(), Action.class.getPermittedSubclasses().length);
        for (Class<?> c : Action.class.getPermittedSubclasses()) {
            LoopFixture f = new LoopFixture();
            f.scope.mode = CaptureMode.PIXELS; // the pixel route permits every action
            f.desktop.tree(rev -> Trees.partial(RecordingDesktop.WINDOW, rev));
            RunResult r = f.run(ScriptedDecider.of(samples.get(c), done("ok")), request("Do the thing"));
            if (c == Action.Done.class) {
                assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind());
                assertEquals(List.of(), f.desktop.delivered());
            } else if (c == Action.Fail.class) {
                assertEquals(Outcome.Kind.FAILED, r.outcome().kind());
                assertEquals(List.of(), f.desktop.delivered());
            } else if (c == Action.Wait.class) {
                assertEquals(250, f.slept.stream().mapToLong(Duration::toMillis).sum());
                assertEquals(1, r.stepsRun());
            } else {
                assertEquals(List.of(expected.get(c)), f.desktop.delivered(), c.getSimpleName());
                assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind());
                assertEquals(1, f.guard.consumed);
            }
        }
    }
}

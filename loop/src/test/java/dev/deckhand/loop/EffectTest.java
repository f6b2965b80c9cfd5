package dev.deckhand.loop;

import static dev.deckhand.loop.LoopFixture.click;
import static dev.deckhand.loop.LoopFixture.done;
import static dev.deckhand.loop.LoopFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.fakes.RecordingDesktop;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.fakes.Trees;
import dev.deckhand.loop.verify.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Did it land: the effect of each delivered action, and the model told once when its done fails the verifier. */
@Tag("pure")
class EffectTest {

    private final LoopFixture f = new LoopFixture();
    private static final long W = RecordingDesktop.WINDOW;
    private static final WindowInfo MAIN =
            new WindowInfo(W, "Dialog", "testapp", 4242, RecordingDesktop.GEOMETRY, 3, true, false, false);

    private static Effect.Glance glance(ScopedTree tree, WindowInfo... windows) {
        return Effect.Glance.of(tree, List.of(windows), W);
    }

    private static ScopedTree withText(String value, boolean focused) {
        ScopedTree t = Trees.dialog(W, 1);
        List<Node> n = new ArrayList<>(t.nodes());
        n.set(4, Trees.text("r1-name", 2, value, focused));
        return new ScopedTree(W, 1, n, false);
    }

    @Test
    void theComparisonTellsEachEffect() {
        Effect.Glance before = glance(withText("", true), MAIN);
        assertEquals(Optional.of(Effect.NO_CHANGE), Effect.between(before, glance(withText("", true), MAIN)));
        assertEquals(Optional.of(Effect.CHANGED), Effect.between(before, glance(withText("x", true), MAIN)));
        assertEquals(Optional.of(Effect.FOCUS_MOVED), Effect.between(before, glance(withText("", false), MAIN)));
        WindowInfo retitled =
                new WindowInfo(W, "Dialog *", "testapp", 4242, RecordingDesktop.GEOMETRY, 3, true, false, false);
        assertEquals(
                Optional.of(Effect.CHANGED),
                Effect.between(before, glance(withText("", true), retitled)),
                "the title is content");
        WindowInfo dialog =
                new WindowInfo(W + 1, "Save As", "testapp", 4242, RecordingDesktop.GEOMETRY, 4, true, false, false);
        assertEquals(
                Optional.of(Effect.WINDOW_OPENED), Effect.between(before, glance(withText("", true), MAIN, dialog)));
        assertEquals(
                Optional.of(Effect.WINDOW_CLOSED), Effect.between(glance(withText("", true), MAIN, dialog), before));
        assertEquals(
                Optional.of(Effect.WINDOW_CLOSED),
                Effect.between(before, glance(withText("", true))),
                "the granted window went");
        WindowInfo stranger =
                new WindowInfo(W + 9, "Other", "otherapp", 999, RecordingDesktop.GEOMETRY, 5, true, false, false);
        assertEquals(
                Optional.of(Effect.NO_CHANGE),
                Effect.between(before, glance(withText("", true), MAIN, stranger)),
                "another app's window is not this action's effect");
    }

    @Test
    void boundsAndUidsAreNotChangesAndAPartialTreeProvesNothing() {
        ScopedTree t = withText("", true);
        List<Node> moved = new ArrayList<>();
        for (Node n : t.nodes()) {
            moved.add(new Node(
                    n.uid() + "x",
                    n.depth(),
                    n.role(),
                    n.name(),
                    n.hasValue(),
                    n.value(),
                    n.enabled(),
                    n.focused(),
                    n.editable(),
                    n.showing(),
                    new Geometry(5, 5, 10, 10)));
        }
        Effect.Glance before = glance(t, MAIN);
        assertEquals(
                Optional.of(Effect.NO_CHANGE),
                Effect.between(before, glance(new ScopedTree(W, 1, moved, false), MAIN)));
        assertEquals(Optional.empty(), Effect.between(before, glance(new ScopedTree(W, 1, t.nodes(), true), MAIN)));
    }

    @Test
    void aDroppedKeyIsNoChangeInTheHistoryAndTheAuditAndAChangeIsChanged() {
        // the app ignores the key (the tree stays), then takes the click (the text changes)
        f.desktop.tree(rev -> withText(f.desktop.delivered().size() >= 2 ? "clicked" : "", true));
        ScriptedDecider model =
                ScriptedDecider.of("{\"action\": \"key\", \"keys\": \"ctrl+s\"}", click("r1-ok"), done("ok"));
        RunResult r = f.run(model, request("Press OK"));
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind(), r.summary());
        assertEquals(
                List.of("1 key ctrl+s -> ok, no_change"),
                model.requests().get(1).lastSteps());
        assertEquals(
                "2 click r1-ok btn \"OK\" -> ok, changed",
                model.requests().get(2).lastSteps().get(1));
        List<ActionResult> results = f.audit.results();
        assertEquals(Optional.of(Effect.NO_CHANGE), results.get(0).effect());
        assertEquals(Optional.of(Effect.CHANGED), results.get(1).effect());
        assertTrue(results.get(0).detail().contains("no_change"), results.get(0).detail());
    }

    @Test
    void theTreeReadForTheEffectIsTheNextObservationSoNoExtraWalk() {
        f.run(ScriptedDecider.of(click("r1-ok"), done("ok")), request("Press OK"));
        List<String> calls = f.desktop.calls();
        long snapshots = calls.stream().filter(c -> c.startsWith("snapshot")).count();
        assertEquals(
                3,
                snapshots,
                "one before the first turn, one for the last check right before the click, one after it: " + calls);
        int click = calls.indexOf("click r1-ok");
        assertTrue(
                calls.subList(0, click).stream()
                                .filter(c -> c.startsWith("snapshot"))
                                .count()
                        == 2,
                "" + calls);
    }

    @Test
    void aModelThatSaysDoneEarlyIsToldOnceWithTheVerifiersDetailAndTheRunGoesOnToPass() {
        f.verifier.pass = false;
        ScriptedDecider model = ScriptedDecider.of(done("finished, I think"))
                .then(req -> {
                    f.verifier.pass = true; // the click below is what the task needed
                    return click("r1-ok");
                })
                .then(done("now it is done"));
        RunResult r = f.run(model, request("Press OK"));
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind());
        assertEquals(Verdict.PASS, r.verdict());
        assertEquals(1, r.stepsRun());
        String told = model.requests().get(1).lastSteps().get(0);
        assertTrue(
                told.startsWith("done was not accepted: the declared verifier fails (not as expected (window))"), told);
        assertEquals(3, model.requests().size());
    }

    @Test
    void theModelIsToldOnlyOnceAndTheVerdictStillComesFromTheVerifier() {
        f.verifier.pass = false;
        ScriptedDecider model = ScriptedDecider.of(done("done"), done("really done"));
        RunResult r = f.run(model, request("Press OK"));
        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind());
        assertEquals(Verdict.FAIL, r.verdict());
        assertEquals(2, model.requests().size());
    }
}

package dev.deckhand.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.DeniedPlaces;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.fakes.RecordingDesktop;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.fakes.Trees;
import dev.deckhand.loop.guard.ShownPlaces;
import dev.deckhand.loop.steps.StepParser;
import dev.deckhand.loop.verify.VerifierSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A tree that shows a denied place (the editor opened a file in Deckhand's config directory: its title names
 * it, its text is the file) ends the run at the first tree the loop reads — before the model is asked, before a
 * step runs, and after the last step before the verifier reads the screen — and nothing of the tree reaches
 * the result. The control: the same tree without the place goes to the model.
 */
@Tag("pure")
class DeniedPlaceRunTest {

    static final String CANARY = "token-c4n4ry";
    static final DeniedPlaces PLACES = new DeniedPlaces(
            Path.of("/home/ann"),
            List.of(new DeniedPlaces.Place(Path.of("/home/ann/deckhand-home"), "Deckhand's config directory")),
            true,
            DeniedPlaces.Links.NONE);
    static final Geometry G = new Geometry(0, 0, 10, 10);

    static ScopedTree editor(long rev, String title) {
        return new ScopedTree(
                RecordingDesktop.WINDOW,
                rev,
                List.of(
                        Trees.node("r" + rev + "-frame", 0, "frame", title),
                        new Node("r" + rev + "-doc", 1, "text", "", true, CANARY, true, true, true, true, G)),
                false);
    }

    static LoopFixture fixture(String title) {
        LoopFixture f = new LoopFixture();
        f.desktop.tree(rev -> editor(rev, title));
        f.guard.onTree = t -> ShownPlaces.shown(t, PLACES, Optional.empty());
        return f;
    }

    @Test
    void theModelIsNeverAskedAboutATreeShowingAPlace() {
        LoopFixture f = fixture("/home/ann/deckhand-home/owner-token - Mousepad");
        ScriptedDecider model = ScriptedDecider.of(LoopFixture.done("read it"));
        RunResult r = f.run(
                model, RunRequest.of("run-1", "read the token", Optional.of(new VerifierSpec.Window("Mousepad"))));
        assertEquals(RefusalCode.DENY_PATH, r.refusal().orElseThrow().code(), r.summary());
        assertEquals(0, model.requests().size(), "the model was never asked");
        assertFalse(r.summary().contains(CANARY), r.summary());
        assertFalse(r.summary().contains("owner-token"), r.summary());
        assertTrue(r.verifierDetail().contains("DENY_PATH"), "the screen stays sealed: " + r.verifierDetail());

        LoopFixture control = fixture("/home/ann/notes.txt - Mousepad");
        ScriptedDecider asked = ScriptedDecider.of(LoopFixture.done("read it"));
        RunResult ok = control.run(
                asked, RunRequest.of("run-1", "read the notes", Optional.of(new VerifierSpec.Window("Mousepad"))));
        assertEquals(1, asked.requests().size(), ok.summary());
        assertTrue(asked.requests().get(0).observation().contains(CANARY), "the control's tree reaches the model");
    }

    @Test
    void aStepThatOpensAPlaceEndsTheRunBeforeTheVerifierReadsTheScreen() {
        LoopFixture f = fixture("/home/ann/notes.txt - Mousepad");
        AtomicInteger snapshots = new AtomicInteger();
        // the first tree is clean; the key opens the file, and every later tree shows it
        f.desktop.tree(rev -> editor(
                rev,
                snapshots.getAndIncrement() == 0
                        ? "/home/ann/notes.txt - Mousepad"
                        : "/home/ann/deckhand-home/owner-token - Mousepad"));
        RunRequest steps = new RunRequest(
                "run-1",
                "open it",
                StepParser.parse("[{\"action\":\"key\",\"keys\":\"ctrl+o\"}]"),
                Optional.of(new VerifierSpec.Window("Mousepad")),
                Optional.empty(),
                Optional.empty(),
                Mode.DEFAULT);
        RunResult r = f.run(ScriptedDecider.of(), steps);
        assertEquals(RefusalCode.DENY_PATH, r.refusal().orElseThrow().code(), r.summary());
        assertEquals(0, f.verifier.runs.get(), "the window verifier did not read the screen");
        assertFalse(r.summary().contains(CANARY), r.summary());
    }
}

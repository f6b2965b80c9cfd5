package dev.deckhand.loop;

import static dev.deckhand.loop.LoopFixture.click;
import static dev.deckhand.loop.LoopFixture.done;
import static dev.deckhand.loop.LoopFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.OwnSecrets;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.ScreenedDesktop;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.fakes.RecordingDesktop;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.fakes.Trees;
import dev.deckhand.loop.verify.Verdict;
import dev.deckhand.loop.verify.VerifierResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A run that reads one of Deckhand's own secrets ends SECRET_ON_SCREEN, the model told nothing more. */
@Tag("pure")
class ScreenedRunTest {

    private static final String SECRET = "dGhlLW93bmVyLXRva2VuLW9mLXRoaXMtdGVzdC1ydW4";
    private static final String SHOWN = SECRET.substring(4, 24);

    private final LoopFixture f = new LoopFixture();

    ScreenedRunTest() {
        f.screened = new ScreenedDesktop(
                f.desktop.desktop(),
                () -> OwnSecrets.named(Map.of(SECRET, "owner token")),
                w -> w.id() == RecordingDesktop.WINDOW);
    }

    /** The dialog with extra labels (uids per revision). */
    private static LongFunction<ScopedTree> dialogWith(String... labels) {
        return rev -> {
            ScopedTree d = Trees.dialog(RecordingDesktop.WINDOW, rev);
            List<Node> n = new ArrayList<>(d.nodes());
            int i = 0;
            for (String l : labels) {
                n.add(new Node(
                        "r" + rev + "-label" + i,
                        2,
                        "label",
                        l,
                        false,
                        null,
                        true,
                        false,
                        false,
                        true,
                        new Geometry(10 + 40 * i, 300, 40, 20)));
                i++;
            }
            return new ScopedTree(d.windowId(), rev, n, false);
        };
    }

    private void assertRefusedUnread(RunResult r) {
        assertEquals(RefusalCode.SECRET_ON_SCREEN, r.refusal().orElseThrow().code(), r.summary());
        assertEquals(Verdict.FAIL, r.verdict());
        assertFalse(r.summary().contains(SHOWN), r.summary());
        assertTrue(r.summary().contains("owner token"), r.summary());
    }

    @Test
    void a_secret_in_the_first_tree_ends_the_run_before_the_model_is_asked() {
        f.desktop.tree(dialogWith("key: " + SHOWN));
        ScriptedDecider model = ScriptedDecider.of(done("ok"));
        RunResult r = f.run(model, request("read the dialog"));
        assertRefusedUnread(r);
        assertEquals(0, model.requests().size());
        assertEquals(0, f.verifier.runs.get(), "no verifier reads after SECRET_ON_SCREEN");
        assertEquals(List.of(), f.desktop.delivered());
    }

    @Test
    void a_secret_that_appears_after_an_action_ends_the_run_at_the_next_read() {
        ScriptedDecider model = ScriptedDecider.of(click("r1-ok")).then(request -> {
            throw new AssertionError("the model must not be asked again");
        });
        f.desktop.tree(rev -> f.desktop.delivered().isEmpty()
                ? Trees.dialog(RecordingDesktop.WINDOW, rev)
                : dialogWith(SHOWN.toUpperCase(java.util.Locale.ROOT)).apply(rev));
        RunResult r = f.run(model, request("press OK"));
        assertRefusedUnread(r);
        assertEquals(1, model.requests().size());
        assertEquals(List.of("click r1-ok"), f.desktop.delivered());
    }

    @Test
    void a_secret_split_across_sibling_labels_and_spaced_out_is_found() {
        String spaced = String.join(" ", SHOWN.substring(9).split(""));
        f.desktop.tree(dialogWith(SHOWN.substring(0, 5), SHOWN.substring(5, 9), spaced));
        assertRefusedUnread(f.run(ScriptedDecider.of(done("ok")), request("read")));
    }

    @Test
    void a_secret_in_the_window_title_is_found() {
        f.desktop.window(new WindowInfo(
                RecordingDesktop.WINDOW,
                "notes " + SHOWN,
                "testapp",
                4242,
                RecordingDesktop.GEOMETRY,
                3,
                true,
                false,
                false));
        assertRefusedUnread(f.run(ScriptedDecider.of(done("ok")), request("read")));
    }

    @Test
    void a_secret_the_verifier_reads_ends_the_run_and_its_report_is_not_given() {
        f.verifierPort = spec -> {
            f.desktop.tree(dialogWith(SHOWN));
            f.screened.snapshot(RecordingDesktop.WINDOW, 1);
            return VerifierResult.pass("read " + SHOWN);
        };
        RunResult r = f.run(ScriptedDecider.of(done("nothing to do")), request("look"));
        assertRefusedUnread(r);
    }

    @Test
    void without_a_secret_the_run_is_ordinary() {
        f.desktop.tree(dialogWith("an ordinary label", SECRET.substring(0, OwnSecrets.RUN - 1)));
        RunResult r = f.run(ScriptedDecider.of(done("ok")), request("read"));
        assertTrue(r.refusal().isEmpty(), r.summary());
        assertEquals(Verdict.PASS, r.verdict());
    }
}

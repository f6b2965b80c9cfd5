package dev.deckhand.loop;

import static dev.deckhand.loop.LoopFixture.click;
import static dev.deckhand.loop.LoopFixture.done;
import static dev.deckhand.loop.LoopFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.OwnSecrets;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.loop.desktop.ScreenedDesktop;
import dev.deckhand.loop.desktop.SecretFileWindow;
import dev.deckhand.loop.fakes.RecordingDesktop;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.verify.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A granted app that runs what it is given opens one of Deckhand's secret files after an input: the read
 * after that input ends the run SECRET_ON_SCREEN, whatever the screen then shows, and the model is not asked
 * again. An open outside every window (the person's, while the run waits) is not this run's.
 */
@Tag("pure")
class SecretFileWindowRunTest {

    /** Reports "owner token" once an input was delivered in the open window; records what was asked. */
    private static final class FakeWindow implements SecretFileWindow {
        final List<String> calls = new ArrayList<>();
        final RecordingDesktop desktop;
        final boolean opensAfterInput;
        boolean open;

        FakeWindow(RecordingDesktop desktop, boolean opensAfterInput) {
            this.desktop = desktop;
            this.opensAfterInput = opensAfterInput;
        }

        @Override
        public void acted() {
            calls.add("acted");
            open = true;
        }

        @Override
        public Optional<String> closed() {
            Optional<String> which = peek();
            if (open) calls.add("closed");
            open = false;
            return which;
        }

        @Override
        public Optional<String> peek() {
            return open && opensAfterInput && !desktop.delivered().isEmpty()
                    ? Optional.of("owner token")
                    : Optional.empty();
        }

        @Override
        public void end() {
            open = false;
        }
    }

    private final LoopFixture f = new LoopFixture();

    private FakeWindow screen(boolean opensAfterInput) {
        FakeWindow w = new FakeWindow(f.desktop, opensAfterInput);
        f.screened =
                new ScreenedDesktop(f.desktop.desktop(), OwnSecrets::none, x -> x.id() == RecordingDesktop.WINDOW, w);
        return w;
    }

    @Test
    void aSecretFileOpenedAfterAnInputEndsTheRunAtTheNextReadBeforeTheModelIsAskedAgain() {
        FakeWindow w = screen(true);
        ScriptedDecider model = ScriptedDecider.of(click("r1-ok")).then(req -> {
            throw new AssertionError("the model must not be asked again");
        });
        RunResult r = f.run(model, request("press OK"));
        assertEquals(RefusalCode.SECRET_ON_SCREEN, r.refusal().orElseThrow().code(), r.summary());
        assertTrue(
                r.summary().contains("owner token") && r.summary().contains("process other than Deckhand"),
                r.summary());
        assertEquals(Verdict.FAIL, r.verdict());
        assertEquals(1, model.requests().size());
        assertEquals(List.of("click r1-ok"), f.desktop.delivered());
        assertEquals(0, f.verifier.runs.get(), "no verifier reads after SECRET_ON_SCREEN");
        assertEquals(
                List.of("acted", "closed"),
                w.calls.subList(0, 2),
                "the input opened the window, the next read closed it");
    }

    @Test
    void withNoOpenTheSameRunCompletes() {
        FakeWindow w = screen(false);
        RunResult r = f.run(ScriptedDecider.of(click("r1-ok"), done("pressed")), request("press OK"));
        assertTrue(r.refusal().isEmpty(), r.summary());
        assertEquals(List.of("click r1-ok"), f.desktop.delivered());
        assertTrue(w.calls.contains("acted") && w.calls.contains("closed"), w.calls.toString());
    }
}

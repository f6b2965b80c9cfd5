package dev.deckhand.loop;

import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.desktop.ScreenedDesktop;
import dev.deckhand.loop.fakes.CountingVerifier;
import dev.deckhand.loop.fakes.FakeGuard;
import dev.deckhand.loop.fakes.FakeScope;
import dev.deckhand.loop.fakes.MutableClock;
import dev.deckhand.loop.fakes.RecordingAudit;
import dev.deckhand.loop.fakes.RecordingDesktop;
import dev.deckhand.loop.fakes.Trees;
import dev.deckhand.loop.verify.Verifier;
import dev.deckhand.loop.verify.VerifierRunner;
import dev.deckhand.loop.verify.VerifierSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One run's world, all fakes. */
final class LoopFixture {

    static final Optional<VerifierSpec> VERIFIER = Optional.of(new VerifierSpec.Window("Dialog"));

    final MutableClock clock = new MutableClock();
    final FakeScope scope = new FakeScope();
    final RecordingDesktop desktop = new RecordingDesktop(rev -> Trees.dialog(RecordingDesktop.WINDOW, rev));
    final FakeGuard guard = new FakeGuard();
    final RecordingAudit audit = new RecordingAudit();
    final StopLatch stop = new StopLatch();
    final CountingVerifier verifier = new CountingVerifier();
    final List<Duration> slept = new ArrayList<>();
    Verifier verifierPort = verifier;
    Optional<Refusal> preflight = Optional.empty();
    LoopLimits limits = LoopLimits.DEFAULTS;
    /** The deadline the builder hands the loop, or null (the loop computes it as the run starts). */
    java.time.Instant deadline;
    /** When set, the loop reads through it and asks it whether a secret was seen. */
    ScreenedDesktop screened;

    RunResult run(Decider decider, RunRequest request) {
        return ComputerLoop.builder()
                .desktop(screened == null ? desktop.desktop() : screened.desktop())
                .screen(screened == null ? Optional::empty : screened::fired)
                .decider(decider)
                .guard(guard)
                .audit(audit)
                .clock(clock)
                .stop(stop)
                .preflight(w -> preflight)
                .scope(scope)
                .verifier(new VerifierRunner(verifierPort))
                .sleeper(slept::add)
                .limits(limits)
                .deadline(deadline)
                .build()
                .run(request);
    }

    static RunRequest request(String instruction) {
        return RunRequest.of("run-1", instruction, VERIFIER);
    }

    static String click(String uid) {
        return "{\"action\": \"click\", \"uid\": \"" + uid + "\"}";
    }

    static String done(String summary) {
        return "{\"action\": \"done\", \"summary\": \"" + summary + "\"}";
    }

    static String clickAt(int x, int y, String basis) {
        return "{\"action\": \"click_at\", \"x\": " + x + ", \"y\": " + y + ", \"basis\": \"" + basis + "\"}";
    }
}

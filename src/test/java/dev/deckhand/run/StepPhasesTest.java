package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.run.StepPhases.Phase;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The phase accounting on a fake ticker: innermost phase wins, opaque phases keep what they call, one thread only. */
@Tag("pure")
class StepPhasesTest {

    private final AtomicLong now = new AtomicLong();
    private final StepPhases phases = new StepPhases(now::get);

    private void advance(long millis) {
        now.addAndGet(millis * 1_000_000);
    }

    @Test
    void factsReadInsideACheckCountAsFactsNotPolicy() {
        phases.run(Phase.POLICY, () -> {
            advance(2);
            phases.run(Phase.FACTS, () -> advance(10));
            advance(1);
        });
        assertEquals(3_000_000, phases.nanos(Phase.POLICY));
        assertEquals(10_000_000, phases.nanos(Phase.FACTS));
    }

    @Test
    void aVerifiersSnapshotIsTheVerifiers() {
        phases.run(Phase.VERIFY, () -> {
            advance(1);
            phases.run(Phase.OBSERVE, () -> advance(7));
        });
        assertEquals(8_000_000, phases.nanos(Phase.VERIFY));
        assertEquals(0, phases.nanos(Phase.OBSERVE));
    }

    @Test
    void theApprovalWaitMovesOutOfPolicy() {
        phases.run(Phase.POLICY, () -> advance(500));
        phases.move(Phase.POLICY, Phase.APPROVAL, 480_000_000);
        assertEquals(20_000_000, phases.nanos(Phase.POLICY));
        assertEquals(480_000_000, phases.nanos(Phase.APPROVAL));
    }

    @Test
    void anotherThreadsCallsAreNotCounted() throws Exception {
        Thread watcher = new Thread(() -> phases.run(Phase.FACTS, () -> advance(50)));
        watcher.start();
        watcher.join();
        assertEquals(0, phases.nanos(Phase.FACTS));
    }

    @Test
    void aStepsFiguresAreTakenOnceAndTheTotalsKeepThemWithTheTimeOutsideEveryPhase() {
        phases.run(Phase.OBSERVE, () -> advance(4));
        phases.run(Phase.ACT, () -> advance(1));
        advance(3);
        String step = phases.takeStep();
        assertTrue(
                step.startsWith("observe=4.0ms facts=0.0ms policy=0.0ms approval=0.0ms cursor=0.0ms act=1.0ms"), step);
        assertTrue(phases.takeStep().startsWith("observe=0.0ms"), "a step's figures are taken once");
        String totals = phases.totals();
        assertTrue(totals.contains("observe=4.0ms") && totals.endsWith("model=0.0ms other=3.0ms"), totals);
    }
}

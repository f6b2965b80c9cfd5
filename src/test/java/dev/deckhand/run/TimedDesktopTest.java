package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.DeliveryGate;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.Landing;
import dev.deckhand.run.StepPhases.Phase;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each call of the port is timed into the phase of its kind, as the step breakdown reports it
 * (docs/performance.md); a query counts in the phase of whoever asks; a refusal passes through, timed.
 */
@Tag("pure")
class TimedDesktopTest {

    private static final long CALL = 7_000;

    private final AtomicLong now = new AtomicLong();
    private final StepPhases phases = new StepPhases(now::get);
    private boolean refuse;
    /** Every call below takes {@link #CALL} ns; a click is refused when {@link #refuse}. */
    private final Desktop timed = TimedDesktop.over(
            PortProxy.of((proxy, method, args) -> {
                now.addAndGet(CALL);
                if (refuse && method.getName().equals("click")) {
                    throw new RefusedException(Refusal.outOfScope("not here"));
                }
                return PortProxy.zero(method.getReturnType());
            }),
            phases);

    /** The phases that grew while {@code call} ran, by how much. */
    private Map<Phase, Long> grew(Runnable call) {
        Map<Phase, Long> before = new EnumMap<>(Phase.class);
        for (Phase p : Phase.values()) before.put(p, phases.nanos(p));
        call.run();
        Map<Phase, Long> grown = new EnumMap<>(Phase.class);
        for (Phase p : Phase.values()) {
            long d = phases.nanos(p) - before.get(p);
            if (d != 0) grown.put(p, d);
        }
        return grown;
    }

    @Test
    void eachKindOfCallCountsInItsPhase() {
        assertEquals(Map.of(Phase.OBSERVE, CALL), grew(() -> timed.display().windows()));
        assertEquals(Map.of(Phase.OBSERVE, CALL), grew(() -> timed.trees().latestSnapshot(1, 1)));
        assertEquals(Map.of(Phase.OBSERVE, CALL), grew(() -> timed.trees().awaitRegistered(1, Duration.ZERO)));
        assertEquals(Map.of(Phase.OBSERVE, CALL), grew(() -> timed.captures().capture(1, 1, 100)));
        assertEquals(Map.of(Phase.FACTS, CALL), grew(() -> timed.facts().fresh()));
        assertEquals(Map.of(Phase.FACTS, CALL), grew(() -> timed.display().activeWindow()));
        assertEquals(Map.of(Phase.ACT, CALL), grew(() -> timed.input().type(1, "abc", DeliveryGate.OPEN)));
        assertEquals(Map.of(Phase.CURSOR, CALL), grew(() -> timed.showing().awaitShown()));
        assertEquals(Map.of(Phase.SETTLE, CALL), grew(() -> timed.trees().settle(Duration.ZERO, Set.of(Landing.TEXT))));
    }

    @Test
    void aQueryCountsInThePhaseOfWhoeverAsks() {
        assertEquals(
                Map.of(Phase.POLICY, CALL),
                grew(() -> phases.run(Phase.POLICY, () -> {
                    timed.trees().accelerators(1);
                })));
        assertEquals(Map.of(), grew(() -> timed.display().privateDesktop()));
    }

    @Test
    void aRefusalPassesThroughTimed() {
        refuse = true;
        Map<Phase, Long> grown = grew(() -> assertEquals(
                RefusalCode.OUT_OF_SCOPE,
                assertThrows(RefusedException.class, () -> timed.input().click("u1"))
                        .code()));
        assertEquals(Map.of(Phase.ACT, CALL), grown);
    }
}

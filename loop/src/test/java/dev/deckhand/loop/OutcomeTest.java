package dev.deckhand.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Every outcome case has its own kind, every kind has a case, and a refusal ends a run with its documented outcome. */
@Tag("pure")
class OutcomeTest {

    @Test
    void eachCaseHasItsOwnKind() {
        Refusal r = Refusal.preflightFailed("screen locked");
        Set<Outcome> samples = Set.of(
                Outcome.completed("done"),
                Outcome.failed("no OK"),
                Outcome.timedOut("10 min"),
                Outcome.budgetExhausted("cap"),
                Outcome.refused(r),
                Outcome.endedBy(Refusal.stopped("Stop")),
                Outcome.endedBy(Refusal.grantExpired("idle")));
        Set<Class<?>> cases = new HashSet<>();
        Set<Outcome.Kind> kinds = EnumSet.noneOf(Outcome.Kind.class);
        for (Outcome o : samples) {
            cases.add(o.getClass());
            kinds.add(o.kind());
        }
        assertEquals(Set.of(Outcome.class.getPermittedSubclasses()), cases, "a sample of every case");
        assertEquals(EnumSet.allOf(Outcome.Kind.class), kinds, "every kind");
        assertEquals(Outcome.class.getPermittedSubclasses().length, Outcome.Kind.values().length);
    }

    @Test
    void aRefusalEndsARunWithItsOutcome() {
        for (RefusalCode code : RefusalCode.values()) {
            Refusal r = Refusal.of(code, "fired");
            Outcome o = Outcome.endedBy(r);
            Outcome.Kind expected =
                    switch (code) {
                        case STOPPED, GRANT_REVOKED -> Outcome.Kind.STOPPED;
                        case BUDGET_EXHAUSTED -> Outcome.Kind.BUDGET_EXHAUSTED;
                        case GRANT_EXPIRED -> Outcome.Kind.EXPIRED;
                        default -> Outcome.Kind.REFUSED;
                    };
            assertEquals(expected, o.kind(), code.name());
            assertEquals(Optional.of(r), o.refusal());
            assertEquals(r.toString(), o.text());
            assertEquals(
                    Outcome.Kind.REFUSED, Outcome.refused(r).kind(), "before the run, a refusal is refused: " + code);
        }
    }

    @Test
    void outcomesWithoutARefusalCarryTheirText() {
        assertEquals(
                Optional.empty(),
                Outcome.budgetExhausted("the step cap of 3 was reached").refusal());
        assertEquals("budget_exhausted", Outcome.budgetExhausted("x").wire());
        assertEquals("timed_out", Outcome.timedOut("x").wire());
        assertTrue(Outcome.completed("saved").text().equals("saved"));
    }
}

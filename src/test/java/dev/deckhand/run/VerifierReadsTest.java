package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.MutableClock;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.steps.Selector;
import dev.deckhand.loop.verify.VerifierSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The budget of verifier reads, per MCP session and per server, on a fake clock. */
@Tag("pure")
class VerifierReadsTest {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

    private static VerifierReads defaults(MutableClock clock) {
        return new VerifierReads(clock, VerifierReads.PER_SESSION, VerifierReads.PER_SERVER);
    }

    @Test
    void theEleventhReadOfASessionWithinAMinuteIsRefusedNamingTheLimit() {
        MutableClock clock = new MutableClock(T0);
        VerifierReads budget = defaults(clock);
        for (int i = 0; i < 10; i++) {
            budget.take("s1").settle(true);
            clock.advance(Duration.ofSeconds(5));
        }
        RefusedException e = assertThrows(RefusedException.class, () -> budget.take("s1"));
        assertEquals(RefusalCode.OUT_OF_SCOPE, e.code());
        assertTrue(
                e.refusal().detail().startsWith("verifier reads: 10 per minute per MCP session"),
                e.refusal().detail());
        assertTrue(e.refusal().detail().contains("in 10 s"), e.refusal().detail());
        budget.take("s2").settle(true); // another session has its own count (the server's is 11 of 30)
    }

    @Test
    void theServerLimitHoldsAcrossFourSessions() {
        MutableClock clock = new MutableClock(T0);
        VerifierReads budget = defaults(clock);
        for (String s : List.of("s1", "s2", "s3")) {
            for (int i = 0; i < 10; i++) budget.take(s).settle(true);
            clock.advance(Duration.ofSeconds(1));
        }
        RefusedException e = assertThrows(
                RefusedException.class,
                () -> budget.take("s4"),
                "a fresh session does not start the server's count afresh");
        assertEquals(RefusalCode.OUT_OF_SCOPE, e.code());
        assertTrue(
                e.refusal().detail().startsWith("verifier reads: 30 per minute per server"),
                e.refusal().detail());
        assertTrue(e.refusal().detail().contains("in 57 s"), e.refusal().detail());
    }

    @Test
    void theWindowSlidesAndReadsThatNeverRanAreGivenBack() {
        MutableClock clock = new MutableClock(T0);
        VerifierReads budget = defaults(clock);
        for (int i = 0; i < 50; i++) budget.take("s1").settle(false); // refused before the verifier ran: nothing read
        for (int i = 0; i < 10; i++) { // at 0, 5, ..., 45 s
            budget.take("s1").settle(true);
            clock.advance(Duration.ofSeconds(5));
        }
        assertThrows(RefusedException.class, () -> budget.take("s1"));
        clock.advance(Duration.ofSeconds(9));
        assertThrows(
                RefusedException.class, () -> budget.take("s1"), "at 59 s the first read is still within the minute");
        clock.advance(Duration.ofSeconds(1)); // 60 s: the first read has aged out
        budget.take("s1").settle(true);
        assertThrows(RefusedException.class, () -> budget.take("s1"), "the second (at 5 s) is still within the minute");
        clock.advance(Duration.ofSeconds(5));
        budget.take("s1");
    }

    @Test
    void readsInFlightCountSoConcurrentCallsCannotOvershoot() {
        VerifierReads budget = defaults(new MutableClock(T0));
        for (int i = 0; i < 10; i++) budget.take("s1"); // none settled yet
        assertThrows(RefusedException.class, () -> budget.take("s1"));
    }

    @Test
    void theLimitsAreConfigurable() {
        VerifierReads budget = new VerifierReads(new MutableClock(T0), 2, 3);
        budget.take("a").settle(true);
        budget.take("a").settle(true);
        assertTrue(assertThrows(RefusedException.class, () -> budget.take("a"))
                .refusal()
                .detail()
                .startsWith("verifier reads: 2 per minute per MCP session"));
        budget.take("b").settle(true);
        assertTrue(assertThrows(RefusedException.class, () -> budget.take("c"))
                .refusal()
                .detail()
                .startsWith("verifier reads: 3 per minute per server"));
        assertThrows(IllegalArgumentException.class, () -> new VerifierReads(new MutableClock(T0), 0, 30));
    }

    @Test
    void fileAndScreenVerifiersCountACommandDoesNot() {
        assertTrue(
                VerifierReads.reads(Optional.of(new VerifierSpec.File("/tmp/x", VerifierSpec.FileCheck.EXISTS, ""))));
        assertTrue(VerifierReads.reads(Optional.of(new VerifierSpec.Window("^x"))));
        assertTrue(VerifierReads.reads(Optional.of(new VerifierSpec.A11y(
                new Selector("label", Optional.empty(), Optional.of(0)), VerifierSpec.A11yCheck.TEXT, "x"))));
        assertFalse(VerifierReads.reads(Optional.of(new VerifierSpec.Command(List.of("true")))));
        assertFalse(VerifierReads.reads(Optional.empty()));
    }
}

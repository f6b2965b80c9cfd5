package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The per-session limit on runs that deliver no action, on a fake clock. */
class VerifierOnlyRunsTest {

    @Test
    void theEleventhRunThatDeliversNoActionWithinAMinuteIsRefused() {
        MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
        VerifierOnlyRuns limit = new VerifierOnlyRuns(clock);
        for (int i = 0; i < VerifierOnlyRuns.PER_MINUTE; i++) {
            limit.take("s1").settle(true);
            clock.advance(Duration.ofSeconds(5));
        }
        RefusedException e = assertThrows(RefusedException.class, () -> limit.take("s1"));
        assertEquals(RefusalCode.OUT_OF_SCOPE, e.code());
        assertTrue(e.refusal().detail().contains("at most 10 runs that deliver no action"), e.refusal().detail());
        assertTrue(e.refusal().detail().contains("in 10 s"), e.refusal().detail());
        limit.take("s2").settle(true); // another session has its own count
        clock.advance(Duration.ofSeconds(10));
        limit.take("s1").settle(true); // the first run of the minute has aged out
        assertThrows(RefusedException.class, () -> limit.take("s1"));
    }

    @Test
    void runsThatDeliveredInputOrNeverVerifiedAreGivenBack() {
        VerifierOnlyRuns limit = new VerifierOnlyRuns(new MutableClock(Instant.parse("2025-01-01T00:00:00Z")));
        for (int i = 0; i < 50; i++) limit.take("s1").settle(false);
        for (int i = 0; i < VerifierOnlyRuns.PER_MINUTE; i++) limit.take("s1").settle(true);
        assertThrows(RefusedException.class, () -> limit.take("s1"));
    }

    @Test
    void runsInFlightCountSoConcurrentCallsCannotOvershoot() {
        VerifierOnlyRuns limit = new VerifierOnlyRuns(new MutableClock(Instant.parse("2025-01-01T00:00:00Z")));
        for (int i = 0; i < VerifierOnlyRuns.PER_MINUTE; i++) limit.take("s1"); // none settled yet
        assertThrows(RefusedException.class, () -> limit.take("s1"));
    }
}

package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The per-session limit on runs that deliver no action, on a fake clock. */
class VerifierOnlyRunsTest {

    /** A clock the test moves. */
    static final class FakeClock extends Clock {
        Instant now = Instant.parse("2025-01-01T00:00:00Z");

        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return now; }
    }

    @Test
    void theEleventhRunThatDeliversNoActionWithinAMinuteIsRefused() {
        FakeClock clock = new FakeClock();
        VerifierOnlyRuns limit = new VerifierOnlyRuns(clock);
        for (int i = 0; i < VerifierOnlyRuns.PER_MINUTE; i++) {
            limit.take("s1").settle(true);
            clock.now = clock.now.plusSeconds(5);
        }
        RefusedException e = assertThrows(RefusedException.class, () -> limit.take("s1"));
        assertEquals(RefusalCode.OUT_OF_SCOPE, e.code());
        assertTrue(e.refusal().detail().contains("at most 10 runs that deliver no action"), e.refusal().detail());
        assertTrue(e.refusal().detail().contains("in 10 s"), e.refusal().detail());
        limit.take("s2").settle(true); // another session has its own count
        clock.now = clock.now.plus(Duration.ofSeconds(10));
        limit.take("s1").settle(true); // the first run of the minute has aged out
        assertThrows(RefusedException.class, () -> limit.take("s1"));
    }

    @Test
    void runsThatDeliveredInputOrNeverVerifiedAreGivenBack() {
        VerifierOnlyRuns limit = new VerifierOnlyRuns(new FakeClock());
        for (int i = 0; i < 50; i++) limit.take("s1").settle(false);
        for (int i = 0; i < VerifierOnlyRuns.PER_MINUTE; i++) limit.take("s1").settle(true);
        assertThrows(RefusedException.class, () -> limit.take("s1"));
    }

    @Test
    void runsInFlightCountSoConcurrentCallsCannotOvershoot() {
        VerifierOnlyRuns limit = new VerifierOnlyRuns(new FakeClock());
        for (int i = 0; i < VerifierOnlyRuns.PER_MINUTE; i++) limit.take("s1"); // none settled yet
        assertThrows(RefusedException.class, () -> limit.take("s1"));
    }
}

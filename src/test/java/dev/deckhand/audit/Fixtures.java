package dev.deckhand.audit;

import dev.deckhand.grant.RefusalCode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** Event builders and a settable clock for the audit tests. */
final class Fixtures {
    private Fixtures() {}

    static ActionTarget target(String grantId) {
        return new ActionTarget(grantId, 3, "0x3a00007", "mousepad", "push button", "u7Kq2");
    }

    static ActionIntent click(String runId, int step) {
        return ActionIntent.of(runId, step, ActionKind.CLICK, target("g-1"));
    }

    static ActionIntent typing(String runId, int step, int length) {
        return ActionIntent.typing(
                runId,
                step,
                ActionKind.SET_TEXT,
                new ActionTarget("g-1", 3, "0x3a00007", "mousepad", "text", "u9Zt1"),
                length);
    }

    static RunRecord run(String runId, RunRecord.Outcome outcome, RefusalCode code, Instant start) {
        return new RunRecord(
                runId,
                "open the calculator and add 2 and 26",
                "uid",
                "g-1",
                4,
                "a11y",
                RunRecord.VerifierResult.PASS,
                RunRecord.Verdict.PASS,
                outcome,
                code,
                start,
                start.plusSeconds(3));
    }

    static GrantEvent mint(String grantId) {
        return new GrantEvent(GrantEvent.Kind.MINT, grantId, 1, "0x3a00007", "mousepad");
    }

    /** A clock the test moves by hand. */
    static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant start) {
            now = start;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}

package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The retry rule on a hand-moved clock: a pause moves the clock, nothing sleeps. */
@Tag("pure")
class ProviderRetryTest {

    private Instant now = Instant.parse("2026-12-01T12:00:00Z");
    private final List<Duration> pauses = new ArrayList<>();
    private double jitter = 0.5;

    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };

    private final ProviderRetry retry = new ProviderRetry(
            clock,
            d -> {
                pauses.add(d);
                now = now.plus(d);
            },
            () -> jitter);

    /** Answers each call from the script: a ModelException is thrown, a string returned. */
    private static Supplier<String> script(Object... answers) {
        Deque<Object> left = new ArrayDeque<>(List.of(answers));
        return () -> {
            Object next = left.pop();
            if (next instanceof ModelException e) throw e;
            return (String) next;
        };
    }

    private static ModelException status(int code, String message, Duration retryAfter) {
        return new ModelException("openai", code, message, Optional.ofNullable(retryAfter));
    }

    @Test
    void retryAfterIsHonouredAndTheCallSucceeds() {
        ModelException limited = status(429, "Rate limit reached", Duration.ofSeconds(1));
        String answer = retry.call(script(limited, limited, "{\"action\":\"done\"}"), now.plusSeconds(60));
        assertEquals("{\"action\":\"done\"}", answer);
        assertEquals(2, pauses.size());
        for (Duration p : pauses) {
            assertTrue(
                    p.compareTo(Duration.ofSeconds(1)) >= 0 && p.compareTo(Duration.ofMillis(1100)) <= 0,
                    "at least the asked second, spread by at most 10 %: " + p);
        }
    }

    @Test
    void withoutRetryAfterTheBackoffDoublesWithJitterAndIsCapped() {
        ModelException down = status(503, "Service Unavailable", null);
        jitter = 1.0;
        Object[] answers = new Object[ProviderRetry.MAX_ATTEMPTS];
        java.util.Arrays.fill(answers, down);
        assertThrows(ProviderRetry.GaveUp.class, () -> retry.call(script(answers), now.plus(Duration.ofHours(1))));
        assertEquals(
                List.of(1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 30_000L, 30_000L),
                pauses.stream().map(Duration::toMillis).toList(),
                "1 s doubling, capped at 30 s");
        assertEquals(
                Duration.ofMillis(500),
                new ProviderRetry(clock, d -> {}, () -> 0.0).delay(1, down),
                "jitter draws between half and all of the step");
    }

    @Test
    void overloadTimeoutsAndNoAnswerAreRetriedAndBadRequestsAreNot() {
        for (int code : new int[] {408, 429, 500, 502, 503, 504, 529, -1}) {
            assertTrue(status(code, "x", null).transientFailure(), "retried: " + code);
        }
        for (int code : new int[] {400, 401, 403, 404, 422}) {
            ModelException bad = status(code, "Invalid schema for response_format", null);
            pauses.clear();
            assertSame(bad, assertThrows(ModelException.class, () -> retry.call(script(bad), now.plusSeconds(60))));
            assertTrue(pauses.isEmpty(), "no retry on " + code);
        }
    }

    @Test
    void aProviderThatStaysDownGivesUpBeforeTheWallClockNamingItsAnswer() {
        ModelException down = status(503, "The server is overloaded", null);
        Instant start = now;
        Instant deadline = now.plusSeconds(10);
        ProviderRetry.GaveUp e = assertThrows(
                ProviderRetry.GaveUp.class,
                () -> retry.call(script(down, down, down, down, down, down, down, down), deadline));
        assertTrue(now.isBefore(deadline), "gave up within the wall clock, at " + Duration.between(start, now));
        assertTrue(
                e.getMessage().contains("openai")
                        && e.getMessage().contains("HTTP 503")
                        && e.getMessage().contains("The server is overloaded"),
                e.getMessage());
        assertTrue(e.getMessage().contains("wall clock"), e.getMessage());
        assertSame(down, e.last());
    }

    @Test
    void aRetryAfterLongerThanTheRunLeftGivesUpAtOnce() {
        ModelException limited = status(429, "Rate limit reached", Duration.ofSeconds(120));
        ProviderRetry.GaveUp e =
                assertThrows(ProviderRetry.GaveUp.class, () -> retry.call(script(limited), now.plusSeconds(60)));
        assertTrue(pauses.isEmpty());
        assertEquals(1, e.attempts());
        assertTrue(e.getMessage().contains("in 120."), e.getMessage());
    }

    @Test
    void retryAfterReadsSecondsAndHttpDates() {
        Instant at = Instant.parse("2026-12-01T12:00:00Z");
        assertEquals(Optional.of(Duration.ofSeconds(1)), ProviderHttp.retryAfter(headers("1"), at));
        assertEquals(
                Optional.of(Duration.ofSeconds(30)),
                ProviderHttp.retryAfter(headers("Tue, 01 Dec 2026 12:00:30 GMT"), at));
        assertEquals(Optional.of(Duration.ZERO), ProviderHttp.retryAfter(headers("Tue, 01 Dec 2026 11:00:00 GMT"), at));
        assertEquals(Optional.empty(), ProviderHttp.retryAfter(headers("soon"), at));
        assertEquals(Optional.empty(), ProviderHttp.retryAfter(headers("-5"), at));
        assertEquals(
                Optional.empty(),
                ProviderHttp.retryAfter(java.net.http.HttpHeaders.of(java.util.Map.of(), (a, b) -> true), at));
    }

    private static java.net.http.HttpHeaders headers(String retryAfter) {
        return java.net.http.HttpHeaders.of(java.util.Map.of("Retry-After", List.of(retryAfter)), (a, b) -> true);
    }
}

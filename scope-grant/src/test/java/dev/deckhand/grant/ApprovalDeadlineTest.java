package dev.deckhand.grant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A run's card waits until the run's wall clock, unless the person set a shorter ttl. */
@Tag("pure")
class ApprovalDeadlineTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    @Test
    void aCardExpiresAtTheRunsDeadlineNotAfterThirtySeconds() {
        ApprovalBook book = new ApprovalBook(CLOCK, Duration.ofDays(1));
        Instant runEnds = NOW.plus(Duration.ofMinutes(10));
        ApprovalBook.Approval card =
                book.request("g1", 1, null, List.of("1. click → push button \"OK\""), Optional.empty(), runEnds);
        assertEquals(runEnds, card.expiresAt());
        assertEquals(ApprovalBook.Status.PENDING, book.status(card.id()));
    }

    @Test
    void aShorterTtlThePersonSetStillWins() {
        ApprovalBook book = new ApprovalBook(CLOCK, Duration.ofSeconds(30));
        ApprovalBook.Approval card =
                book.request("g1", 1, null, List.of("1. click"), Optional.empty(), NOW.plus(Duration.ofMinutes(10)));
        assertEquals(NOW.plusSeconds(30), card.expiresAt());
        ApprovalBook.Approval unbounded = book.request("g1", 1, null, List.of("1. click"), Optional.empty());
        assertEquals(NOW.plusSeconds(30), unbounded.expiresAt());
    }
}

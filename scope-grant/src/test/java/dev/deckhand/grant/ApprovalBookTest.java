package dev.deckhand.grant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class ApprovalBookTest {

    final MutableClock clock = new MutableClock();
    final ApprovalBook book = new ApprovalBook(clock);
    final BasisInfo basis = new BasisInfo(4, 0x100, 0, 0, 800, 600, 0.5);
    static final List<String> STEPS = List.of("click push button 'OK'", "set_text text 'Name' (5 chars)");

    ApprovalBook.Approval plain() {
        return book.request("g1", 4, basis, STEPS, Optional.empty());
    }

    ApprovalBook.Approval consequential() {
        return book.request("g1", 4, null, STEPS, Optional.of("push button 'Send' (send)"));
    }

    @Test
    void approvedInTimeIsConsumedExactlyOnce() {
        ApprovalBook.Approval a = plain();
        assertEquals(List.of(a), book.pending());
        assertEquals(ApprovalBook.Status.APPROVED, book.approve(a.id()).status());
        assertEquals(List.of(), book.pending());
        clock.advance(Duration.ofSeconds(29));
        assertEquals(Optional.empty(), book.consume(a.id(), "g1", 4, basis));
        Refusal again = book.consume(a.id(), "g1", 4, basis).orElseThrow();
        assertEquals(RefusalCode.STOPPED, again.code());
        assertTrue(again.detail().contains("already used"));
        assertEquals(STEPS, a.steps());
        assertEquals(a.requestedAt().plusSeconds(30), a.expiresAt());
    }

    @Test
    void expiredCountsAsDenyAndNamesIt() {
        ApprovalBook.Approval a = plain();
        clock.advance(ApprovalBook.DEFAULT_TTL);
        assertEquals(ApprovalBook.Status.EXPIRED, book.status(a.id()));
        assertEquals(List.of(), book.pending());
        assertThrows(IllegalStateException.class, () -> book.approve(a.id()));
        Refusal r = book.consume(a.id(), "g1", 4, basis).orElseThrow();
        assertEquals(RefusalCode.STOPPED, r.code());
        assertTrue(r.detail().contains(a.id()) && r.detail().contains("expired"), r.detail());
    }

    @Test
    void approvedButUsedTooLateHasExpired() {
        ApprovalBook.Approval a = plain();
        book.approve(a.id());
        clock.advance(Duration.ofSeconds(31));
        Refusal r = book.consume(a.id(), "g1", 4, basis).orElseThrow();
        assertTrue(r.detail().contains("expired"));
    }

    @Test
    void deniedIsRefusedAndConsequentialDenialNamesTheAction() {
        ApprovalBook.Approval a = plain();
        book.deny(a.id());
        Refusal r = book.consume(a.id(), "g1", 4, basis).orElseThrow();
        assertEquals(RefusalCode.STOPPED, r.code());
        assertTrue(r.detail().contains("denied"));
        ApprovalBook.Approval c = consequential();
        book.deny(c.id());
        Refusal rc = book.consume(c.id(), "g1", 4, null).orElseThrow();
        assertEquals(RefusalCode.CONSEQUENTIAL_NOT_NAMED, rc.code());
        assertTrue(rc.detail().contains("push button 'Send'") && rc.detail().contains("denied"), rc.detail());
        ApprovalBook.Approval late = consequential();
        clock.advance(Duration.ofSeconds(45));
        assertEquals(
                RefusalCode.CONSEQUENTIAL_NOT_NAMED,
                book.consume(late.id(), "g1", 4, null).orElseThrow().code());
    }

    @Test
    void boundToGrantRevisionAndBasis() {
        ApprovalBook.Approval a = plain();
        book.approve(a.id());
        Refusal r = book.consume(a.id(), "g1", 5, basis).orElseThrow();
        assertEquals(RefusalCode.BASIS_STALE, r.code());
        assertTrue(r.detail().contains("revision 4") && r.detail().contains("revision 5"), r.detail());
        ApprovalBook.Approval b = plain();
        book.approve(b.id());
        BasisInfo moved = new BasisInfo(4, 0x100, 5, 0, 800, 600, 0.5);
        assertEquals(
                RefusalCode.BASIS_STALE,
                book.consume(b.id(), "g1", 4, moved).orElseThrow().code());
        ApprovalBook.Approval c = plain();
        book.approve(c.id());
        assertEquals(
                RefusalCode.BASIS_STALE,
                book.consume(c.id(), "g2", 4, basis).orElseThrow().code());
    }

    @Test
    void pendingCannotBeConsumedAndUnknownIsNotFound() {
        ApprovalBook.Approval a = plain();
        assertThrows(IllegalStateException.class, () -> book.consume(a.id(), "g1", 4, basis));
        assertThrows(NoSuchElementException.class, () -> book.approve("a-nope"));
        book.approve(a.id());
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> book.deny(a.id()));
        assertTrue(twice.getMessage().contains("approved"));
    }

    @Test
    void endedGrantCancelsItsCards() {
        ApprovalBook.Approval a = plain();
        ApprovalBook.Approval b = plain();
        book.approve(b.id());
        ApprovalBook.Approval other = book.request("g2", 1, null, STEPS, Optional.empty());
        assertEquals(2, book.cancelForGrant("g1"));
        Refusal r = book.consume(a.id(), "g1", 4, basis).orElseThrow();
        assertEquals(RefusalCode.GRANT_REVOKED, r.code());
        assertTrue(r.detail().contains("g1"));
        assertEquals(
                RefusalCode.GRANT_REVOKED,
                book.consume(b.id(), "g1", 4, basis).orElseThrow().code());
        assertEquals(List.of(other), book.pending());
    }

    @Test
    void customTtlAndValidation() {
        ApprovalBook quick = new ApprovalBook(clock, Duration.ofSeconds(5));
        ApprovalBook.Approval a = quick.request("g1", 1, null, STEPS, Optional.empty());
        clock.advance(Duration.ofSeconds(5));
        assertEquals(ApprovalBook.Status.EXPIRED, quick.status(a.id()));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> book.request("g1", 1, null, List.of(), Optional.empty()));
        assertTrue(e.getMessage().contains("steps"));
        assertThrows(IllegalArgumentException.class, () -> new ApprovalBook(clock, Duration.ZERO));
    }

    @Test
    void bookStaysBounded() {
        for (int i = 0; i < 2_000; i++) {
            ApprovalBook.Approval a = plain();
            book.deny(a.id());
        }
        ApprovalBook.Approval last = plain();
        assertEquals(List.of(last), book.pending());
        assertTrue(book.get(last.id()).isPresent());
    }
}

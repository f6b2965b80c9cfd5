package dev.deckhand.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Session lifetimes on a fake clock: absolute 12 h however busy, one-time codes, logout, rotation. */
@Tag("pure")
class OwnerSessionsTest {

    private static final Instant SIGN_IN = Instant.parse("2025-01-01T08:00:00Z");

    @Test
    void aSessionEndsTwelveHoursAfterSignInHoweverOftenItIsUsed() {
        MutableClock clock = new MutableClock(SIGN_IN);
        OwnerSessions sessions = new OwnerSessions(clock);
        OwnerSessions.Session s = sessions.redeem(sessions.issueCode(), null).orElseThrow();
        for (int minutes = 0; minutes < 12 * 60 - 1; minutes += 10) {
            clock.set(SIGN_IN.plus(Duration.ofMinutes(minutes)));
            assertTrue(sessions.session(s.id()).isPresent(), "in use at +" + minutes + " min");
        }
        clock.set(SIGN_IN.plus(Duration.ofHours(12)));
        assertEquals(Optional.empty(), sessions.session(s.id()), "12 h after sign-in, used or not");
    }

    @Test
    void aCodeWorksOnceWithinTenMinutes() {
        MutableClock clock = new MutableClock(SIGN_IN);
        OwnerSessions sessions = new OwnerSessions(clock);
        String code = sessions.issueCode();
        assertTrue(sessions.redeem(code, null).isPresent());
        assertTrue(sessions.redeem(code, null).isEmpty());
        String late = sessions.issueCode();
        clock.advance(Duration.ofMinutes(11));
        assertTrue(sessions.redeem(late, null).isEmpty());
    }

    @Test
    void endingTheCodesLeavesNoneToRedeemAndSessionsLive() {
        OwnerSessions sessions = new OwnerSessions(new MutableClock(SIGN_IN));
        OwnerSessions.Session s = sessions.redeem(sessions.issueCode(), null).orElseThrow();
        String a = sessions.issueCode();
        String b = sessions.issueCode();
        assertEquals(2, sessions.endCodes());
        assertTrue(sessions.redeem(a, null).isEmpty());
        assertTrue(sessions.redeem(b, null).isEmpty());
        assertTrue(sessions.session(s.id()).isPresent(), "a signed-in browser stays signed in");
        assertEquals(0, sessions.endCodes());
        assertTrue(sessions.redeem(sessions.issueCode(), null).isPresent(), "a code asked for afterwards works");
    }

    @Test
    void signInEndsTheBrowsersPreviousSessionWithItsToken() {
        OwnerSessions sessions = new OwnerSessions(new MutableClock(SIGN_IN));
        OwnerSessions.Session first =
                sessions.redeem(sessions.issueCode(), null).orElseThrow();
        OwnerSessions.Session second =
                sessions.redeem(sessions.issueCode(), first.id()).orElseThrow();
        assertNotEquals(first.csrf(), second.csrf());
        assertEquals(Optional.empty(), sessions.session(first.id()));
        assertTrue(sessions.session(second.id()).isPresent());
        sessions.redeem("made-up", second.id());
        assertTrue(sessions.session(second.id()).isPresent(), "a bad link signs nobody out");
    }

    @Test
    void logoutEndsTheSession() {
        OwnerSessions sessions = new OwnerSessions(new MutableClock(SIGN_IN));
        OwnerSessions.Session s = sessions.redeem(sessions.issueCode(), null).orElseThrow();
        sessions.end(s.id());
        assertEquals(Optional.empty(), sessions.session(s.id()));
        sessions.end(null);
        sessions.end("unknown");
    }

    @Test
    void codesSessionIdsAndCsrfTokensAreHeldForScreeningWhileValid() {
        MutableClock clock = new MutableClock(SIGN_IN);
        java.util.Map<String, String> held = new java.util.concurrent.ConcurrentHashMap<>();
        OwnerSessions sessions = new OwnerSessions(clock, new dev.deckhand.home.HeldSecrets() {
            @Override
            public void hold(String secret, String name) {
                held.put(secret, name);
            }

            @Override
            public void release(String secret) {
                held.remove(secret);
            }
        });
        String code = sessions.issueCode();
        assertEquals("sign-in code", held.get(code));
        OwnerSessions.Session s = sessions.redeem(code, null).orElseThrow();
        assertEquals(java.util.Set.of(s.id(), s.csrf()), held.keySet(), "the used code is released");
        String late = sessions.issueCode();
        clock.advance(Duration.ofMinutes(11));
        sessions.issueCode();
        assertTrue(!held.containsKey(late), "an expired code is released");
        sessions.end(s.id());
        assertTrue(!held.containsKey(s.id()) && !held.containsKey(s.csrf()));
    }
}

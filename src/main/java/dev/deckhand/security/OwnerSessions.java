package dev.deckhand.security;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Browser sign-in for the person: a one-time code (printed at start, or minted with the owner
 * token) is exchanged once for a session cookie; every write through a cookie also needs that
 * session's CSRF token. Scripts use the owner token as a bearer header instead and need no CSRF
 * token (a browser cannot attach that header to a cross-site request).
 */
@ApplicationScoped
public class OwnerSessions {

    public static final String COOKIE = "deckhand_session";
    public static final String CSRF_HEADER = "X-CSRF-Token";
    static final Duration CODE_LIFETIME = Duration.ofMinutes(10);
    static final Duration SESSION_IDLE = Duration.ofHours(12);

    /** A signed-in browser session. */
    public record Session(String id, String csrf, Instant lastUsed) { }

    private record Code(Instant expires) { }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Code> codes = new ConcurrentHashMap<>();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final Clock clock;

    public OwnerSessions() {
        this(Clock.systemUTC());
    }

    OwnerSessions(Clock clock) {
        this.clock = clock;
    }

    /** A new one-time sign-in code, valid for {@link #CODE_LIFETIME}. */
    public String issueCode() {
        String code = randomToken();
        codes.put(code, new Code(clock.instant().plus(CODE_LIFETIME)));
        return code;
    }

    /** Exchanges a code (once) for a new session. */
    public Optional<Session> redeem(String code) {
        if (code == null) return Optional.empty();
        Code c = codes.remove(code);
        if (c == null || clock.instant().isAfter(c.expires())) return Optional.empty();
        Session s = new Session(randomToken(), randomToken(), clock.instant());
        sessions.put(s.id(), s);
        return Optional.of(s);
    }

    /** The live session with this id, touched; expired sessions are dropped. */
    public Optional<Session> session(String id) {
        if (id == null) return Optional.empty();
        Session s = sessions.get(id);
        if (s == null) return Optional.empty();
        Instant now = clock.instant();
        if (now.isAfter(s.lastUsed().plus(SESSION_IDLE))) {
            sessions.remove(id);
            return Optional.empty();
        }
        Session touched = new Session(s.id(), s.csrf(), now);
        sessions.put(id, touched);
        return Optional.of(touched);
    }

    public void end(String id) {
        if (id != null) sessions.remove(id);
    }

    static boolean csrfMatches(Session session, String candidate) {
        return candidate != null && MessageDigest.isEqual(session.csrf().getBytes(), candidate.getBytes());
    }

    private String randomToken() {
        byte[] b = new byte[24];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}

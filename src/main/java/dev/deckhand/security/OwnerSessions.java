package dev.deckhand.security;

import dev.deckhand.home.HeldSecrets;
import dev.deckhand.home.KnownSecrets;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Browser sign-in for the person: a one-time code (minted with the owner token, e.g. by
 * {@code deckhand signin}) is exchanged once for a session cookie; every request through a cookie also
 * needs that session's CSRF token ({@link HttpGuard}). A session lasts at most {@link #SESSION_LIFETIME}
 * from sign-in however much it is used, ends at logout, and signing in again ends the session the
 * browser had: each sign-in gets a new session id and a new CSRF token. Scripts use the owner token as a
 * bearer header instead and need no CSRF token (a browser cannot attach that header to a cross-site request).
 */
@ApplicationScoped
public class OwnerSessions {

    public static final String COOKIE = "deckhand_session";
    public static final String CSRF_HEADER = "X-CSRF-Token";
    static final Duration CODE_LIFETIME = Duration.ofMinutes(10);
    /** Absolute: counted from sign-in, never extended by use. */
    public static final Duration SESSION_LIFETIME = Duration.ofHours(12);

    /** A signed-in browser session. */
    public record Session(String id, String csrf, Instant expires) {}

    private record Code(Instant expires) {}

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Code> codes = new ConcurrentHashMap<>();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final Clock clock;
    private final HeldSecrets held;

    /** Sessions whose secrets are not screened for (tests of the sessions alone). */
    public OwnerSessions(Clock clock) {
        this(clock, HeldSecrets.NONE);
    }

    /** @param held where each code, session id and CSRF token is known while valid, to be screened for */
    @Inject
    public OwnerSessions(Clock clock, KnownSecrets held) {
        this(clock, (HeldSecrets) held);
    }

    OwnerSessions(Clock clock, HeldSecrets held) {
        this.clock = clock;
        this.held = held;
    }

    /** A new one-time sign-in code, valid for {@link #CODE_LIFETIME}. */
    public String issueCode() {
        Instant now = clock.instant();
        dropExpired(now);
        String code = randomToken();
        codes.put(code, new Code(now.plus(CODE_LIFETIME)));
        held.hold(code, "sign-in code");
        return code;
    }

    /**
     * Exchanges a code (once) for a new session with a new CSRF token, ending the session {@code previous}
     * (the cookie the browser had, may be null). A bad code ends nothing: a link cannot sign anyone out.
     */
    public Optional<Session> redeem(String code, String previous) {
        if (code == null) return Optional.empty();
        Code c = codes.remove(code);
        if (c != null) held.release(code);
        Instant now = clock.instant();
        if (c == null || now.isAfter(c.expires())) return Optional.empty();
        end(previous);
        dropExpired(now);
        Session s = new Session(randomToken(), randomToken(), now.plus(SESSION_LIFETIME));
        sessions.put(s.id(), s);
        held.hold(s.id(), "owner session id");
        held.hold(s.csrf(), "CSRF token");
        return Optional.of(s);
    }

    /** The live session with this id; an expired one is dropped. */
    public Optional<Session> session(String id) {
        if (id == null) return Optional.empty();
        Session s = sessions.get(id);
        if (s == null) return Optional.empty();
        if (!clock.instant().isBefore(s.expires())) {
            end(id);
            return Optional.empty();
        }
        return Optional.of(s);
    }

    /** Ends the session with this id (logout); nothing happens for an unknown or null id. */
    public void end(String id) {
        if (id == null) return;
        Session s = sessions.remove(id);
        if (s != null) {
            held.release(s.id());
            held.release(s.csrf());
        }
    }

    /**
     * Ends every sign-in code not yet used (the person runs {@code deckhand signin} again); returns how many. Called
     * before a granted terminal's pixels go to the model: a code printed in that terminal would be in them, where no
     * text matcher reads it, and the model could hand it back in another spelling (docs/security.md).
     */
    public int endCodes() {
        int ended = 0;
        for (String code : List.copyOf(codes.keySet())) {
            if (codes.remove(code) != null) {
                held.release(code);
                ended++;
            }
        }
        return ended;
    }

    /** Forgets expired codes and sessions, and stops screening for them. */
    private void dropExpired(Instant now) {
        codes.entrySet().removeIf(e -> {
            boolean expired = now.isAfter(e.getValue().expires());
            if (expired) held.release(e.getKey());
            return expired;
        });
        for (Session s : List.copyOf(sessions.values())) if (!now.isBefore(s.expires())) end(s.id());
    }

    static boolean csrfMatches(Session session, String candidate) {
        return candidate != null
                && MessageDigest.isEqual(
                        session.csrf().getBytes(StandardCharsets.US_ASCII),
                        candidate.getBytes(StandardCharsets.US_ASCII));
    }

    private String randomToken() {
        byte[] b = new byte[24];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}

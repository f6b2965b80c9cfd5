package dev.deckhand.run;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.verify.VerifierSpec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;

/**
 * The budget of verifier reads: runs whose verifier reads a file or the screen ({@code file}, {@code a11y},
 * {@code window}) are counted whatever else the run does — steps, model turns, delivered input — so no verifier
 * serves as an unbounded guessing oracle (is the file's text X? the label's?). At most {@code perSession}
 * such runs in any sliding minute per MCP session and {@code perServer} across all sessions (a new session
 * does not start the server's count afresh); the next is refused {@code OUT_OF_SCOPE} naming the limit,
 * before any grant is bound or any input given.
 *
 * <p>A {@link Slot} is taken before the run starts, so concurrent calls cannot overshoot, and is given back
 * only when the run never ran its verifier (refused before it started): nothing was read. A {@code command}
 * verifier is not counted: it runs only the exact argv the person enabled. The clock is injected.
 */
@ApplicationScoped
public class VerifierReads {

    public static final int PER_SESSION = 10;
    public static final int PER_SERVER = 30;
    static final Duration WINDOW = Duration.ofMinutes(1);

    private final Clock clock;
    private final int perSession;
    private final int perServer;
    /** The slots of the last minute, oldest first: at most {@code perServer}. */
    private final Deque<Slot> recent = new ArrayDeque<>();

    /** With {@code deckhand.verifier-reads.per-session} and {@code .per-server} (defaults 10 and 30). */
    @Inject
    public VerifierReads(Clock clock, VerifierReadsConfig config) {
        this(clock, config.perSession(), config.perServer());
    }

    public VerifierReads(Clock clock, int perSession, int perServer) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (perSession < 1 || perServer < 1) {
            throw new IllegalArgumentException(
                    "deckhand.verifier-reads.per-session and .per-server must be at least 1");
        }
        this.perSession = perSession;
        this.perServer = perServer;
    }

    /** Whether a run with this verifier counts: its verifier reads a file or the screen. */
    public static boolean reads(Optional<VerifierSpec> verifier) {
        return verifier.isPresent()
                && (verifier.get() instanceof VerifierSpec.File
                        || verifier.get().readsScreen());
    }

    /** A place among the last minute's verifier reads, taken before a counted run starts. */
    public final class Slot {
        private final String session;
        private final Instant taken;

        private Slot(String session, Instant taken) {
            this.session = session;
            this.taken = taken;
        }

        /** After the run: a run whose verifier never ran read nothing and gives its slot back; any other keeps it. */
        public void settle(boolean verifierRan) {
            if (!verifierRan) release(this);
        }
    }

    /**
     * A slot for a counted run in {@code session}.
     *
     * @throws RefusedException OUT_OF_SCOPE when the session, or the server, has had its limit of counted runs
     *     (or has that many in flight) within the last minute; the detail names the limit and the wait
     */
    public synchronized Slot take(String session) {
        Objects.requireNonNull(session, "session");
        Instant now = clock.instant();
        while (!recent.isEmpty() && !recent.peekFirst().taken.plus(WINDOW).isAfter(now)) recent.removeFirst();
        Optional<Slot> oldestOfSession =
                recent.stream().filter(s -> s.session.equals(session)).findFirst();
        long ofSession = recent.stream().filter(s -> s.session.equals(session)).count();
        if (ofSession >= perSession) {
            throw refusal(perSession + " per minute per MCP session", "this session", oldestOfSession.get(), now);
        }
        if (recent.size() >= perServer) {
            throw refusal(
                    perServer + " per minute per server, across MCP sessions", "this server", recent.peekFirst(), now);
        }
        Slot slot = new Slot(session, now);
        recent.addLast(slot);
        return slot;
    }

    private static RefusedException refusal(String limit, String who, Slot oldest, Instant now) {
        long wait = Math.max(1, Duration.between(now, oldest.taken.plus(WINDOW)).toSeconds());
        return new RefusedException(Refusal.outOfScope("verifier reads: " + limit + " (runs whose verifier reads a "
                + "file or the screen, whatever else they do); " + who + " may run the next in " + wait + " s"));
    }

    private synchronized void release(Slot slot) {
        recent.remove(slot); // by identity: Slot does not override equals
    }
}

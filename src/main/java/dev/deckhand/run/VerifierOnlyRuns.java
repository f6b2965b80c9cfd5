package dev.deckhand.run;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The rate limit on runs that deliver no action (DESIGN.md §5): per MCP session at most
 * {@value #PER_MINUTE} a minute whose verifier ran without any input being delivered, so no verifier
 * serves as a guessing oracle. Every run that declares a verifier takes a {@link Slot} before it starts
 * (the eleventh within a minute is refused {@code OUT_OF_SCOPE} naming the limit, so concurrent calls
 * cannot overshoot) and gives it back when it turns out to have delivered input or never ran its
 * verifier. The clock is injected.
 */
@ApplicationScoped
public class VerifierOnlyRuns {

    public static final int PER_MINUTE = 10;
    static final Duration WINDOW = Duration.ofMinutes(1);

    private final Clock clock;
    private final Map<String, Deque<Instant>> runs = new HashMap<>();

    @Inject
    public VerifierOnlyRuns(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A place among the session's runs of the last minute, taken before a run with a verifier starts. */
    public final class Slot {
        private final String session;
        private final Instant taken;

        private Slot(String session, Instant taken) {
            this.session = session;
            this.taken = taken;
        }

        /**
         * After the run: {@code deliveredNoAction} — its verifier ran and no input was delivered — keeps
         * the slot for a minute; otherwise it is given back.
         */
        public void settle(boolean deliveredNoAction) {
            if (!deliveredNoAction) release(this);
        }
    }

    /**
     * A slot for a run in {@code session}.
     *
     * @throws RefusedException OUT_OF_SCOPE when the session has had {@value #PER_MINUTE} runs that delivered
     *     no action (or has that many in flight) within the last minute
     */
    public synchronized Slot take(String session) {
        Instant now = clock.instant();
        Deque<Instant> recent = runs.computeIfAbsent(session, s -> new ArrayDeque<>());
        while (!recent.isEmpty() && !recent.peekFirst().plus(WINDOW).isAfter(now)) recent.removeFirst();
        if (recent.size() >= PER_MINUTE) {
            long wait = Math.max(1, Duration.between(now, recent.peekFirst().plus(WINDOW)).toSeconds());
            throw new RefusedException(Refusal.outOfScope("at most " + PER_MINUTE + " runs that deliver no action "
                    + "(verifier-only runs) a minute per MCP session; this session may run the next in " + wait + " s"));
        }
        recent.addLast(now);
        runs.entrySet().removeIf(e -> !e.getKey().equals(session) && e.getValue().stream().noneMatch(t -> t.plus(WINDOW).isAfter(now)));
        return new Slot(session, now);
    }

    private synchronized void release(Slot slot) {
        Deque<Instant> recent = runs.get(slot.session);
        if (recent != null) {
            recent.removeFirstOccurrence(slot.taken);
            if (recent.isEmpty()) runs.remove(slot.session);
        }
    }
}

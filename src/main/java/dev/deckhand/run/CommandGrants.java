package dev.deckhand.run;

import dev.deckhand.home.SecretFileReads;
import dev.deckhand.loop.desktop.Around;
import dev.deckhand.loop.desktop.Call;
import dev.deckhand.owner.GrantService;
import dev.deckhand.platform.Processes;
import dev.deckhand.security.OwnerSessions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The grants whose app runs commands and was given input: from that input until the grant ends, every foreign
 * open of Deckhand's secret files may be the granted app's doing. A command given once can wait before it reads
 * ({@code (sleep 4; rev < owner-token > f) &}) and show the copy later, in this run or the next; so the secret
 * files stay watched for the rest of the grant's life, not only from an input to the read after it, and a foreign
 * open in that time revokes the grant and replaces the owner token ({@code owner.ForeignSecretReads}). When the grant
 * ends, what the kernel queued is drained while it is still held, then it is let go.
 *
 * <p>A command can also outlive the grant ({@code nohup sh -c "sleep 25; rev owner-token > f" &}, round 2 of the
 * review: the read came after the grant was revoked and the copy showed in the next grant's capture). Where it runs
 * is the command's choice: a child of the app, detached to init or a subreaper, a {@code tmux} pane's shell or a
 * {@code tmux run-shell} job (children of a server started long before: rounds 5 and 6), a D-Bus activated service.
 * So when the grant ends, every process started since its first input that still runs, whatever its parent, and
 * the granted app's own processes (the shell that took the input can act later with builtins alone, starting
 * nothing: round 7), and every process started while they run (one may start another and end before its child is
 * seen: round 7), keep the watch on until the last of them has ended ({@link #lingering}); a foreign open
 * meanwhile replaces the owner token ({@code owner.ForeignSecretReads}). The cost: a granted terminal keeps the
 * secret files watched until it is closed, a program the person or the desktop starts in that time does too, and a
 * person's {@code deckhand signin} then finds its token replaced.
 *
 * <p>Such an app's pixels can also show a sign-in code the person printed there ({@code deckhand signin}); no text
 * matcher reads pixels, so every capture of it for the model first ends the codes not yet used ({@link #captures}).
 */
@ApplicationScoped
public class CommandGrants {

    private static final Logger LOG = Logger.getLogger(CommandGrants.class);

    private final Set<String> held = new HashSet<>();
    /** Per held grant: when its first input came and the granted app's process. */
    private final Map<String, Held> heldSince = new HashMap<>();
    /** Processes started under an ended grant that still run, by pid with their start; the watch stays on for them. */
    private final Map<Integer, Long> lingering = new HashMap<>();
    /** When lingering processes were last looked for ({@link Processes#nowTicks}): the next poll adds what started since. */
    private long polled = -1;

    /** A held grant's first input ({@link Processes#nowTicks}) and its app's process. */
    private record Held(long ticks, int pid) {}

    private final OwnerSessions sessions;
    private ScheduledFuture<?> polling;
    private final ScheduledExecutorService poll = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "deckhand-lingering-commands");
        t.setDaemon(true);
        return t;
    });

    @Inject
    public CommandGrants(GrantService grants, OwnerSessions sessions) {
        this.sessions = sessions;
        grants.broker().onEnd(ended -> ended.grant().ifPresent(g -> release(g.id())));
    }

    /**
     * Around the loop's reads of a granted app that runs commands: before each capture (what the model will see),
     * the sign-in codes not yet used end. Round 2 of the review: a code the person printed in a granted xterm went
     * to the model in a capture and came back reversed in the summary, and the MCP client signed in with it.
     */
    Around captures() {
        return new Around() {
            @Override
            public <T> T call(Call which, Supplier<T> call) {
                if (which == Call.CAPTURE) {
                    int ended = sessions.endCodes();
                    if (ended > 0) {
                        LOG.infof(
                                "%d sign-in code(s) ended: a granted app that runs commands is captured for the model;"
                                        + " run 'deckhand signin' again",
                                ended);
                    }
                }
                return call.get();
            }
        };
    }

    /** The grant's app runs commands and a run of it is about to give input: watched until the grant ends. */
    synchronized void hold(String grantId, int pid) {
        if (held.add(grantId)) {
            heldSince.put(grantId, new Held(Processes.nowTicks() - 1, pid));
            SecretFileReads.arm();
        }
    }

    synchronized void release(String grantId) {
        if (!held.remove(grantId)) return;
        SecretFileReads.mark(); // drains the queue while the grant still counts
        Held since = heldSince.remove(grantId);
        boolean wasLingering = !lingering.isEmpty();
        long now = Processes.nowTicks() - 1;
        if (since != null && since.ticks() >= 0) lingering.putAll(Processes.startedSince(since.ticks()));
        if (since != null) lingering.putAll(Processes.runningUnder(since.pid()));
        if (!wasLingering) polled = now;
        if (!wasLingering && !lingering.isEmpty()) {
            LOG.infof(
                    "%d process(es) started under a command grant still run: Deckhand's secret files stay watched "
                            + "until they end",
                    lingering.size());
            SecretFileReads.arm(); // one window for all that linger, closed when the last has ended
            polling = poll.scheduleWithFixedDelay(this::pollLingering, 1, 1, TimeUnit.SECONDS);
        }
        SecretFileReads.disarm();
    }

    private synchronized void pollLingering() {
        if (lingering.isEmpty()) return;
        // a lingering process may start another and end before a poll sees whose child it was (round 7:
        // sh -c 'sleep 6; setsid sh -c "…" &'): every process started since the last poll lingers too
        long now = Processes.nowTicks() - 1;
        if (polled >= 0) lingering.putAll(Processes.startedSince(polled));
        polled = now;
        lingering.entrySet().removeIf(e -> !Processes.runs(e.getKey(), e.getValue()));
        if (!lingering.isEmpty()) return;
        SecretFileReads.mark(); // what they opened before they ended still counts
        SecretFileReads.disarm();
        LOG.info("the processes started under an ended command grant have all ended: the secret files' watch is off");
        polling.cancel(false);
    }

    /** How many processes started under an ended grant still keep the watch on (tests, diagnostics). */
    public synchronized int lingering() {
        return lingering.size();
    }

    /** Whether {@code grantId} is held (tests). */
    synchronized boolean holds(String grantId) {
        return held.contains(grantId);
    }
}

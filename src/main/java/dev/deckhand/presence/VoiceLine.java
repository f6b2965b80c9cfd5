package dev.deckhand.presence;

import dev.deckhand.loop.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The voice line: one fixed sentence before a run's first action and one at its finish, spoken by an
 * external speech command on a thread of its own (the run never waits for it). The sentences are built
 * here from fixed words and the outcome only — never from the instruction, the model's output or typed
 * text. At most a few lines queue; more are dropped.
 */
public final class VoiceLine implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(VoiceLine.class);

    /** Said before the first action. */
    public static final String STARTING = "Deckhand is starting to act.";

    private final List<String> command;
    private final CommandRunner runner;
    private final Duration bound;
    private final ExecutorService speaker = new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(4),
            r -> {
                Thread t = new Thread(r, "deckhand-voice");
                t.setDaemon(true);
                return t;
            },
            new ThreadPoolExecutor.AbortPolicy());

    /** @param command the speech command; {@code {text}} in an argument is replaced by the sentence */
    public VoiceLine(List<String> command, CommandRunner runner, Duration bound) {
        this.command = List.copyOf(command);
        if (this.command.isEmpty()) throw new IllegalArgumentException("voice command must not be empty");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.bound = Objects.requireNonNull(bound, "bound");
    }

    /** The sentence at the finish: fixed words and the outcome. */
    public static String finished(Outcome.Kind outcome) {
        if (outcome == null) return "Deckhand has stopped.";
        return switch (outcome) {
            case COMPLETED -> "Deckhand has finished.";
            case STOPPED -> "Deckhand has stopped.";
            case REFUSED -> "Deckhand has finished: refused.";
            default ->
                "Deckhand has finished: "
                        + outcome.name().toLowerCase(Locale.ROOT).replace('_', ' ') + ".";
        };
    }

    /** Queues {@code sentence} (one of this class's fixed lines); returns at once. Empty when dropped. */
    public java.util.Optional<Future<CommandRunner.Result>> say(String sentence) {
        List<String> argv =
                command.stream().map(a -> a.replace("{text}", sentence)).toList();
        try {
            return java.util.Optional.of(speaker.submit(() -> {
                CommandRunner.Result r = runner.run(argv, bound);
                if (!r.ok()) LOG.warnf("the voice line failed: %s", r.output().strip());
                return r;
            }));
        } catch (RejectedExecutionException full) {
            LOG.debugf("voice line dropped (queue full): %s", sentence);
            return java.util.Optional.empty();
        }
    }

    @Override
    public void close() {
        speaker.shutdownNow();
    }
}

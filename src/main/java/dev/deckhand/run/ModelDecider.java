package dev.deckhand.run;

import dev.deckhand.grant.OwnSecrets;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.Decider;
import dev.deckhand.loop.DecisionFailed;
import dev.deckhand.loop.DecisionRequest;
import dev.deckhand.loop.observe.ObservationText;
import dev.deckhand.model.ModelClient;
import dev.deckhand.model.ModelException;
import dev.deckhand.model.ModelReply;
import dev.deckhand.model.ModelTurn;
import dev.deckhand.model.ProviderRetry;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The loop's {@link Decider} over the person's bound model. The prompt stays small: the instruction,
 * the last few steps as short lines and the current observation, plus the capture only when the
 * loop routed pixels (never a history of images). The model call runs on its own thread so that Stop
 * or a watcher abort ends the wait within one poll, whatever the provider is doing.
 */
final class ModelDecider implements Decider {

    static final String SYSTEM_PROMPT = """
            You operate one desktop window that the user granted, to carry out the user's instruction.
            Each turn you see the window's accessibility tree, and when the user allowed pixels also a capture of the window.
            Answer with exactly ONE action as a single JSON object that matches the given schema, and nothing else.
            Prefer acting on elements by their uid from the current observation. Use click_at where the tree has nothing
            to act on (a canvas, a drawing, a custom widget, a control missing from the tree), only with the basis id of
            the capture shown this turn; element bounds (@x,y wxh) are in that capture's pixels, the coordinates click_at
            takes, and a point on a control counts as clicking that control. When the instruction is carried out, answer
            {"action": "done", "summary": "..."}; when it cannot be, answer {"action": "fail", "reason": "..."}. You
            cannot leave the granted window, and some actions (sending, paying, deleting, passwords) will be refused
            unless the user allowed them.
            """ + ObservationText.LEGEND;

    /** Said on a native Wayland window, whose schema has no key, type or click_at (docs/wayland.md). */
    static final String NO_SYNTHETIC_INPUT =
            "This window is a native Wayland app: there is no keyboard or pointer input,"
                    + " so key, type and click_at do not exist here. Act on elements by uid (set_text writes text); reach a"
                    + " shortcut through the app's menu items.";

    private static final long POLL_MILLIS = 20;

    private final ModelClient model;
    private final ExecutorService executor;
    private final Supplier<Optional<Refusal>> interruption;
    private final java.util.concurrent.atomic.AtomicLong modelNanos = new java.util.concurrent.atomic.AtomicLong();
    private final UsageTally usage;
    private final ProviderRetry retry;
    private final Instant deadline;
    private volatile String lastText;
    private final Supplier<OwnSecrets> secrets;

    /**
     * @param interruption Stop or a watcher abort, checked every 20 ms while the model answers
     * @param usage where each turn and each answer's tokens are counted
     * @param retry the retry rule for transient provider failures
     * @param deadline the run's wall clock: no retry waits past it
     * @param secrets Deckhand's own secrets: a turn that would carry one is not sent
     */
    ModelDecider(
            ModelClient model,
            ExecutorService executor,
            Supplier<Optional<Refusal>> interruption,
            UsageTally usage,
            ProviderRetry retry,
            Instant deadline,
            Supplier<OwnSecrets> secrets) {
        this.secrets = secrets;
        this.model = model;
        this.executor = executor;
        this.interruption = interruption;
        this.usage = usage;
        this.retry = retry;
        this.deadline = deadline;
    }

    /** Time spent waiting for the provider, summed over the run. */
    long modelNanos() {
        return modelNanos.get();
    }

    /** Model turns asked so far. */
    int turns() {
        return usage.turns();
    }

    /** The model's latest raw answer (its final report when the run ended on its done or fail), or empty. */
    Optional<String> lastText() {
        return Optional.ofNullable(lastText);
    }

    @Override
    public String decide(DecisionRequest request) {
        StringBuilder user = new StringBuilder(512 + request.observation().length());
        user.append("Instruction: ").append(request.instruction()).append('\n');
        if (!request.lastSteps().isEmpty()) {
            user.append("Last steps:\n");
            request.lastSteps().forEach(s -> user.append("- ").append(s).append('\n'));
        }
        request.capture().ifPresent(c -> user.append("Capture ")
                .append(c.id())
                .append(": ")
                .append(c.capture().width())
                .append('x')
                .append(c.capture().height())
                .append(" pixels of the window (use basis \"")
                .append(c.id())
                .append("\" for click_at)\n"));
        request.captureWithheld().ifPresent(why -> user.append("No capture this turn (")
                .append(why)
                .append("): act by uid; click_at has no basis this turn\n"));
        if (!request.syntheticInput()) user.append(NO_SYNTHETIC_INPUT).append('\n');
        user.append("Observation:\n").append(request.observation());
        // The last gate before the provider: the tree was screened when read, but the instruction, the last
        // steps and the feedback were not.
        Optional<String> secret =
                secrets.get().which(user + "\n" + request.feedback().orElse(""));
        if (secret.isPresent()) {
            throw new RefusedException(Refusal.secretOnScreen(
                    "Deckhand's " + secret.get() + " was in the model's next turn; nothing was sent"));
        }
        ModelTurn turn = ModelTurn.of(SYSTEM_PROMPT, user.toString(), request.actionSchema());
        if (request.capture().isPresent())
            turn = turn.withImage(request.capture().get().capture().image());
        if (request.feedback().isPresent())
            turn = turn.withFeedback(request.feedback().get());
        ModelTurn finalTurn = turn;
        usage.asked();
        Future<String> answer = executor.submit(() -> {
            long t0 = System.nanoTime();
            try {
                ModelReply reply = retry.call(() -> model.reply(finalTurn), deadline);
                usage.answered(reply);
                lastText = reply.text();
                return reply.text();
            } finally {
                modelNanos.addAndGet(System.nanoTime() - t0);
            }
        });
        try {
            while (true) {
                Optional<Refusal> stop = interruption.get();
                if (stop.isPresent()) {
                    answer.cancel(true);
                    throw new RefusedException(stop.get());
                }
                try {
                    return answer.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException stillThinking) {
                    // poll again
                }
            }
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new RefusedException(Refusal.stopped("interrupted while the model was answering"));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ProviderRetry.GaveUp gaveUp) throw new DecisionFailed(gaveUp.getMessage());
            if (cause instanceof ModelException failed) {
                throw new DecisionFailed("the model provider " + failed.providerId() + " refused the call: "
                        + (failed.httpStatus() > 0 ? "HTTP " + failed.httpStatus() + " " : "") + "\""
                        + failed.providerMessage() + "\"");
            }
            if (cause instanceof RuntimeException re) throw re;
            throw new IllegalStateException(cause);
        }
    }
}

package dev.deckhand.loop.verify;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the declared verifier with a cap ({@link #CAP}, 120 s, injectable for tests) on its own
 * thread. A timeout, an exception, an interrupt or a null result is a fail; no verifier is
 * {@link Verdict#NONE}. The run's verdict comes from here and nowhere else.
 */
public final class VerifierRunner {

    public static final Duration CAP = Duration.ofSeconds(120);

    private final Verifier verifier;
    private final Duration cap;
    private final ThreadFactory threads;

    public VerifierRunner(Verifier verifier) {
        this(verifier, CAP, r -> {
            Thread t = new Thread(r, "deckhand-verifier");
            t.setDaemon(true);
            return t;
        });
    }

    public VerifierRunner(Verifier verifier, Duration cap, ThreadFactory threads) {
        this.verifier = Objects.requireNonNull(verifier, "verifier");
        this.cap = Objects.requireNonNull(cap, "cap");
        this.threads = Objects.requireNonNull(threads, "threads");
        if (cap.isNegative() || cap.isZero()) throw new IllegalArgumentException("cap must be positive");
    }

    /**
     * The refusals after which nothing is read from the screen for the verifier (docs/design.md#verifiers): the absolute
     * ones and the deny lists. What fired them may be on screen (a password, a chat, Deckhand's own page).
     */
    public static final Set<RefusalCode> SCREEN_SEALED = EnumSet.of(
            RefusalCode.OWN_WINDOW,
            RefusalCode.SECURE_INPUT,
            RefusalCode.SYSTEM_CHORD,
            RefusalCode.DENY_CREDENTIAL_APP,
            RefusalCode.DENY_COMMS_VISIBLE,
            RefusalCode.DENY_HOST,
            RefusalCode.SECRET_ON_SCREEN,
            RefusalCode.DENY_PATH);

    /**
     * As {@link #run(Optional)} at the end of a run that ended with {@code ending}: after a
     * {@link #SCREEN_SEALED} refusal a verifier that reads the screen is not run at all — verdict fail, the
     * detail naming the refusal and nothing read. {@code file} and {@code command} verifiers read no screen and run.
     */
    public VerifierReport run(Optional<VerifierSpec> spec, Optional<Refusal> ending) {
        // A secret on screen ends everything: a file or command verifier could read the same secret
        // (the app had it open), so no verifier of any kind runs.
        if (spec.isPresent() && ending.isPresent() && ending.get().code() == RefusalCode.SECRET_ON_SCREEN) {
            return new VerifierReport(
                    Verdict.FAIL,
                    spec.get().kind() + " verifier gives no verdict: the run was refused "
                            + RefusalCode.SECRET_ON_SCREEN
                            + ", after which no verifier reads or reports (counts as fail)");
        }
        if (spec.isPresent()
                && spec.get().readsScreen()
                && ending.isPresent()
                && SCREEN_SEALED.contains(ending.get().code())) {
            return new VerifierReport(
                    Verdict.FAIL,
                    spec.get().kind() + " verifier not run: the run was refused "
                            + ending.get().code()
                            + ", and nothing is read from the screen after an absolute or deny-list refusal (counts as fail)");
        }
        return run(spec);
    }

    public VerifierReport run(Optional<VerifierSpec> spec) {
        if (spec.isEmpty()) return VerifierReport.none();
        VerifierSpec s = spec.get();
        FutureTask<VerifierResult> task = new FutureTask<>(() -> verifier.verify(s));
        threads.newThread(task).start();
        try {
            VerifierResult r = task.get(cap.toMillis(), TimeUnit.MILLISECONDS);
            if (r == null) return new VerifierReport(Verdict.FAIL, s.kind() + " verifier returned no result");
            return new VerifierReport(r.passed() ? Verdict.PASS : Verdict.FAIL, r.detail());
        } catch (TimeoutException e) {
            task.cancel(true);
            return new VerifierReport(
                    Verdict.FAIL, s.kind() + " verifier timed out after " + cap.toSeconds() + " s (counts as fail)");
        } catch (ExecutionException e) {
            return new VerifierReport(
                    Verdict.FAIL, s.kind() + " verifier failed: " + failure(e.getCause() == null ? e : e.getCause()));
        } catch (InterruptedException e) {
            task.cancel(true);
            Thread.currentThread().interrupt();
            return new VerifierReport(Verdict.FAIL, s.kind() + " verifier was interrupted (counts as fail)");
        }
    }

    /**
     * What a verifier's exception says in the detail: a refusal's code and detail (built to name what fired, never
     * what it saw), otherwise only the exception's type — its message may carry what a library read (a path's
     * target, a line of the file, an app's reply).
     */
    static String failure(Throwable c) {
        if (c instanceof RefusedException r)
            return r.code() + " (" + r.refusal().detail() + ")";
        return c.getClass().getSimpleName() + " (counts as fail)";
    }
}

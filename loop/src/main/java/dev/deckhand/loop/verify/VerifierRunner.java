package dev.deckhand.loop.verify;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
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
            return new VerifierReport(Verdict.FAIL, s.kind() + " verifier timed out after " + cap.toSeconds() + " s (counts as fail)");
        } catch (ExecutionException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            return new VerifierReport(Verdict.FAIL, s.kind() + " verifier failed: " + c.getClass().getSimpleName()
                    + (c.getMessage() == null ? "" : ": " + c.getMessage()));
        } catch (InterruptedException e) {
            task.cancel(true);
            Thread.currentThread().interrupt();
            return new VerifierReport(Verdict.FAIL, s.kind() + " verifier was interrupted (counts as fail)");
        }
    }
}

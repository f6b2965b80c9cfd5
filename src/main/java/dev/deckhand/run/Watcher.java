package dev.deckhand.run;

import dev.deckhand.grant.DenyScan;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.guard.FactsMapper;
import dev.deckhand.loop.guard.GrantGuard;
import dev.deckhand.policy.PolicyStore;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The watcher of docs/design.md#deny-lists: while a run goes on, every poll interval, the deny lists of the policy as
 * it is now against the desktop's facts, the grant's expiry ({@link GrantBroker#active} notices it), and what the
 * guard watches between its checks ({@link GrantGuard#watch}: the granted app took the person's focus, the keyboard
 * was changed), so that a window an app activates on its own seconds later ends the run within one interval.
 * What it finds aborts the run through its guard, which ends it at its next check.
 */
@ApplicationScoped
public class Watcher {

    private final PolicyStore policy;
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(1, r -> {
        Thread t = new Thread(r, "deckhand-watcher");
        t.setDaemon(true);
        return t;
    });

    @Inject
    public Watcher(PolicyStore policy) {
        this.policy = policy;
    }

    /** One run's watch; closing it stops the scans. */
    public interface Watch extends AutoCloseable {
        @Override
        void close();
    }

    /** Watches one run until the returned handle is closed. */
    public Watch watch(Desktop desktop, GrantBroker broker, GrantGuard guard, Duration interval) {
        ScheduledFuture<?> task = timer.scheduleWithFixedDelay(
                () -> scan(desktop, broker, guard), interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return () -> task.cancel(false);
    }

    private void scan(Desktop desktop, GrantBroker broker, GrantGuard guard) {
        try {
            broker.active();
            DenyScan.scan(policy.current(), FactsMapper.facts(desktop.facts().current(), 0))
                    .ifPresent(guard::abort);
            // the person's focus and keyboard: a finding is held as the run's verdict by the guard itself
            guard.watch(Duration.ZERO);
        } catch (RefusedException e) {
            guard.abort(e.refusal());
        } catch (RuntimeException e) {
            guard.abort(Refusal.a11yUnavailable("the watcher could not read the desktop: " + e.getMessage()));
        }
    }

    @PreDestroy
    void shutdown() {
        timer.shutdownNow();
    }
}

package dev.deckhand.platform.atspi;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * State that only the libatspi thread may touch: it is built on that thread, and the one way to reach
 * it afterwards is a task that runs there ({@link AtspiThread#call}). libatspi is not thread-safe, so
 * every object holding a libatspi pointer, the GError slot or a walk's bookkeeping is reachable only
 * through one of these; a caller on another thread holds the {@code Confined}, never the state.
 *
 * @param <S> the confined state
 */
final class Confined<S> {

    /** A task run on the libatspi thread with the confined state. */
    @FunctionalInterface
    interface Task<S, T> {
        T run(S state) throws Exception;
    }

    private final AtspiThread thread;
    private final S state;

    private Confined(AtspiThread thread, S state) {
        this.thread = thread;
        this.state = state;
    }

    /**
     * Builds the state on the libatspi thread (its constructors may call libatspi), waiting at most
     * {@code bound}.
     */
    static <S> Confined<S> create(AtspiThread thread, String what, Duration bound, Callable<S> make) {
        return new Confined<>(thread, thread.call(what, bound, make));
    }

    /**
     * Runs {@code task} on the libatspi thread and waits at most {@code bound}; see
     * {@link AtspiThread#call} for what the caller gets when the bound expires.
     */
    <T> T call(String what, Duration bound, Task<S, T> task) {
        return thread.call(what, bound, () -> task.run(state));
    }

    /** As {@link #call}, without waiting: {@link AtspiThread#submit}. */
    <T> AtspiBridge.Pending<T> submit(String what, Duration bound, Task<S, T> task) {
        return thread.submit(what, bound, () -> task.run(state));
    }
}

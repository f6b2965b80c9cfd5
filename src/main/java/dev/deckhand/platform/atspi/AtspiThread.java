package dev.deckhand.platform.atspi;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.platform.atspi.AtspiNative.Atspi;
import dev.deckhand.platform.atspi.AtspiNative.Glib;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one thread that owns libatspi: it runs every submitted call and, between calls, pumps the GLib
 * default main context every {@value #PUMP_MILLIS} ms so libatspi's cache and event listeners stay
 * current. libatspi keeps process-wide state, so there is one such thread per process: it owns the
 * default main context for its whole life ({@code g_main_context_acquire}, never released), so no other
 * thread can dispatch libatspi's D-Bus messages or event callbacks, and it is a daemon that lives as long
 * as the JVM.
 *
 * <p>One per class loader is not one per process: a Quarkus test application (or a dev-mode reload) loads
 * this class again beside the test classes, and two such threads once drove libatspi at the same time (each
 * pumping the default context, each calling it): an event dispatched on one thread while the other
 * deregistered a listener freed libatspi's listener entry twice (the test JVM aborted with "Dereferencing
 * invalid callback", then {@code free(): invalid pointer}). So {@link #shared()} of a second class loader
 * finds the default context owned and becomes a <em>relay</em>: its tasks go to the owning thread as
 * high-priority idle sources on that context, run there inside a dispatch like the owner's own, one at a
 * time, and it never calls libatspi or pumps from a thread of its own.
 */
final class AtspiThread {

    static final long PUMP_MILLIS = 25;
    /** At most this many pending main-loop dispatches per pump, so a chatty app cannot starve calls. */
    private static final int MAX_DISPATCH_PER_PUMP = 256;

    private static AtspiThread shared;

    private final BlockingQueue<FutureTask<?>> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    /** Whether {@link #thread} owns the default main context; false: a relay to the thread of another class loader. */
    private final boolean owner;
    /** Set on the libatspi thread once atspi_init has succeeded; the pump never runs before. */
    private volatile boolean initialized;

    private AtspiThread() {
        CompletableFuture<Boolean> owns = new CompletableFuture<>();
        thread = new Thread(() -> run(owns), "deckhand-atspi");
        thread.setDaemon(true);
        thread.start();
        try {
            owner = owns.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw new RefusedException(Refusal.a11yUnavailable("GLib's main context cannot be owned: " + e.getCause()));
        }
    }

    static synchronized AtspiThread shared() {
        if (shared == null) shared = new AtspiThread();
        return shared;
    }

    /** Whether this class loader's thread owns libatspi; false when it relays to another's (tests). */
    boolean owner() {
        return owner;
    }

    /** Whether the caller is the thread that owns libatspi (in a relay: the owning thread of the other class loader). */
    boolean onThread() {
        return owner ? Thread.currentThread() == thread : Glib.g_main_context_is_owner(null) != 0;
    }

    /**
     * Runs {@code task} on the libatspi thread and waits at most {@code bound}. A task that has not
     * finished by then is cancelled if it has not started and the caller gets {@code A11Y_UNAVAILABLE};
     * a {@link RefusedException} thrown by the task reaches the caller unchanged.
     */
    <T> T call(String what, Duration bound, Callable<T> task) {
        return submit(what, bound, task).get();
    }

    /**
     * As {@link #call}, but returns at once: the task runs on the libatspi thread while the caller does
     * other work, and {@link AtspiBridge.Pending#get()} waits for it, within {@code bound} from the
     * submission. On the thread itself the task runs before this returns.
     */
    <T> AtspiBridge.Pending<T> submit(String what, Duration bound, Callable<T> task) {
        if (onThread()) {
            T value;
            try {
                value = task.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new RefusedException(Refusal.a11yUnavailable(what + " failed: " + e));
            }
            return () -> value;
        }
        FutureTask<T> future = new FutureTask<>(task);
        long deadline = System.nanoTime() + bound.toNanos();
        if (owner) {
            queue.add(future);
        } else {
            relayed.add(future);
            // thread-safe: attaches to the default context, which the owning thread pumps
            Glib.g_idle_add_full(AtspiNative.G_PRIORITY_HIGH, relayCallback, null, null);
        }
        return () -> await(what, bound, future, deadline);
    }

    private <T> T await(String what, Duration bound, FutureTask<T> future, long deadline) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(false);
            if (Boolean.getBoolean("deckhand.atspi.trace")) {
                StringBuilder sb = new StringBuilder("atspi thread busy in:");
                for (StackTraceElement el : thread.getStackTrace())
                    sb.append("\n  at ").append(el);
                System.getLogger(AtspiThread.class.getName()).log(System.Logger.Level.WARNING, sb.toString());
            }
            throw new RefusedException(Refusal.a11yUnavailable(what + " did not finish within " + bound.toMillis()
                    + " ms (accessibility bus or app not responding)"));
        } catch (InterruptedException e) {
            future.cancel(false);
            Thread.currentThread().interrupt();
            throw new RefusedException(Refusal.a11yUnavailable(what + " interrupted"));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RefusedException) throw (RefusedException) cause;
            if (cause instanceof Error) throw (Error) cause;
            throw new RefusedException(Refusal.a11yUnavailable(what + " failed: " + cause));
        }
    }

    /** Called on the thread after a successful atspi_init. */
    void markInitialized() {
        initialized = true;
    }

    boolean initialized() {
        return initialized;
    }

    /**
     * Dispatches whatever the GLib default main context has pending, at most {@value #MAX_DISPATCH_PER_PUMP}
     * dispatches; thread only. True when nothing was left pending (or before atspi_init), false when the cap
     * ended the pump with work still waiting.
     */
    boolean pump() {
        if (!initialized) return true;
        for (int i = 0; i < MAX_DISPATCH_PER_PUMP; i++) {
            if (Glib.g_main_context_iteration(null, 0) == 0) return true;
        }
        return false;
    }

    /** Thread only: a short global call timeout for probing a possibly hung app, then back to normal. */
    static void setCallTimeout(int millis) {
        Atspi.atspi_set_timeout(millis, -1);
    }

    /**
     * Runs {@code task} from inside a GLib dispatch (an idle source at high priority), so that
     * {@code g_main_depth()} is at least 1 while it calls libatspi. libatspi (2.46) dispatches every
     * queued D-Bus message inside a blocking call when the depth is 0; one of those messages can be
     * the removal of the very application being called, after which libatspi reads the disposed
     * object's {@code app} pointer and the JVM dies (SIGSEGV in {@code _atspi_dbus_call_partial_va},
     * seen in CI when an app exited during a walk). Inside a dispatch, messages wait for {@link #pump},
     * which runs only between libatspi calls.
     */
    private void runInsideDispatch(FutureTask<?> task) {
        if (!initialized) {
            task.run();
            return;
        }
        dispatching = task;
        Glib.g_idle_add_full(AtspiNative.G_PRIORITY_HIGH, dispatchCallback, null, null);
        for (int i = 0; i < 1000 && dispatching != null; i++) Glib.g_main_context_iteration(null, 0);
        if (dispatching != null) {
            // Not reached in practice (nothing outranks G_PRIORITY_HIGH); never leave a caller waiting.
            dispatching = null;
            task.run();
        }
    }

    /** The task {@link #dispatchCallback} runs next; thread only. */
    private FutureTask<?> dispatching;

    /** Held in a field: JNA frees a callback's native stub when the Java object is collected. */
    private final AtspiNative.SourceFunc dispatchCallback = userData -> {
        FutureTask<?> t = dispatching;
        dispatching = null;
        if (t != null) t.run(); // FutureTask catches every Throwable: nothing unwinds into GLib
        return 0;
    };

    /** The GLib main-loop depth a submitted call runs at (at least 1 once initialised); for tests. */
    int mainDepthInCall() {
        return call("main depth", Duration.ofSeconds(2), Glib::g_main_depth);
    }

    /** A relay's tasks, in order, waiting for the owning thread to dispatch {@link #relayCallback}. */
    private final BlockingQueue<FutureTask<?>> relayed = new LinkedBlockingQueue<>();
    /** Whether a relayed task is running (owning thread only): one that pumps never starts the next inside it. */
    private boolean relaying;

    /**
     * A relay's idle source, run by the owning thread: runs the relayed tasks in order, unless one is running
     * already (this is a dispatch inside its pump), which then runs the rest when it is done.
     */
    private final AtspiNative.SourceFunc relayCallback = userData -> {
        if (relaying) return 0;
        relaying = true;
        try {
            FutureTask<?> t;
            while ((t = relayed.poll()) != null) t.run(); // FutureTask catches every Throwable
        } finally {
            relaying = false;
        }
        return 0;
    };

    private void run(CompletableFuture<Boolean> owns) {
        boolean acquired;
        try {
            acquired = Glib.g_main_context_acquire(null) != 0;
        } catch (Throwable t) {
            owns.completeExceptionally(t);
            return;
        }
        owns.complete(acquired);
        if (!acquired) return; // another class loader's thread owns libatspi: this one relays to it
        while (true) {
            try {
                FutureTask<?> task = queue.poll(PUMP_MILLIS, TimeUnit.MILLISECONDS);
                if (task != null) runInsideDispatch(task);
                // before atspi_init too: a relay's tasks (its atspi_init among them) are dispatched here
                for (int i = 0; i < MAX_DISPATCH_PER_PUMP; i++) {
                    if (Glib.g_main_context_iteration(null, 0) == 0) break;
                }
            } catch (InterruptedException e) {
                // A daemon that must keep serving: interruption is not a shutdown signal here.
            } catch (Throwable t) {
                // Never let the owning thread die: every later call would hang until its bound.
            }
        }
    }
}

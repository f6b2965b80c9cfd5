package dev.deckhand.loop;

import java.util.concurrent.atomic.AtomicBoolean;

/** A {@link StopSignal} that latches on {@link #stop()}; safe to call from any thread. */
public final class StopLatch implements StopSignal {

    private final AtomicBoolean stopped = new AtomicBoolean();

    public void stop() {
        stopped.set(true);
    }

    @Override
    public boolean stopRequested() {
        return stopped.get();
    }
}

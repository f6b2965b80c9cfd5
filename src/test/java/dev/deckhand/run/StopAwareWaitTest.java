package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A {@code wait} gives way to Stop: it polls the stop signal and returns once Stop is requested. */
@Tag("pure")
class StopAwareWaitTest {

    @Test
    @Timeout(30) // a hang guard, not a performance figure: the wait asked for is an hour
    void aLongWaitEndsOnceStopIsRequested() throws InterruptedException {
        AtomicInteger polls = new AtomicInteger();
        RunAssembly.sleepUnlessStopped(Duration.ofHours(1), () -> polls.incrementAndGet() >= 3);
        assertEquals(3, polls.get(), "returned at the poll that saw Stop");
    }

    @Test
    void aWaitWithoutStopRunsItsCourse() throws InterruptedException {
        AtomicInteger polls = new AtomicInteger();
        RunAssembly.sleepUnlessStopped(Duration.ofMillis(50), () -> {
            polls.incrementAndGet();
            return false;
        });
        assertEquals(true, polls.get() >= 2, "polled while waiting: " + polls.get());
    }
}

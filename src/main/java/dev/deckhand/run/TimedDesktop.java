package dev.deckhand.run;

import dev.deckhand.loop.desktop.Around;
import dev.deckhand.loop.desktop.Call;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.run.StepPhases.Phase;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Times every call of a {@link Desktop} into its {@link StepPhases} phase by the call's kind (reads are
 * {@code observe}, the policy facts {@code facts}, the drawn cursor {@code cursor}, native actions {@code act},
 * settling {@code settle}; a query counts in the phase of whoever asks) and otherwise passes it on unchanged,
 * refusals included ({@link #over}).
 */
final class TimedDesktop implements Around {

    private final StepPhases phases;

    private TimedDesktop(StepPhases phases) {
        this.phases = Objects.requireNonNull(phases, "phases");
    }

    /** {@code real} with every call timed into {@code phases}. */
    static Desktop over(Desktop real, StepPhases phases) {
        return real.around(new TimedDesktop(phases));
    }

    @Override
    public <T> T call(Call which, Supplier<T> call) {
        Phase phase =
                switch (which.kind()) {
                    case READ -> Phase.OBSERVE;
                    case FACT -> Phase.FACTS;
                    case SHOW -> Phase.CURSOR;
                    case INPUT -> Phase.ACT;
                    case SETTLE -> Phase.SETTLE;
                    case QUERY -> null;
                };
        return phase == null ? call.get() : phases.time(phase, call);
    }
}

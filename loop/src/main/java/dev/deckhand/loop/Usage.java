package dev.deckhand.loop;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.Optional;

/**
 * What a run cost in model use (docs/contract.md#result, {@code usage}): the model turns asked, the tokens the
 * provider reported for them, summed, and the cost in US dollars from the person's price table.
 *
 * @param costUsd empty when the model is unpriced (and was called); zero when no model was called
 */
public record Usage(int modelTurns, long inputTokens, long outputTokens, Optional<BigDecimal> costUsd) {

    /** No model call: an explicit-steps run, or one that ended before the first turn. */
    public static final Usage NONE = new Usage(0, 0, 0, Optional.of(BigDecimal.ZERO));

    public Usage {
        if (modelTurns < 0) throw new IllegalArgumentException("modelTurns must be >= 0");
        if (inputTokens < 0) throw new IllegalArgumentException("inputTokens must be >= 0");
        if (outputTokens < 0) throw new IllegalArgumentException("outputTokens must be >= 0");
        Objects.requireNonNull(costUsd, "costUsd (use Optional.empty() when unpriced)");
        if (costUsd.isPresent() && costUsd.get().signum() < 0)
            throw new IllegalArgumentException("costUsd must be >= 0");
    }
}

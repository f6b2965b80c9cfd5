package dev.deckhand.run;

import dev.deckhand.loop.Usage;
import dev.deckhand.model.ModelReply;
import dev.deckhand.model.PriceTable;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Sums one run's model use: every turn asked, the tokens each reply reported, and the cost of each
 * reply at the price table of the moment. One unpriced reply makes the run's cost unknown (null on
 * the wire), never a partial sum.
 */
final class UsageTally {

    private final Supplier<PriceTable> prices;
    private int turns;
    private long inputTokens;
    private long outputTokens;
    private BigDecimal cost = BigDecimal.ZERO;
    private boolean unpriced;
    private String providerId;
    private String modelId;

    UsageTally(Supplier<PriceTable> prices) {
        this.prices = prices;
    }

    /** A turn was asked (counted whether or not the provider answered). */
    synchronized void asked() {
        turns++;
    }

    /** The provider answered. */
    synchronized void answered(ModelReply reply) {
        inputTokens += reply.inputTokens();
        outputTokens += reply.outputTokens();
        providerId = reply.providerId();
        modelId = reply.modelId();
        Optional<BigDecimal> c = prices.get().cost(reply.modelId(), reply.inputTokens(), reply.outputTokens());
        if (c.isPresent()) cost = cost.add(c.get());
        else unpriced = true;
    }

    synchronized int turns() {
        return turns;
    }

    /** The provider and model of the latest answer, empty before the first. */
    synchronized Optional<String> provider() {
        return Optional.ofNullable(providerId);
    }

    synchronized Optional<String> model() {
        return Optional.ofNullable(modelId);
    }

    synchronized Usage usage() {
        if (turns == 0) return Usage.NONE;
        return new Usage(turns, inputTokens, outputTokens, unpriced ? Optional.empty() : Optional.of(cost));
    }
}

package dev.deckhand.model;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * US dollars per million tokens, by model id, as the person keeps them (defaults: {@link #DEFAULTS}).
 * A model not in the table is unpriced: its cost is unknown, never guessed.
 */
public record PriceTable(Map<String, Price> prices) {

    /** One model's price in US dollars per million input and output tokens. */
    public record Price(BigDecimal inputPerMTok, BigDecimal outputPerMTok) {
        public Price {
            if (inputPerMTok == null || inputPerMTok.signum() < 0)
                throw new IllegalArgumentException("inputPerMTok must be a number >= 0");
            if (outputPerMTok == null || outputPerMTok.signum() < 0)
                throw new IllegalArgumentException("outputPerMTok must be a number >= 0");
        }

        static Price of(String in, String out) {
            return new Price(new BigDecimal(in), new BigDecimal(out));
        }
    }

    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    /**
     * List prices (standard tier, text, US dollars per million tokens) of the models the settings page
     * suggests, as published by the providers when this table was written; the person edits them in
     * settings. Local Ollama models are not in it: their cost is the person's own hardware.
     */
    public static final PriceTable DEFAULTS = new PriceTable(defaults());

    public PriceTable {
        Objects.requireNonNull(prices, "prices");
        for (Map.Entry<String, Price> e : prices.entrySet()) {
            if (e.getKey() == null || e.getKey().isBlank() || e.getKey().length() > 200) {
                throw new IllegalArgumentException("prices: a model id must be 1..200 characters");
            }
            if (e.getValue() == null) throw new IllegalArgumentException("prices." + e.getKey() + " is required");
        }
        prices = Map.copyOf(prices);
    }

    private static Map<String, Price> defaults() {
        Map<String, Price> m = new LinkedHashMap<>();
        m.put("gpt-4.1", Price.of("2.00", "8.00"));
        m.put("gpt-4.1-mini", Price.of("0.40", "1.60"));
        m.put("gpt-4o", Price.of("2.50", "10.00"));
        m.put("gpt-4o-mini", Price.of("0.15", "0.60"));
        m.put("claude-sonnet-4-5", Price.of("3.00", "15.00"));
        m.put("claude-haiku-4-5", Price.of("1.00", "5.00"));
        m.put("claude-opus-4-1", Price.of("15.00", "75.00"));
        m.put("gemini-2.5-pro", Price.of("1.25", "10.00"));
        m.put("gemini-2.5-flash", Price.of("0.30", "2.50"));
        return m;
    }

    /** The cost of the tokens on {@code modelId}, rounded to a millionth of a dollar; empty when unpriced. */
    public Optional<BigDecimal> cost(String modelId, long inputTokens, long outputTokens) {
        Price p = prices.get(modelId);
        if (p == null) return Optional.empty();
        BigDecimal micro = p.inputPerMTok()
                .multiply(BigDecimal.valueOf(inputTokens))
                .add(p.outputPerMTok().multiply(BigDecimal.valueOf(outputTokens)));
        return Optional.of(micro.divide(MILLION, 6, RoundingMode.HALF_UP));
    }
}

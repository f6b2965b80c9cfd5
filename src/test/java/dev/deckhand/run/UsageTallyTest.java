package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.loop.Usage;
import dev.deckhand.model.ModelReply;
import dev.deckhand.model.PriceTable;
import java.math.BigDecimal;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class UsageTallyTest {

    @Test
    void noTurnIsNoUsageAndZeroCost() {
        assertEquals(Usage.NONE, new UsageTally(() -> PriceTable.DEFAULTS).usage());
        assertEquals(Optional.of(BigDecimal.ZERO), Usage.NONE.costUsd());
    }

    @Test
    void tokensAndCostAreSummedOverTheTurns() {
        UsageTally t = new UsageTally(() -> PriceTable.DEFAULTS);
        t.asked();
        t.answered(new ModelReply("{}", "openai", "gpt-4o", 1000, 100));
        t.asked();
        t.answered(new ModelReply("{}", "openai", "gpt-4o", 2000, 100));
        Usage u = t.usage();
        assertEquals(2, u.modelTurns());
        assertEquals(3000, u.inputTokens());
        assertEquals(200, u.outputTokens());
        assertEquals(Optional.of(new BigDecimal("0.009500")), u.costUsd());
        assertEquals(Optional.of("gpt-4o"), t.model());
    }

    @Test
    void oneUnpricedAnswerMakesTheCostUnknown() {
        UsageTally t = new UsageTally(() -> PriceTable.DEFAULTS);
        t.asked();
        t.answered(new ModelReply("{}", "openai", "gpt-4o", 10, 1));
        t.asked();
        t.answered(new ModelReply("{}", "openai-compatible", "local-model", 10, 1));
        t.asked(); // the provider never answered this one: a turn, no tokens
        assertEquals(new Usage(3, 20, 2, Optional.empty()), t.usage());
    }
}

package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("pure")
class PriceTableTest {

    @TempDir
    Path home;

    @Test
    void aPricedModelCostsItsTokensAtThePerMillionPrice() {
        // gpt-4o: $2.50 in, $10.00 out per million tokens
        assertEquals(Optional.of(new BigDecimal("0.004500")), PriceTable.DEFAULTS.cost("gpt-4o", 1000, 200));
        assertEquals(Optional.of(new BigDecimal("0.000000")), PriceTable.DEFAULTS.cost("gpt-4o", 0, 0));
    }

    @Test
    void anUnknownModelIsUnpricedNeverGuessed() {
        assertEquals(Optional.empty(), PriceTable.DEFAULTS.cost("my-local-llama", 1000, 200));
        assertEquals(Optional.empty(), PriceTable.DEFAULTS.cost("GPT-4O", 1000, 200), "model ids match exactly");
    }

    @Test
    void theStoreKeepsThePersonsTableAndDefaultsWithoutOne() throws Exception {
        ModelBindingStore store = new ModelBindingStore(home);
        assertEquals(PriceTable.DEFAULTS, store.prices());
        store.savePrices(new PriceTable(
                Map.of("scripted-model", new PriceTable.Price(new BigDecimal("1"), new BigDecimal("2")))));
        assertEquals(Optional.of(new BigDecimal("0.000004")), store.prices().cost("scripted-model", 2, 1));
        assertEquals(Optional.empty(), store.prices().cost("gpt-4o", 1, 1), "the person's table replaces the defaults");
        Files.writeString(
                home.resolve(dev.deckhand.home.DeckhandHome.MODEL_PRICES),
                "{\"m\":{\"inputPerMTok\":-1,\"outputPerMTok\":1}}");
        IllegalStateException e = assertThrows(IllegalStateException.class, store::prices);
        assertTrue(e.getMessage().contains("inputPerMTok"), e.getMessage());
    }
}

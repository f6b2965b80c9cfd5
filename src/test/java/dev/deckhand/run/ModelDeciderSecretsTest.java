package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.OwnSecrets;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.DecisionRequest;
import dev.deckhand.loop.route.Route;
import dev.deckhand.model.ModelReply;
import dev.deckhand.model.PriceTable;
import dev.deckhand.model.ProviderRetry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The last gate before the provider: a turn that carries one of Deckhand's secrets is not sent. */
@Tag("pure")
class ModelDeciderSecretsTest {

    private static final String SECRET = "c2VjcmV0LW93bmVyLXRva2VuLWZvci10aGUtbW9kZWwtdGVzdA";
    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final AtomicInteger sent = new AtomicInteger();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private ModelDecider decider() {
        return new ModelDecider(
                turn -> {
                    sent.incrementAndGet();
                    return new ModelReply("{\"action\":\"done\",\"summary\":\"ok\"}", "stub", "m", 1, 1);
                },
                executor,
                Optional::empty,
                new UsageTally(() -> new PriceTable(Map.of())),
                ProviderRetry.system(),
                Instant.now().plusSeconds(60),
                () -> OwnSecrets.named(Map.of(SECRET, "owner token")));
    }

    private static DecisionRequest request(String instruction, List<String> lastSteps, Optional<String> feedback) {
        return new DecisionRequest(
                instruction, lastSteps, "frame \"Editor\"", Optional.empty(), feedback, "{}", Route.READ_ONLY);
    }

    @Test
    void aSecretInTheInstructionTheLastStepsOrTheFeedbackIsNotSent() {
        String shown = SECRET.substring(5, 25).toUpperCase(java.util.Locale.ROOT);
        for (DecisionRequest r : List.of(
                request("type " + shown, List.of(), Optional.empty()),
                request("go on", List.of("done was not accepted: " + shown), Optional.empty()),
                request("go on", List.of(), Optional.of("invalid: " + shown)))) {
            RefusedException e =
                    assertThrows(RefusedException.class, () -> decider().decide(r));
            assertEquals(RefusalCode.SECRET_ON_SCREEN, e.refusal().code());
            assertTrue(e.refusal().detail().contains("owner token"), e.refusal().detail());
            assertFalse(e.refusal().detail().contains(shown), e.refusal().detail());
        }
        assertEquals(0, sent.get(), "nothing reached the provider");
        decider().decide(request("type an ordinary line", List.of(), Optional.empty()));
        assertEquals(1, sent.get(), "the control is sent");
    }
}

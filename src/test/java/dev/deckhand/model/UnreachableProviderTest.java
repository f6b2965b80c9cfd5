package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** No HTTP answer at all: a typed ModelException with status -1 and the reason, never a hang or a fallback. */
@Tag("app")
class UnreachableProviderTest {

    @Test
    void aClosedPortIsAModelExceptionWithoutStatus() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        ProviderClient client = new ProviderClient(Duration.ofSeconds(5));
        ModelBinding binding = ModelBinding.of("openai-compatible", "m", "http://127.0.0.1:" + port + "/v1");
        ModelException e = assertThrows(
                ModelException.class,
                () -> client.decide(
                        binding,
                        ApiKey.of(ProviderContractTest.KEY),
                        ModelTurn.of("s", "u", ProviderContractTest.SCHEMA)));
        assertEquals(-1, e.httpStatus());
        assertTrue(e.providerMessage().contains("Connect"), e.providerMessage());
        assertFalse(e.getMessage().contains(ProviderContractTest.KEY));

        ConnectionCheck check = client.testConnection(binding, null);
        assertFalse(check.ok());
        assertTrue(check.error().contains("Connect"), check.error());
    }

    @Test
    void aProviderThatNeedsAKeyIsNotCalledWithoutOne() {
        ConnectionCheck check = new ProviderClient(Duration.ofSeconds(5))
                .testConnection(ModelBinding.of("anthropic", "claude", "http://127.0.0.1:9/v1"), null);
        assertEquals(ConnectionCheck.failed("anthropic needs an API key and none is stored"), check);
    }
}

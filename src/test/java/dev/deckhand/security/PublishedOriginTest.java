package dev.deckhand.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code deckhand.published-origin}: exactly one http origin, never a wildcard; and the Host/Origin check
 * with it — the published origin exactly, the loopback ones on the server's own port, never a mix, and
 * every look-alike refused.
 */
@Tag("pure")
class PublishedOriginTest {

    private static final int PORT = 8377;
    private static final Optional<PublishedOrigin> PUBLISHED =
            PublishedOrigin.parse(Optional.of("http://127.0.0.1:18377"));

    @Test
    void readsOneOriginAndNormalisesItsSpelling() {
        assertEquals(Optional.empty(), PublishedOrigin.parse(Optional.empty()));
        assertEquals(Optional.empty(), PublishedOrigin.parse(Optional.of("  ")));
        assertEquals(new HostPort("127.0.0.1", 18377), PUBLISHED.orElseThrow().hostPort());
        assertEquals(
                new HostPort("sandbox.example", 80),
                parse("HTTP://Sandbox.Example/").hostPort());
        assertEquals(new HostPort("[::1]", 9), parse("http://[::1]:9").hostPort());
        assertEquals(
                new HostPort("deckhand-1.sandbox.example", 18377),
                parse(" http://deckhand-1.sandbox.example:18377 ").hostPort());
        assertEquals("http://127.0.0.1:18377", PUBLISHED.orElseThrow().toString());
        assertEquals(
                "http://sandbox.example", parse("http://sandbox.example:80").toString());
    }

    @Test
    void refusesWildcardsAndEverythingThatIsNotOneHttpOrigin() {
        for (String bad : List.of(
                "*",
                "http://*",
                "http://*:18377",
                "http://127.0.0.1:*",
                "http://*.example:1",
                "https://127.0.0.1:18377",
                "ws://127.0.0.1:18377",
                "127.0.0.1:18377",
                "//127.0.0.1:18377",
                "http://",
                "http:///",
                "http://user@127.0.0.1:18377",
                "http://127.0.0.1:18377/path",
                "http://127.0.0.1:18377//",
                "http://127.0.0.1:18377?x",
                "http://127.0.0.1:18377#x",
                "http://127.0.0.1:0",
                "http://127.0.0.1:65536",
                "http://127.0.0.1:",
                "http://127.0.0.1:+1",
                "http://ho st:1",
                "http://host_name:1",
                "http://-host:1",
                "http://host-:1",
                "http://host..example:1",
                "http://.example:1",
                "http://h\u00f6st.example:1",
                "http://127.0.0.1:18377,http://evil.example",
                "http://127.0.0.1:18377 http://evil.example",
                "http://127.0.0.1:18377\thttp://evil.example",
                "http://[::1",
                "http://[evil]:1",
                "http://127.0.0.1:1:2",
                "null")) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> PublishedOrigin.parse(Optional.of(bad)), bad);
            assertTrue(e.getMessage().startsWith("deckhand.published-origin '"), e.getMessage());
        }
        assertTrue(
                assertThrows(IllegalArgumentException.class, () -> PublishedOrigin.parse(Optional.of("http://*:18377")))
                        .getMessage()
                        .contains("a wildcard is never accepted"));
    }

    @Test
    void theGuardAcceptsThePublishedOriginExactlyAndTheLoopbackOnesOnItsOwnPort() {
        assertAccepted("127.0.0.1:18377", null);
        assertAccepted("127.0.0.1:18377", "http://127.0.0.1:18377");
        assertAccepted("127.0.0.1:18377", "HTTP://127.0.0.1:18377");
        assertAccepted("127.0.0.1:8377", null);
        assertAccepted("localhost:8377", "http://127.0.0.1:8377");
        assertAccepted("[::1]:8377", "http://[::1]:8377");
        assertEquals(
                Optional.empty(),
                HttpGuard.checkHostAndOrigin(
                        List.of("sandbox.example"),
                        List.of("http://sandbox.example"),
                        PORT,
                        Optional.of(parse("http://sandbox.example"))),
                "port 80 is left out by browsers, in Host and in Origin");
    }

    @Test
    void lookAlikesOtherPortsAndMixedOriginsAreRefused() {
        for (String host : List.of(
                "127.0.0.1:18378",
                "127.0.0.1:1837",
                "127.0.0.1",
                "localhost:18377",
                "[::1]:18377",
                "127.0.0.1.evil.example:18377",
                "evil.example:18377",
                "127.0.0.2:18377",
                "127.0.0.1:18377.evil.example",
                "user@127.0.0.1:18377",
                "127.0.0.1:18377/",
                "127.0.0.1:018377",
                "0x7f000001:18377",
                "2130706433:18377",
                "")) {
            assertRefused(List.of(host), List.of(), "Host: " + host);
        }
        for (String origin : List.of(
                "http://127.0.0.1:18378",
                "http://localhost:18377",
                "https://127.0.0.1:18377",
                "null",
                "http://127.0.0.1:18377.evil.example",
                "http://127.0.0.1.evil.example:18377",
                "http://user@127.0.0.1:18377",
                "ws://127.0.0.1:18377",
                "http://127.0.0.1",
                "http://127.0.0.1:18377/x",
                "")) {
            assertRefused(List.of("127.0.0.1:18377"), List.of(origin), "Origin: " + origin);
        }
        // Inside the container 8377 is the server's own port; to the person's browser it is some other service's.
        assertRefused(
                List.of("127.0.0.1:18377"), List.of("http://127.0.0.1:8377"), "a loopback origin through the mapping");
        assertRefused(
                List.of("127.0.0.1:8377"), List.of("http://127.0.0.1:18377"), "the published origin on the local port");
        assertRefused(List.of("127.0.0.1:18377", "127.0.0.1:18377"), List.of(), "two Host headers");
        assertRefused(
                List.of("127.0.0.1:18377"),
                List.of("http://127.0.0.1:18377", "http://127.0.0.1:18377"),
                "two Origin headers");
        assertTrue(
                HttpGuard.checkHostAndOrigin(List.of("127.0.0.1:18377"), List.of(), PORT, Optional.empty())
                        .isPresent(),
                "without the configuration the published origin is just another port");
    }

    private static PublishedOrigin parse(String value) {
        return PublishedOrigin.parse(Optional.of(value)).orElseThrow();
    }

    private static void assertAccepted(String host, String origin) {
        Optional<String> refusal = HttpGuard.checkHostAndOrigin(
                List.of(host), origin == null ? List.of() : List.of(origin), PORT, PUBLISHED);
        assertEquals(Optional.empty(), refusal, host + " / " + origin);
    }

    private static void assertRefused(List<String> hosts, List<String> origins, String what) {
        assertTrue(
                HttpGuard.checkHostAndOrigin(hosts, origins, PORT, PUBLISHED).isPresent(), what + " must be refused");
    }
}

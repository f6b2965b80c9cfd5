package dev.deckhand.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class HostPortTest {

    @Test
    void parsesLoopbackAuthoritiesExactly() {
        assertEquals(Optional.of(new HostPort("127.0.0.1", 8377)), HostPort.parseAuthority("127.0.0.1:8377", -1));
        assertEquals(Optional.of(new HostPort("localhost", 8377)), HostPort.parseAuthority("LOCALHOST:8377", -1));
        assertEquals(Optional.of(new HostPort("[::1]", 8377)), HostPort.parseAuthority("[::1]:8377", -1));
        assertEquals(Optional.of(new HostPort("127.0.0.1", 80)), HostPort.parseOrigin("http://127.0.0.1"));
    }

    @Test
    void rejectsMalformedAuthorities() {
        for (String bad : List.of(
                "",
                ":8377",
                "127.0.0.1:",
                "127.0.0.1:99999",
                "127.0.0.1:80:80",
                "a b:1",
                "user@127.0.0.1:8377",
                "127.0.0.1:8377/x",
                "[::1",
                "[::1]x",
                "127.0.0.1:+80")) {
            assertTrue(HostPort.parseAuthority(bad, -1).isEmpty(), bad);
        }
        for (String bad : List.of("null", "https://127.0.0.1:8377", "127.0.0.1:8377", "http://", "HTTP:/x")) {
            assertTrue(HostPort.parseOrigin(bad).isEmpty(), bad);
        }
    }

    @Test
    void lookAlikesAreNotLoopback() {
        assertTrue(!HostPort.parseAuthority("localhost.evil.example:1", -1)
                .orElseThrow()
                .isLoopback());
        assertTrue(
                !HostPort.parseAuthority("127.0.0.1.nip.io:1", -1).orElseThrow().isLoopback());
        assertTrue(HostPort.parseAuthority("127.0.0.1:1", -1).orElseThrow().isLoopback());
    }
}

package dev.deckhand.home;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The two bearer secrets of docs/design.md#owner-boundary, loaded (or created) once at start. */
@ApplicationScoped
@Startup
public class Secrets {

    private final byte[] mcpToken;
    private final byte[] ownerToken;

    @Inject
    public Secrets(DeckhandHome home) {
        this.mcpToken = home.secret(DeckhandHome.MCP_TOKEN).getBytes(StandardCharsets.US_ASCII);
        this.ownerToken = home.secret(DeckhandHome.OWNER_TOKEN).getBytes(StandardCharsets.US_ASCII);
    }

    public boolean isMcpToken(String candidate) {
        return matches(mcpToken, candidate);
    }

    public boolean isOwnerToken(String candidate) {
        return matches(ownerToken, candidate);
    }

    private static boolean matches(byte[] secret, String candidate) {
        if (candidate == null) return false;
        return MessageDigest.isEqual(secret, candidate.getBytes(StandardCharsets.US_ASCII));
    }
}

package dev.deckhand.home;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The two bearer secrets (docs/security.md, "Every request needs a credential"), loaded or created at
 * start. The owner token is replaced when a process other than Deckhand read its file while a grant was
 * active ({@link #rotateOwnerToken}); each check of it first drains the watch of the secret files
 * ({@link SecretFileReads}), so a token read a moment before the request that carries it is already dead.
 */
@ApplicationScoped
@Startup
public class Secrets {

    private final DeckhandHome home;
    private final byte[] mcpToken;
    private volatile byte[] ownerToken;

    @Inject
    public Secrets(DeckhandHome home) {
        this.home = home;
        this.mcpToken = home.secret(DeckhandHome.MCP_TOKEN).getBytes(StandardCharsets.US_ASCII);
        this.ownerToken = home.secret(DeckhandHome.OWNER_TOKEN).getBytes(StandardCharsets.US_ASCII);
    }

    public boolean isMcpToken(String candidate) {
        return matches(mcpToken, candidate);
    }

    public boolean isOwnerToken(String candidate) {
        if (candidate == null) return false;
        SecretFileReads.mark();
        return matches(ownerToken, candidate);
    }

    /** Writes a fresh owner token to its file; the old one opens nothing from now on. */
    public synchronized void rotateOwnerToken() {
        ownerToken = home.replaceSecret(DeckhandHome.OWNER_TOKEN).getBytes(StandardCharsets.US_ASCII);
    }

    private static boolean matches(byte[] secret, String candidate) {
        if (candidate == null) return false;
        return MessageDigest.isEqual(secret, candidate.getBytes(StandardCharsets.US_ASCII));
    }
}

package dev.deckhand.run;

import dev.deckhand.home.SecretFileReads;
import dev.deckhand.owner.GrantService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashSet;
import java.util.Set;

/**
 * The grants whose app runs commands and was given input: from that input until the grant ends, every foreign
 * open of Deckhand's secret files may be the granted app's doing. A command given once can wait before it reads
 * ({@code (sleep 4; rev < owner-token > f) &}) and show the copy later, in this run or the next; so the secret
 * files stay watched for the rest of the grant's life, not only from an input to the read after it, and a foreign
 * open in that time revokes the grant and replaces the owner token ({@code owner.ForeignSecretReads}). When the grant
 * ends, what the kernel queued is drained while it is still held, then it is let go.
 */
@ApplicationScoped
public class CommandGrants {

    private final Set<String> held = new HashSet<>();

    @Inject
    public CommandGrants(GrantService grants) {
        grants.broker().onEnd(ended -> ended.grant().ifPresent(g -> release(g.id())));
    }

    /** The grant's app runs commands and a run of it is about to give input: watched until the grant ends. */
    synchronized void hold(String grantId) {
        if (held.add(grantId)) SecretFileReads.arm();
    }

    synchronized void release(String grantId) {
        if (!held.remove(grantId)) return;
        SecretFileReads.mark(); // drains the queue while the grant still counts
        SecretFileReads.disarm();
    }

    /** Whether {@code grantId} is held (tests). */
    synchronized boolean holds(String grantId) {
        return held.contains(grantId);
    }
}

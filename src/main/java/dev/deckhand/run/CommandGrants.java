package dev.deckhand.run;

import dev.deckhand.home.SecretFileReads;
import dev.deckhand.loop.desktop.Around;
import dev.deckhand.loop.desktop.Call;
import dev.deckhand.owner.GrantService;
import dev.deckhand.security.OwnerSessions;
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
 *
 * <p>Such an app's pixels can also show a sign-in code the person printed there ({@code deckhand signin}); no text
 * matcher reads pixels, so every capture of it for the model first ends the codes not yet used ({@link #captures}).
 */
@ApplicationScoped
public class CommandGrants {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(CommandGrants.class);

    private final Set<String> held = new HashSet<>();
    private final OwnerSessions sessions;

    @Inject
    public CommandGrants(GrantService grants, OwnerSessions sessions) {
        this.sessions = sessions;
        grants.broker().onEnd(ended -> ended.grant().ifPresent(g -> release(g.id())));
    }

    /**
     * Around the loop's reads of a granted app that runs commands: before each capture (what the model will see),
     * the sign-in codes not yet used end. Round 2 of the review: a code the person printed in a granted xterm went
     * to the model in a capture and came back reversed in the summary, and the MCP client signed in with it.
     */
    Around captures() {
        return new Around() {
            @Override
            public <T> T call(Call which, java.util.function.Supplier<T> call) {
                if (which == Call.CAPTURE) {
                    int ended = sessions.endCodes();
                    if (ended > 0) {
                        LOG.infof("%d sign-in code(s) ended: a granted app that runs commands is captured for the model;"
                                + " run 'deckhand signin' again", ended);
                    }
                }
                return call.get();
            }
        };
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

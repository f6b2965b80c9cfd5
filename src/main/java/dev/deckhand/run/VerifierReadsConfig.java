package dev.deckhand.run;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The budget of verifier reads ({@link VerifierReads}): runs whose verifier reads a file or the screen, a minute. */
@ConfigMapping(prefix = "deckhand.verifier-reads")
public interface VerifierReadsConfig {

    /** Per MCP session. */
    @WithDefault("10")
    int perSession();

    /** Per server, across MCP sessions (a new session does not start it afresh). */
    @WithDefault("30")
    int perServer();
}

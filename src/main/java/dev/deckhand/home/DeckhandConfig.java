package dev.deckhand.home;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** Deckhand's own settings; the person's policy lives in the policy file, not here. */
@ConfigMapping(prefix = "deckhand")
public interface DeckhandConfig {

    /** The config directory; default {@code $DECKHAND_HOME}, else {@code ~/.config/deckhand}. */
    Optional<String> home();

    /** Serve on an address other than loopback. Off by default; on, it warns at every start. */
    @WithDefault("false")
    boolean allowNonLoopbackBind();

    /**
     * The one origin a port mapping publishes this server at ({@code http://HOST[:PORT]}, e.g. a container's
     * {@code http://127.0.0.1:18377}): Host and Origin may name it exactly, besides the loopback ones. Unset:
     * none. A wildcard or anything but one origin stops the start.
     */
    Optional<String> publishedOrigin();

    /**
     * Keep audit records this many days (whole sealed prefixes are pruned, with a checkpoint that keeps
     * the chain verifiable); unset keeps everything.
     */
    java.util.OptionalInt auditRetentionDays();

    /**
     * At most how long a confirm-each approval card waits for the person before it counts as denied;
     * unset, a card waits until the person decides, Stop, or the run's own wall clock.
     */
    java.util.OptionalInt approvalTtlSeconds();

    /** No start banner ({@code deckhand run} sets it: the CLI prints its own address when it needs one). */
    @WithDefault("false")
    boolean quietBanner();

    /**
     * Serving MCP over stdio ({@code deckhand stdio} sets it): standard error goes to the MCP client's
     * logs, so nothing printed there may carry a sign-in code.
     */
    @WithDefault("false")
    boolean stdio();
}

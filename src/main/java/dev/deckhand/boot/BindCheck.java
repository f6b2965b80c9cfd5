package dev.deckhand.boot;

import dev.deckhand.home.DeckhandConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Refuses to start on a non-loopback address unless {@code deckhand.allow-non-loopback-bind} is set,
 * and warns at every start when it is. {@link Main} checks the common sources before the server
 * binds; this covers every other configuration source.
 */
@ApplicationScoped
public class BindCheck {

    private static final Logger LOG = Logger.getLogger(BindCheck.class);

    @ConfigProperty(name = "quarkus.http.host")
    String host;

    void check(@Observes StartupEvent event, DeckhandConfig config) {
        if (Main.LOOPBACK_BIND.contains(host)) return;
        if (!config.allowNonLoopbackBind()) {
            throw new IllegalStateException("refusing to serve on " + host
                    + ": Deckhand binds 127.0.0.1 only unless deckhand.allow-non-loopback-bind=true");
        }
        LOG.warnf(
                "serving on %s, not loopback: anyone who can reach it and holds a token can drive this desktop", host);
    }
}

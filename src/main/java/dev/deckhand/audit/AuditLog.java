package dev.deckhand.audit;

import dev.deckhand.app.Secrets;
import dev.deckhand.policy.PolicyStore;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Clock;
import org.jboss.logging.Logger;

/**
 * The server's one audit store, {@code audit.db} in the config directory, sealed with the key in
 * {@code audit-seal.key} beside it (outside the database). Opened at start (holding the log's lock, so
 * a second Deckhand on the same config directory cannot fork the chain), sealed and closed at shutdown. Appends throw {@link AuditException}: a run that cannot be audited does not go on.
 */
@ApplicationScoped
public class AuditLog {

    public static final String SEAL_KEY = "audit-seal.key";

    private static final Logger LOG = Logger.getLogger(AuditLog.class);

    private final Path database;
    private final Path key;
    private volatile AuditStore store;

    @Inject
    public AuditLog(Secrets secrets) {
        this.database = secrets.home().file(PolicyStore.AUDIT_DATABASE);
        this.key = secrets.home().file(SEAL_KEY);
    }

    public AuditStore store() {
        AuditStore s = store;
        if (s == null) {
            synchronized (this) {
                s = store;
                if (s == null) {
                    s = AuditStore.open(database, key, AuditSettings.defaults(), Clock.systemUTC());
                    store = s;
                }
            }
        }
        return s;
    }

    public long append(AuditEvent event) {
        return store().append(event);
    }

    public Path database() {
        return database;
    }

    public Path sealKey() {
        return key;
    }

    /** Opened at start, so this server holds the audit log's lock for as long as it runs. */
    void open(@Observes io.quarkus.runtime.StartupEvent event) {
        store();
    }

    void close(@Observes ShutdownEvent event) {
        AuditStore s = store;
        if (s != null) {
            try {
                s.close();
            } catch (RuntimeException e) {
                LOG.warnf("closing the audit store failed: %s", e.getMessage());
            }
        }
    }
}

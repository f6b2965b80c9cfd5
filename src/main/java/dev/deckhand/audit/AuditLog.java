package dev.deckhand.audit;

import dev.deckhand.home.DeckhandConfig;
import dev.deckhand.home.DeckhandHome;
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
public class AuditLog implements AuditAppender {

    private static final Logger LOG = Logger.getLogger(AuditLog.class);

    private final Clock clock;
    private final Path database;
    private final Path key;
    private volatile AuditStore store;

    private final AuditSettings settings;
    private final java.util.concurrent.ScheduledExecutorService pruner =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "deckhand-audit-retention");
                t.setDaemon(true);
                return t;
            });

    @Inject
    public AuditLog(DeckhandHome home, DeckhandConfig config, Clock clock) {
        this.clock = clock;
        this.database = home.file(DeckhandHome.AUDIT_DATABASE);
        this.key = home.file(DeckhandHome.AUDIT_SEAL_KEY);
        AuditSettings s = AuditSettings.defaults();
        if (config.auditRetentionDays().isPresent()) {
            s = s.withRetention(
                    java.time.Duration.ofDays(config.auditRetentionDays().getAsInt()));
        }
        this.settings = s;
    }

    public AuditStore store() {
        AuditStore s = store;
        if (s == null) {
            synchronized (this) {
                s = store;
                if (s == null) {
                    s = AuditStore.open(database, key, settings, clock);
                    store = s;
                }
            }
        }
        return s;
    }

    @Override
    public long append(AuditEvent event) {
        return store().append(event);
    }

    @Override
    public void defer(AuditEvent event) {
        store().defer(event);
    }

    /** Commits the deferred records now. */
    public void flush() {
        store().flush();
    }

    public Path database() {
        return database;
    }

    public Path sealKey() {
        return key;
    }

    /**
     * Opened at start, so this server holds the audit log's lock for as long as it runs; after the
     * {@code @Startup} beans (default priority), so {@code PolicyStore}'s first-start check sees no
     * database yet. At the same priority the order was the container's choice, and it changed when a
     * class was added.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // prune() catches its own failures; close() ends the schedule
    void open(
            @Observes @jakarta.annotation.Priority(jakarta.enterprise.inject.spi.ObserverMethod.DEFAULT_PRIORITY + 100)
                    io.quarkus.runtime.StartupEvent event) {
        store();
        if (settings.retention() != null) {
            pruner.scheduleWithFixedDelay(this::prune, 0, 6, java.util.concurrent.TimeUnit.HOURS);
        }
    }

    private void prune() {
        try {
            PruneResult r = store().prune();
            if (r.deletedRecords() > 0) {
                LOG.infof(
                        "audit retention: removed %d records up to seq %d (checkpoint kept)",
                        r.deletedRecords(), r.checkpointSeq());
            }
        } catch (RuntimeException e) {
            LOG.warnf("audit retention failed: %s", e.getMessage());
        }
    }

    void close(@Observes ShutdownEvent event) {
        pruner.shutdownNow();
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

package dev.deckhand.home;

import dev.deckhand.grant.OwnSecrets;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Every secret of Deckhand's, as one {@link OwnSecrets} matcher: the MCP and owner tokens, the audit seal
 * key and the bound model's API key (read from the config directory, and read again whenever a file's size
 * or modification time changes, so a rotated or newly bound key counts at once), and the secrets held in
 * memory while valid (sign-in codes, owner session ids, CSRF tokens; {@link HeldSecrets}).
 *
 * <p>The matcher is also published ({@link PublishedSecrets}) for the log filter and the audit rows.
 */
@ApplicationScoped
@Startup
public class KnownSecrets implements HeldSecrets {

    private static final Logger LOG = Logger.getLogger(KnownSecrets.class);

    private record Stamp(long size, Instant modified) {}

    private final DeckhandHome home;
    private final Map<String, Stamp> stamps = new ConcurrentHashMap<>();
    private final Map<String, String> fromFiles = new ConcurrentHashMap<>();
    private final Map<String, String> held = new ConcurrentHashMap<>();
    private volatile boolean heldChanged = true;
    private OwnSecrets current = OwnSecrets.none();

    @Inject
    public KnownSecrets(DeckhandHome home) {
        this.home = Objects.requireNonNull(home, "home");
        int unmatchable = current().unmatchable();
        if (unmatchable > 0) {
            LOG.warnf(
                    "%d of Deckhand's secrets are shorter than %d characters without their prefix and cannot be screened for",
                    unmatchable, OwnSecrets.RUN);
        }
    }

    /** The matcher of every secret known now, the files read again where they changed. */
    public synchronized OwnSecrets current() {
        boolean changed = heldChanged;
        for (String name : SecretFileReads.files()) changed |= reread(name);
        if (changed) {
            heldChanged = false;
            Map<String, String> all = new LinkedHashMap<>(fromFiles);
            held.forEach(all::putIfAbsent);
            current = OwnSecrets.named(all);
            PublishedSecrets.publish(current);
        }
        return current;
    }

    /** Whether the file changed since it was last read (and then its secret is read again). */
    private boolean reread(String name) {
        Path file = home.file(name);
        Stamp now;
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            now = new Stamp(a.size(), a.lastModifiedTime().toInstant());
        } catch (IOException missing) {
            now = new Stamp(-1, Instant.EPOCH);
        }
        if (now.equals(stamps.get(name))) return false;
        stamps.put(name, now);
        fromFiles.entrySet().removeIf(e -> e.getValue().equals(SecretFileReads.called(name)));
        if (now.size() > 0) {
            try {
                String secret = SecretFileReads.read(file);
                if (!secret.isEmpty()) fromFiles.put(secret, SecretFileReads.called(name));
            } catch (IOException unreadable) {
                LOG.warnf(
                        "cannot read %s to screen for it: %s",
                        name, unreadable.getClass().getSimpleName());
            }
        }
        return true;
    }

    @Override
    public void hold(String secret, String name) {
        if (secret == null || secret.isBlank()) return;
        held.put(secret, name);
        heldChanged = true;
        current();
    }

    @Override
    public void release(String secret) {
        if (secret == null || held.remove(secret) == null) return;
        heldChanged = true;
        current();
    }
}

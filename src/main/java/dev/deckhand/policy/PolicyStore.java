package dev.deckhand.policy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.loop.json.JsonMappers;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import org.jboss.logging.Logger;

/**
 * The person's policy file, {@code policy.json} in the config directory (docs/design.md#deny-lists). The very
 * first start — neither a policy file nor an audit database — writes the defaults and says where.
 * After that a missing, unreadable or invalid file refuses every run with {@code CONFIG_MISSING}
 * until the person saves one; nothing falls back to defaults silently. Created at start
 * ({@code @Startup}), so the first-start check runs before anything writes the audit database.
 */
@ApplicationScoped
@io.quarkus.runtime.Startup
public class PolicyStore {

    private static final Logger LOG = Logger.getLogger(PolicyStore.class);

    private final Path file;
    private final ObjectMapper json;
    private volatile Cached cached;

    private record Cached(FileTime modified, long size, PolicyConfig config) {}

    @Inject
    public PolicyStore(DeckhandHome home) {
        this(home.dir());
    }

    PolicyStore(Path dir) {
        this.file = dir.resolve(DeckhandHome.POLICY);
        this.json = JsonMappers.builder(new com.fasterxml.jackson.core.JsonFactory())
                .enable(SerializationFeature.INDENT_OUTPUT)
                .build();
        if (!Files.exists(file) && !Files.exists(dir.resolve(DeckhandHome.AUDIT_DATABASE))) {
            write(PolicyDocument.of(PolicyConfig.defaults()));
            LOG.infof(
                    "first start: wrote the default policy to %s (deny lists, caps, permission mode); edit it in the web page",
                    file);
        }
    }

    public Path file() {
        return file;
    }

    /** The policy as it is on disk now. @throws RefusedException CONFIG_MISSING naming the file and the fault */
    public PolicyConfig current() {
        try {
            var attrs = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class);
            Cached c = cached;
            if (c != null && c.modified().equals(attrs.lastModifiedTime()) && c.size() == attrs.size()) {
                return c.config();
            }
            PolicyConfig config =
                    json.readValue(file.toFile(), PolicyDocument.class).toConfig();
            cached = new Cached(attrs.lastModifiedTime(), attrs.size(), config);
            return config;
        } catch (java.nio.file.NoSuchFileException e) {
            throw new RefusedException(Refusal.configMissing("the policy file " + file
                    + " is missing; save the policy in Deckhand's page (or PUT /api/policy)"));
        } catch (IOException | IllegalArgumentException e) {
            throw new RefusedException(Refusal.configMissing("the policy file " + file + " is unreadable or invalid ("
                    + firstLine(e.getMessage()) + "); save it again in Deckhand's page"));
        }
    }

    /** Validates and saves the whole document; returns the config as stored (built-ins re-added). */
    public PolicyConfig save(PolicyDocument document) {
        PolicyConfig config = document.toConfig();
        write(PolicyDocument.of(config));
        return config;
    }

    /** Parses a document strictly (unknown fields refused). */
    public PolicyDocument parse(String body) {
        if (body == null || body.isBlank())
            throw new IllegalArgumentException("body must be a JSON object (the policy)");
        try {
            PolicyDocument document = json.readValue(body, PolicyDocument.class);
            if (document == null)
                throw new IllegalArgumentException("body must be a JSON object (the policy), was null");
            return document;
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    firstLine(
                            e instanceof com.fasterxml.jackson.core.JsonProcessingException j
                                    ? j.getOriginalMessage()
                                    : e.getMessage()),
                    e);
        }
    }

    private synchronized void write(PolicyDocument document) {
        try {
            Path tmp = Files.createTempFile(
                    file.getParent(),
                    DeckhandHome.POLICY,
                    ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            json.writeValue(tmp.toFile(), document);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            cached = null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static String firstLine(String message) {
        if (message == null) return "no detail";
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}

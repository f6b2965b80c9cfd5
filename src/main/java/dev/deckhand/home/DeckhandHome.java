package dev.deckhand.home;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * The config directory (mode 0700) and every file name in it: tokens, policy, audit database and its
 * seal key, model binding and key, kept eval reports. Secrets are files of mode 0600, created on first
 * start; a secret file readable by others is tightened, never trusted as is. In the server it is one
 * bean ({@link HomeBeans}); the commands that run without a server ({@code verify-audit}, {@code signin},
 * {@code eval}) resolve it themselves.
 */
public final class DeckhandHome {

    /** The MCP client's bearer secret. */
    public static final String MCP_TOKEN = "mcp-token";
    /** The web page's and owner scripts' bearer secret. */
    public static final String OWNER_TOKEN = "owner-token";
    /** The person's policy document (deny lists, caps, permission mode). */
    public static final String POLICY = "policy.json";
    /** The audit log (SQLite). */
    public static final String AUDIT_DATABASE = "audit.db";
    /** The audit log's seal key, kept outside the database. */
    public static final String AUDIT_SEAL_KEY = "audit-seal.key";
    /** The bound model (provider, model, base URL); never the key. */
    public static final String MODEL_BINDING = "model.json";
    /** The provider API key (mode 0600). */
    public static final String MODEL_API_KEY = "model-api-key";
    /** The person's per-application model bindings (WM_CLASS → binding; no key). */
    public static final String MODEL_APPS = "model-apps.json";
    /** The person's price table (US dollars per million tokens, by model id). */
    public static final String MODEL_PRICES = "model-prices.json";
    /** The folder of kept {@code deckhand eval} reports. */
    public static final String EVAL_REPORTS = "eval";

    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> SECRET_MODE = PosixFilePermissions.fromString("rw-------");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path dir;

    private DeckhandHome(Path dir) {
        this.dir = dir;
    }

    /** Resolves the directory (creating it, mode 0700): {@code configured}, else {@code $DECKHAND_HOME}, else {@code ~/.config/deckhand}. */
    public static DeckhandHome resolve(String configured) {
        Path dir = locate(configured);
        try {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, DIR_MODE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the config directory " + dir, e);
        }
        return new DeckhandHome(dir);
    }

    /** Where {@link #resolve} would find the directory, without creating anything. */
    public static Path locate(String configured) {
        String path = configured;
        if (path == null || path.isBlank()) path = System.getenv("DECKHAND_HOME");
        if (path == null || path.isBlank()) path = System.getProperty("user.home") + "/.config/deckhand";
        return Path.of(path).toAbsolutePath().normalize();
    }

    public Path dir() {
        return dir;
    }

    public Path file(String name) {
        return dir.resolve(name);
    }

    /** The secret stored in {@code name}, created (32 random bytes, base64url) when missing. */
    public synchronized String secret(String name) {
        Path file = dir.resolve(name);
        try {
            if (Files.exists(file)) {
                if (!Files.getPosixFilePermissions(file).equals(SECRET_MODE)) {
                    Files.setPosixFilePermissions(file, SECRET_MODE);
                }
                String value = SecretFileReads.read(file);
                if (value.length() >= 32) return value;
            }
            return write(file, name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create " + file, e);
        }
    }

    /** Replaces the secret stored in {@code name} with a fresh one (32 random bytes, base64url) and returns it. */
    public synchronized String replaceSecret(String name) {
        Path file = dir.resolve(name);
        try {
            return write(file, name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot replace " + file, e);
        }
    }

    private String write(Path file, String name) throws IOException {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String value = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Path tmp = Files.createTempFile(dir, name, ".tmp", PosixFilePermissions.asFileAttribute(SECRET_MODE));
        Files.writeString(tmp, value + "\n", StandardCharsets.US_ASCII);
        Files.move(
                tmp,
                file,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return value;
    }
}

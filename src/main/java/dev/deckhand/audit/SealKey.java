package dev.deckhand.audit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The sealing key: 32 random bytes kept as 64 hex chars in a file outside the database, created
 * with mode 0600 when missing. Seals, checkpoints and the head anchor are HMAC-SHA256 under it,
 * each with its own domain tag so one can never be passed off as another.
 */
final class SealKey {
    static final byte[] SEAL = "seal".getBytes(StandardCharsets.US_ASCII);
    static final byte[] CHECKPOINT = "checkpoint".getBytes(StandardCharsets.US_ASCII);

    private final byte[] key;

    private SealKey(byte[] key) {
        this.key = key;
    }

    static SealKey of(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("key must be 32 bytes");
        }
        return new SealKey(key.clone());
    }

    /** Reads the key file; creates it (0600, via a temp file and an atomic rename) when missing. */
    static SealKey loadOrCreate(Path file) {
        try {
            if (!Files.exists(file)) {
                create(file);
            }
            return read(file);
        } catch (IOException e) {
            throw new AuditException("cannot read or create the audit seal key " + file, e);
        }
    }

    /** Reads an existing key file. */
    static SealKey read(Path file) {
        try {
            String text = dev.deckhand.home.SecretFileReads.read(file);
            if (text.length() != 64) {
                throw new AuditException("audit seal key " + file + " is not 64 hex characters");
            }
            return new SealKey(HexFormat.of().parseHex(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new AuditException("cannot read the audit seal key " + file, e);
        }
    }

    private static void create(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Path tmp = dir.resolve(file.getFileName() + ".tmp" + Long.toHexString(System.nanoTime()));
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(tmp);
        }
        Files.writeString(
                tmp,
                HexFormat.of().formatHex(key) + "\n",
                StandardCharsets.US_ASCII,
                StandardOpenOption.WRITE,
                StandardOpenOption.SYNC);
        try {
            // createLink fails if the target exists, so a concurrent creator's key is never replaced.
            Files.createLink(file, tmp);
        } catch (FileAlreadyExistsException e) {
            // someone else created it first: theirs wins
        } catch (UnsupportedOperationException e) {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** HMAC-SHA256(key, tag || seq || hash). */
    byte[] mac(byte[] tag, long seq, byte[] hash) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(tag);
            mac.update(Row.longBytes(seq));
            mac.update(hash);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }

    @Override
    public String toString() {
        return "SealKey[redacted]";
    }
}

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
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The sealing key: 32 random bytes kept as 64 hex chars in a file outside the database, created
 * with mode 0600 when missing. Seals, checkpoints and the head anchor are HMAC-SHA256 under it,
 * each with its own domain tag so one can never be passed off as another.
 *
 * <p>The key is replaced when a copy of it may have left ({@link #rotated}): the file then holds one key per epoch,
 * the first line the first key (from seq 0), each further line {@code FROM_SEQ HEX}, the key of every MAC at that seq
 * and after. Every MAC at a seq is made and checked with the key of the epoch the seq falls in, so a copy of an old key
 * seals nothing of a later epoch, and the first seal of the new epoch covers the whole chain before it.
 */
final class SealKey {
    static final byte[] SEAL = "seal".getBytes(StandardCharsets.US_ASCII);
    static final byte[] CHECKPOINT = "checkpoint".getBytes(StandardCharsets.US_ASCII);

    /** The key of MACs at seq {@code from} and after (until the next epoch's). */
    private record Epoch(long from, byte[] key) {}

    private final List<Epoch> epochs;

    private SealKey(List<Epoch> epochs) {
        this.epochs = List.copyOf(epochs);
    }

    static SealKey of(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("key must be 32 bytes");
        }
        return new SealKey(List.of(new Epoch(0, key.clone())));
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
            String[] lines =
                    dev.deckhand.home.SecretFileReads.read(file).strip().split("\n");
            List<Epoch> epochs = new ArrayList<>();
            for (int i = 0; i < lines.length; i++) {
                String[] f = lines[i].strip().split(" ");
                long from = i == 0 ? 0 : Long.parseLong(f[0]);
                String hex = i == 0 ? f[0] : f.length == 2 ? f[1] : "";
                if ((i == 0 ? f.length != 1 : f.length != 2) || hex.length() != 64) {
                    throw new AuditException("audit seal key " + file + " line " + (i + 1) + " is not "
                            + (i == 0 ? "64 hex characters" : "a seq and 64 hex characters"));
                }
                if (i > 0 && from < epochs.get(i - 1).from()) {
                    throw new AuditException(
                            "audit seal key " + file + " line " + (i + 1) + " starts before the one above");
                }
                epochs.add(new Epoch(from, HexFormat.of().parseHex(hex)));
            }
            return new SealKey(epochs);
        } catch (IOException | IllegalArgumentException e) {
            throw new AuditException("cannot read the audit seal key " + file, e);
        }
    }

    /**
     * A new key for every MAC at seq {@code from} and after, written to {@code file} with the keys before it (a new
     * file of mode 0600 moved onto the name, so a hard link or an open copy keeps the old text).
     */
    SealKey rotated(Path file, long from) {
        if (from < epochs.get(epochs.size() - 1).from()) {
            throw new IllegalArgumentException("a new epoch cannot start before the last one");
        }
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        List<Epoch> next = new ArrayList<>(epochs);
        next.add(new Epoch(from, key));
        StringBuilder text =
                new StringBuilder(HexFormat.of().formatHex(next.get(0).key())).append('\n');
        for (Epoch e : next.subList(1, next.size())) {
            text.append(e.from())
                    .append(' ')
                    .append(HexFormat.of().formatHex(e.key()))
                    .append('\n');
        }
        try {
            Path dir = file.toAbsolutePath().getParent();
            Path tmp = Files.createTempFile(
                    dir,
                    file.getFileName().toString(),
                    ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(tmp, text, StandardCharsets.US_ASCII, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new AuditException("cannot write a new audit seal key to " + file, e);
        }
        return new SealKey(next);
    }

    /** The seq the newest key's epoch starts at. */
    long epochStart() {
        return epochs.get(epochs.size() - 1).from();
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

    /** HMAC-SHA256(key, tag || seq || hash), with the key of the epoch {@code seq} falls in. */
    byte[] mac(byte[] tag, long seq, byte[] hash) {
        byte[] key = epochs.get(0).key();
        for (Epoch e : epochs) if (e.from() <= seq) key = e.key();
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
